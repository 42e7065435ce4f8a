/**
 * Run by young-survival.test.ts under `node --trace-gc-nvp`: blocking sends, one after another, to an agent
 * that completes at once, with a store and finished-log bound of one, so nothing a task allocated is kept
 * on purpose. V8 prints one line per collection; the measured sends are those between the two markers.
 */
import { Effect, Exit, Scope } from "effect"
import { Agent } from "../../src/agent/agent.ts"
import { freshId } from "../../src/agent/fresh-id.ts"
import type { TaskContext } from "../../src/agent/task-context.ts"
import { TaskRuntime } from "../../src/runtime/task-runtime.ts"

const card = {
  name: "young",
  description: "completes at once",
  url: "http://127.0.0.1/",
  version: "1.0.0",
  capabilities: {},
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "s", name: "s", description: "s", tags: [] }]
}
// Written as docs/agents.md recommends, and reading the live fields, so their getters are exercised.
const agent = Agent.make({
  card,
  execute: Effect.fnUntraced(function*(ctx: TaskContext) {
    if (ctx.task.id !== ctx.taskId || ctx.history.length === 0 || ctx.saved !== undefined) throw new Error("unexpected context")
    yield* ctx.complete("done")
  })
})
const sends = Number(process.argv[2])
const scope = Scope.makeUnsafe()
const runtime = await Effect.runPromise(Scope.provide(scope)(
  TaskRuntime.make(agent, { memoryStore: { maxTerminalTasks: 1 }, finishedLogs: { maxLogs: 1 } })
))
const caller = { principal: { id: "young" }, extensions: [] }
const send = Effect.suspend(() =>
  runtime.send({ message: { kind: "message", role: "user", messageId: freshId(), parts: [{ kind: "text", text: "hi" }] } }, caller))
const loop = (n: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < n; i++) {
      const answer = yield* send
      if (answer.kind !== "task" || answer.status.state !== "completed") throw new Error("not completed")
    }
  })
await Effect.runPromise(loop(Math.min(2_000, sends)))
console.log("measure-start")
await Effect.runPromise(loop(sends))
console.log("measure-end")
await Effect.runPromise(Scope.close(scope, Exit.void))
