/**
 * In-process cost of a task: blocking `TaskRuntime.send`s, one after another, to an agent that completes
 * at once. No HTTP and no codec: the runtime, its task host, machine, event log and in-memory store.
 * Cost is CPU time (a shared machine stretches wall time by whatever else runs); rounds are repeated and
 * the median is reported.
 *
 * It runs as compiled JavaScript (see compiled.ts).
 *
 * Usage:
 *   npx tsx bench/task-send.ts                        print the figures
 *   npx tsx bench/task-send.ts --label after          also record them under that label in
 *                                                     bench/results/task-send.json
 *   npx tsx bench/task-send.ts --rounds 9 --tasks 20000
 */
import { readFileSync, writeFileSync } from "node:fs"
import { Effect } from "effect"
import type { Message } from "../schemas/index.ts"
import { Agent } from "../src/agent/agent.ts"
import { TaskRuntime } from "../src/runtime/task-runtime.ts"
import type { RequestContext } from "../src/runtime/task-runtime.ts"
import { resultsDir, runCompiled } from "./compiled.ts"

runCompiled(import.meta.url)

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}
const rounds = Number(arg("rounds") ?? 7)
const tasks = Number(arg("tasks") ?? 20_000)
const label = arg("label")

const agent = Agent.make({
  card: {
    name: "bench",
    description: "completes at once",
    url: "http://127.0.0.1/",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "s", name: "s", description: "s", tags: [] }]
  },
  execute: (ctx) => ctx.complete("done")
})
const caller: RequestContext = { principal: { id: "bench" }, extensions: [] }
const message = (): Message => ({ kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text: "hi" }] })

/** Process CPU time in ms: a shared machine stretches wall time by whatever else runs, CPU time far less. */
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const program = Effect.scoped(Effect.gen(function*() {
  const runtime = yield* TaskRuntime.make(agent)
  const round = (n: number) =>
    Effect.gen(function*() {
      const t0 = cpuMs()
      for (let i = 0; i < n; i++) {
        const r = yield* runtime.send({ message: message() }, caller)
        if (r.kind !== "task" || r.status.state !== "completed") throw new Error(`unexpected answer ${JSON.stringify(r)}`)
      }
      return ((cpuMs() - t0) * 1000) / n
    })
  yield* round(Math.min(tasks, 5_000)) // warm-up
  const us: Array<number> = []
  for (let r = 0; r < rounds; r++) us.push(yield* round(tasks))
  return us
}))

const us = await Effect.runPromise(program)
const perTask = Math.round(median(us) * 10) / 10
console.log(`blocking send, agent completes at once: median ${perTask} us of CPU per task (${Math.round(1e6 / perTask)} tasks per CPU second)`)
console.log(`rounds of ${tasks} tasks: ${us.map((x) => x.toFixed(1)).join(", ")} us/task (node ${process.version})`)

if (label !== undefined) {
  const file = `${resultsDir}task-send.json`
  let all: Record<string, unknown> = {}
  try {
    all = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
  } catch {
    // first run: a new file
  }
  all[label] = { node: process.version, rounds, tasks, us_per_task: perTask, rounds_us: us.map((x) => Math.round(x * 10) / 10) }
  writeFileSync(file, JSON.stringify(all, null, 2) + "\n")
  console.log(`recorded as '${label}' in ${file}`)
}
