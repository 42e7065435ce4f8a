/**
 * Log lines about a task name it: an agent that fails, a write the store refuses, a record retried.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import { TaskRuntime } from "./task-runtime.ts"
import { isTerminalTask, TaskStoreFailure } from "./task-store.ts"

const asTask = (r: Task | Message): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}

/** Warning and error lines written while the test runs. */
const capture = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ logLevel, message }) => {
    if (logLevel === "Warn" || logLevel === "Error") lines.push(Array.isArray(message) ? message.map(String).join(" ") : String(message))
  })
  return { lines, layer: Logger.layer([logger]) }
}

describe("log lines about a task", () => {
  it.effect("name it when its agent fails and when the store refuses its writes", () => {
    const { layer, lines } = capture()
    return Effect.gen(function*() {
      const failing = Agent.make({ card: testCard(), execute: () => Effect.fail(new Error("model down")) })
      const failed = asTask(yield* (yield* TaskRuntime.make(failing)).send({ message: userMessage("hi") }, as("a")))
      expect(failed.status.state).toBe("failed")
      expect(lines.some((l) => l.includes(`task ${failed.id}`) && l.includes("execute failed"))).toBe(true)

      // A store that refuses every write but the terminal one.
      const inner = yield* makeMemoryTaskStore()
      const store = {
        ...inner,
        put: (input: Parameters<typeof inner.put>[0], version: number) =>
          isTerminalTask(input.task) ? inner.put(input, version) : Effect.fail(new TaskStoreFailure({ message: "disk full" }))
      }
      const working = Agent.make({ card: testCard(), execute: (ctx) => Effect.andThen(ctx.working("on it"), ctx.complete()) })
      const done = asTask(yield* (yield* TaskRuntime.make(working, { store })).send({ message: userMessage("hi") }, as("a")))
      expect(lines.some((l) => l.includes(`task ${done.id}`) && l.includes("write to the store failed"))).toBe(true)
    }).pipe(Effect.provide(layer))
  })
})
