/**
 * A store that fails never rolls a finished task back: the runtime keeps the task hosted (answering its
 * true state) until the terminal record is stored, retrying with backoff, and shows the backlog.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, Option } from "effect"
import { TestClock } from "effect/testing"
import type { Message, Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { TaskRuntime } from "./task-runtime.ts"
import { isTerminalTask, TaskStoreFailure } from "./task-store.ts"
import type { TaskStore } from "./task-store.ts"

const alice = as("alice")

/**
 * The in-memory store, except that writes of a terminal Task fail `failures` times (every time when
 * infinite) before they succeed: a database that is down when the task ends.
 */
const storeFailingTerminalWrites = (failures: number) =>
  Effect.map(makeMemoryTaskStore(), (inner) => {
    let failed = 0
    const store: TaskStore & { readonly failed: () => number } = {
      ...inner,
      put: (input, expected) =>
        Effect.suspend(() => {
          if (isTerminalTask(input.task) && failed < failures) {
            failed++
            return Effect.fail(new TaskStoreFailure({ message: "database unreachable" }))
          }
          return inner.put(input, expected)
        }),
      failed: () => failed
    }
    return store
  })

const completingAgent = Agent.make({
  card: testCard(),
  execute: (ctx) => Effect.andThen(ctx.working("on it"), ctx.complete("done"))
})

const asTask = (r: Task | Message): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}

/** Error-level log lines written while `effect` runs. */
const errorLines = Effect.sync(() => {
  const lines: Array<string> = []
  const logger = Logger.make(({ logLevel, message }) => {
    if (logLevel === "Error") lines.push(String(message))
  })
  return { lines, layer: Logger.layer([logger]) }
})

describe("TaskRuntime when the store fails on the terminal write", () => {
  it.effect("keeps the task hosted with its true state and stores it once a retry succeeds", () =>
    Effect.gen(function*() {
      const store = yield* storeFailingTerminalWrites(3)
      const runtime = yield* TaskRuntime.make(completingAgent, { store })
      const task = asTask(yield* runtime.send({ message: userMessage("go") }, alice))
      expect(task.status.state).toBe("completed")
      // The store still has the working record, but the runtime answers what really happened.
      expect(Option.getOrThrow(yield* store.get(task.id)).task.status.state).toBe("working")
      expect((yield* runtime.get({ id: task.id }, alice)).status.state).toBe("completed")
      expect(runtime.hosted()).toBe(1)
      expect(runtime.storeHealth()).toMatchObject({ unstoredTasks: 1 })
      expect(runtime.storeHealth().failedWrites).toBeGreaterThanOrEqual(1)
      // Backoff: the retries run on the Effect clock.
      yield* TestClock.adjust("1 minute")
      expect(store.failed()).toBe(3)
      expect(Option.getOrThrow(yield* store.get(task.id)).task.status.state).toBe("completed")
      expect(runtime.hosted()).toBe(0)
      expect(runtime.storeHealth()).toEqual({ unstoredTasks: 0, failedWrites: 3 })
      expect((yield* runtime.get({ id: task.id }, alice)).status.state).toBe("completed")
      // A finished task accepts nothing more, before and after it was stored.
      expect((yield* Effect.flip(runtime.cancel({ id: task.id }, alice)))._tag).toBe("TaskNotCancelable")
    }))

  it.effect("keeps answering the true state and reports the backlog while the store keeps failing", () =>
    Effect.gen(function*() {
      const { layer, lines } = yield* errorLines
      const store = yield* storeFailingTerminalWrites(Number.POSITIVE_INFINITY)
      const runtime = yield* TaskRuntime.make(completingAgent, { store })
      const task = asTask(yield* runtime.send({ message: userMessage("go") }, alice).pipe(Effect.provide(layer)))
      for (let step = 0; step < 3; step++) {
        yield* TestClock.adjust("10 minutes")
        expect((yield* runtime.get({ id: task.id }, alice)).status.state).toBe("completed")
        expect((yield* Effect.flip(runtime.send({ message: userMessage("more", { taskId: task.id }) }, alice)))._tag)
          .toBe("InvalidParams")
      }
      expect(runtime.storeHealth().unstoredTasks).toBe(1)
      // one attempt per 30 s or so once the backoff is at its cap: about 60 in 30 minutes
      expect(store.failed()).toBeGreaterThan(10)
      expect(runtime.storeHealth().failedWrites).toBe(store.failed())
      expect(lines.some((l) => l.includes(task.id) && l.includes("not stored"))).toBe(true)
      // The task stays hosted: its stored record is behind, the runtime is not.
      expect(Option.getOrThrow(yield* store.get(task.id)).task.status.state).toBe("working")
      expect(runtime.hosted()).toBe(1)
    }))

  it.effect("stores a canceled task whose terminal write failed at first", () =>
    Effect.gen(function*() {
      const store = yield* storeFailingTerminalWrites(2)
      const runtime = yield* TaskRuntime.make(
        Agent.make({ card: testCard(), execute: (ctx) => Effect.andThen(ctx.working(), Effect.never) }),
        { store }
      )
      const task = asTask(yield* runtime.send({ message: userMessage("go"), configuration: { blocking: false } }, alice))
      expect((yield* runtime.cancel({ id: task.id }, alice)).status.state).toBe("canceled")
      expect((yield* runtime.get({ id: task.id }, alice)).status.state).toBe("canceled")
      yield* TestClock.adjust("1 minute")
      expect(Option.getOrThrow(yield* store.get(task.id)).task.status.state).toBe("canceled")
      expect(runtime.storeHealth().unstoredTasks).toBe(0)
    }))
})
