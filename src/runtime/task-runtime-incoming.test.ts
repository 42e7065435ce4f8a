/**
 * A message sent to a task while its agent runs is never silently dropped: the agent can take it with
 * `ctx.receive` / `ctx.tryReceive`, and a run that returns without taking it is followed by a run of
 * `execute` with it as `ctx.message`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Logger, Option, Stream } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import type { TaskContext } from "../agent/task-context.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { TaskRuntime } from "./task-runtime.ts"
import type { TaskRuntime as Runtime } from "./task-runtime.ts"

const alice = as("alice")

const asTask = (r: Task | Message): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}

/** Waits (fiber turns, no clock) until the task's history holds `n` messages. */
const historyReaches = (runtime: Runtime, id: string, n: number): Effect.Effect<void> =>
  Effect.flatMap(Effect.orDie(runtime.get({ id }, alice)), (task) =>
    (task.history?.length ?? 0) >= n ? Effect.void : Effect.andThen(Effect.yieldNow, historyReaches(runtime, id, n)))

/** The task's final state and status text, read by resubscribing until its stream ends. */
const finalOf = (runtime: Runtime, id: string) =>
  Effect.map(Effect.flatMap(runtime.resubscribe({ id }, alice), Stream.runCollect), (events) => {
    const last = events.at(-1)!.event
    const status = last.kind === "task" || last.kind === "status-update" ? last.status : undefined
    return { state: status?.state, text: status?.message === undefined ? undefined : messageText(status.message) }
  })

type Mode = "blocking" | "non-blocking" | "streaming"
const modes: ReadonlyArray<Mode> = ["blocking", "non-blocking", "streaming"]

/**
 * Sends `text` to task `id` in `mode`, then opens `gate`; returns the task's final state and status text
 * as that sender observes it.
 */
const followUp = (runtime: Runtime, id: string, text: string, mode: Mode, gate: Deferred.Deferred<void>) =>
  Effect.gen(function*() {
    const message = userMessage(text, { taskId: id })
    if (mode === "streaming") {
      const events = yield* Effect.forkChild(Effect.flatMap(runtime.stream({ message }, alice), Stream.runCollect))
      yield* historyReaches(runtime, id, 3)
      yield* Deferred.succeed(gate, undefined)
      const last = (yield* Fiber.join(events)).at(-1)!.event
      if (last.kind !== "status-update") throw new Error(`stream ended with ${last.kind}`)
      expect(last.final).toBe(true)
      return { state: last.status.state, text: last.status.message === undefined ? undefined : messageText(last.status.message) }
    }
    if (mode === "non-blocking") {
      const now = asTask(yield* runtime.send({ message, configuration: { blocking: false } }, alice))
      expect(now.status.state).toBe("working")
      expect(now.history?.map(messageText)).toContain(text)
      yield* Deferred.succeed(gate, undefined)
      return yield* finalOf(runtime, id)
    }
    const answer = yield* Effect.forkChild(runtime.send({ message }, alice))
    yield* historyReaches(runtime, id, 3)
    yield* Deferred.succeed(gate, undefined)
    const task = asTask(yield* Fiber.join(answer))
    return { state: task.status.state, text: task.status.message === undefined ? undefined : messageText(task.status.message) }
  })

