/**
 * In-process cost of a task and of a streamed chunk: blocking `TaskRuntime.send`s, one after another, to an
 * agent that completes at once, then to the same agent streaming artifact chunks (the message says how
 * many). No HTTP and no codec: the runtime, its task host, machine, event log and in-memory store.
 * Cost is CPU time (a shared machine stretches wall time by whatever else runs); rounds are repeated and
 * the median is reported.
 *
 * It runs as compiled JavaScript (see compiled.ts).
 *
 * Usage:
 *   npx tsx bench/task-send.ts                        print the figures
 *   npx tsx bench/task-send.ts --label after          also record them under that label in
 *                                                     bench/results/task-send.json
 *   npx tsx bench/task-send.ts --rounds 9 --tasks 20000 --chunks 20000
 */
import { readFileSync, writeFileSync } from "node:fs"
import { Effect } from "effect"
import type { Message } from "../schemas/index.ts"
import { Agent } from "../src/agent/agent.ts"
import { freshId } from "../src/agent/fresh-id.ts"
import { messageText } from "../src/agent/messages.ts"
import type { TaskContext } from "../src/agent/task-context.ts"
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
const chunks = Number(arg("chunks") ?? 20_000)
const label = arg("label")

const agent = Agent.make({
  card: {
    name: "bench",
    description: "streams as many chunks as the message says, then completes",
    url: "http://127.0.0.1/",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "s", name: "s", description: "s", tags: [] }]
  },
  execute: Effect.fnUntraced(function*(ctx: TaskContext) {
    const n = Number(messageText(ctx.message)) || 0
    for (let i = 0; i < n; i++) yield* ctx.artifact(String(i), { artifactId: "a", append: i > 0, lastChunk: i === n - 1 })
    yield* ctx.complete("done")
  })
})
const caller: RequestContext = { principal: { id: "bench" }, extensions: [] }
// The id as a client's request carries it: a flat string from JSON.parse (crypto.randomUUID builds a rope on Node).
const message = (text = "hi"): Message => ({ kind: "message", role: "user", messageId: freshId(), parts: [{ kind: "text", text }] })

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
  /** CPU us per unit of `n` sends of `text` (tasks: `n` sends; chunks: one send of `n` chunks). */
  const round = (sends: number, text: string, units: number) =>
    Effect.gen(function*() {
      const t0 = cpuMs()
      for (let i = 0; i < sends; i++) {
        const r = yield* runtime.send({ message: message(text) }, caller)
        if (r.kind !== "task" || r.status.state !== "completed") throw new Error(`unexpected answer ${JSON.stringify(r)}`)
      }
      return ((cpuMs() - t0) * 1000) / units
    })
  yield* round(Math.min(tasks, 5_000), "0", 1) // warm-up
  yield* round(1, String(Math.min(chunks, 5_000)), 1)
  const perTask: Array<number> = []
  const perChunk: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    perTask.push(yield* round(tasks, "0", tasks))
    perChunk.push(yield* round(1, String(chunks), chunks))
  }
  return { perTask, perChunk }
}))

const { perChunk, perTask } = await Effect.runPromise(program)
const usTask = Math.round(median(perTask) * 10) / 10
const usChunk = Math.round(median(perChunk) * 100) / 100
console.log(`blocking send, agent completes at once: median ${usTask} us of CPU per task (${Math.round(1e6 / usTask)} tasks per CPU second)`)
console.log(`one task streaming ${chunks} chunks: median ${usChunk} us of CPU per chunk (${Math.round(1e6 / usChunk)} chunks per CPU second)`)
console.log(`rounds: ${perTask.map((x) => x.toFixed(1)).join(", ")} us/task; ${perChunk.map((x) => x.toFixed(2)).join(", ")} us/chunk (node ${process.version})`)

if (label !== undefined) {
  const file = `${resultsDir}task-send.json`
  let all: Record<string, unknown> = {}
  try {
    all = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
  } catch {
    // first run: a new file
  }
  all[label] = {
    node: process.version,
    rounds,
    tasks,
    chunks,
    us_per_task: usTask,
    us_per_chunk: usChunk,
    rounds_us_per_task: perTask.map((x) => Math.round(x * 10) / 10),
    rounds_us_per_chunk: perChunk.map((x) => Math.round(x * 100) / 100)
  }
  writeFileSync(file, JSON.stringify(all, null, 2) + "\n")
  console.log(`recorded as '${label}' in ${file}`)
}