describe("TaskRuntime, a message that arrives while execute runs", () => {
  for (const mode of modes) {
    it.effect(`runs execute again with it when the run returns without taking it (${mode} send)`, () =>
      Effect.gen(function*() {
        const gate = yield* Deferred.make<void>()
        const runs: Array<string> = []
        const runtime = yield* TaskRuntime.make(Agent.make({
          card: testCard(),
          execute: (ctx) =>
            Effect.suspend(() => {
              runs.push(messageText(ctx.message))
              return messageText(ctx.message) === "first"
                ? Effect.andThen(ctx.working("busy"), Deferred.await(gate))
                : ctx.complete(`got ${messageText(ctx.message)}`)
            })
        }))
        const task = asTask(yield* runtime.send({ message: userMessage("first"), configuration: { blocking: false } }, alice))
        const seen = yield* followUp(runtime, task.id, "second", mode, gate)
        expect(seen).toEqual({ state: "completed", text: "got second" })
        expect(runs).toEqual(["first", "second"])
        const history = (yield* runtime.get({ id: task.id }, alice)).history?.map(messageText)
        expect(history).toEqual(["first", "busy", "second", "got second"])
      }))

    it.effect(`hands it to ctx.receive while the run waits for it (${mode} send)`, () =>
      Effect.gen(function*() {
        const gate = yield* Deferred.make<void>()
        const runtime = yield* TaskRuntime.make(Agent.make({
          card: testCard(),
          execute: (ctx) =>
            Effect.gen(function*() {
              yield* ctx.working("listening")
              yield* Deferred.await(gate)
              const next = yield* ctx.receive()
              yield* ctx.complete(`heard ${messageText(next)}`)
            })
        }))
        const task = asTask(yield* runtime.send({ message: userMessage("start"), configuration: { blocking: false } }, alice))
        const seen = yield* followUp(runtime, task.id, "hello", mode, gate)
        expect(seen).toEqual({ state: "completed", text: "heard hello" })
      }))
  }

  it.effect("keeps several such messages in order, each reaching a run of execute", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const runs: Array<string> = []
      const runtime = yield* TaskRuntime.make(Agent.make({
        card: testCard(),
        onReturn: "keep",
        execute: (ctx) =>
          Effect.suspend(() => {
            runs.push(messageText(ctx.message))
            return Effect.andThen(ctx.working(`did ${messageText(ctx.message)}`), runs.length === 1 ? Deferred.await(gate) : Effect.void)
          })
      }))
      const task = asTask(yield* runtime.send({ message: userMessage("one"), configuration: { blocking: false } }, alice))
      for (const text of ["two", "three"]) {
        yield* runtime.send({ message: userMessage(text, { taskId: task.id }), configuration: { blocking: false } }, alice)
      }
      const last = yield* Effect.forkChild(runtime.send({ message: userMessage("four", { taskId: task.id }) }, alice))
      yield* historyReaches(runtime, task.id, 5)
      yield* Deferred.succeed(gate, undefined)
      const done = asTask(yield* Fiber.join(last))
      expect(runs).toEqual(["one", "two", "three", "four"])
      expect(done.status.state).toBe("working")
      expect(messageText(done.status.message!)).toBe("did four")
    }))

  it.effect("tryReceive takes a waiting message without waiting, and none when there is none", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const taken: Array<Option.Option<string>> = []
      const runtime = yield* TaskRuntime.make(Agent.make({
        card: testCard(),
        execute: (ctx: TaskContext) =>
          Effect.gen(function*() {
            taken.push(Option.map(yield* ctx.tryReceive(), messageText))
            yield* ctx.working()
            yield* Deferred.await(gate)
            taken.push(Option.map(yield* ctx.tryReceive(), messageText))
            yield* ctx.complete()
          })
      }))
      const task = asTask(yield* runtime.send({ message: userMessage("start"), configuration: { blocking: false } }, alice))
      yield* runtime.send({ message: userMessage("extra", { taskId: task.id }), configuration: { blocking: false } }, alice)
      yield* Deferred.succeed(gate, undefined)
      expect(yield* finalOf(runtime, task.id)).toMatchObject({ state: "completed" })
      expect(taken).toEqual([Option.none(), Option.some("extra")])
    }))

  it.effect("logs a warning when the agent ends the task with messages it never took", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") lines.push(String(message))
      })
      const gate = yield* Deferred.make<void>()
      const runtime = yield* TaskRuntime.make(Agent.make({
        card: testCard(),
        execute: (ctx) => Effect.andThen(Effect.andThen(ctx.working(), Deferred.await(gate)), ctx.complete("finished"))
      }))
      const task = asTask(
        yield* runtime.send({ message: userMessage("start"), configuration: { blocking: false } }, alice).pipe(
          Effect.provide(Logger.layer([logger]))
        )
      )
      yield* runtime.send({ message: userMessage("late", { taskId: task.id }), configuration: { blocking: false } }, alice)
      yield* Deferred.succeed(gate, undefined)
      expect(yield* finalOf(runtime, task.id)).toEqual({ state: "completed", text: "finished" })
      expect(lines.some((l) => l.includes(task.id) && l.includes("1 message"))).toBe(true)
    }))
})
