import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect } from "effect"
import type { Task } from "../../schemas/index.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { TaskRuntime } from "../runtime/task-runtime.ts"
import { Agent } from "./agent.ts"
import { messageText } from "./messages.ts"

const alice = as("alice")

describe("Agent.fromAsync", () => {
  it.effect("drives a task with promises, including an input round trip", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(
        Agent.fromAsync({
          card: testCard(),
          execute: async (ctx) => {
            await ctx.working("thinking")
            const answer = await ctx.requestInput("Which city?")
            await ctx.artifact([{ kind: "text", text: `Weather in ${messageText(answer)}` }], { name: "forecast" })
            await ctx.complete()
          }
        })
      )
      const asked = (yield* runtime.send({ message: userMessage("weather") }, alice)) as Task
      expect(asked.status.state).toBe("input-required")
      const done = (yield* runtime.send({ message: userMessage("Oslo", { taskId: asked.id }) }, alice)) as Task
      expect(done.status.state).toBe("completed")
      expect(done.artifacts?.[0]?.name).toBe("forecast")
      expect(done.artifacts?.[0]?.parts).toEqual([{ kind: "text", text: "Weather in Oslo" }])
    }))

  it.effect("aborts ctx.signal on cancel and rejects refused actions with TaskActionRefused", () =>
    Effect.gen(function*() {
      const ready = yield* Deferred.make<void>()
      const aborted = yield* Deferred.make<string>()
      const runtime = yield* TaskRuntime.make(
        Agent.fromAsync({
          card: testCard(),
          execute: async (ctx) => {
            await ctx.working()
            const abort = new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()))
            Effect.runSync(Deferred.succeed(ready, undefined))
            await abort
            const refused = await ctx.complete().then(() => "accepted", (e: { _tag?: string }) => e._tag ?? "?")
            Effect.runSync(Deferred.succeed(aborted, refused))
          }
        })
      )
      const task = (yield* runtime.send({ message: userMessage("x"), configuration: { blocking: false } }, alice)) as Task
      yield* Deferred.await(ready)
      expect((yield* runtime.cancel({ id: task.id }, alice)).status.state).toBe("canceled")
      // the promise code keeps running after the abort; its late `complete` must be refused
      expect(yield* Deferred.await(aborted)).toBe("TaskActionRefused")
      expect((yield* runtime.get({ id: task.id }, alice)).status.state).toBe("canceled")
    }))

  it.effect("receives messages sent to the task while it works, with and without waiting", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const runtime = yield* TaskRuntime.make(
        Agent.fromAsync({
          card: testCard(),
          execute: async (ctx) => {
            const none = ctx.tryReceive()
            await ctx.working()
            Effect.runSync(Deferred.succeed(started, undefined))
            const next = await ctx.receive()
            await ctx.complete(`${none === undefined ? "nothing, then" : "?"} ${messageText(next)}`)
          }
        })
      )
      const task = (yield* runtime.send({ message: userMessage("x"), configuration: { blocking: false } }, alice)) as Task
      yield* Deferred.await(started)
      const done = (yield* runtime.send({ message: userMessage("hello", { taskId: task.id }) }, alice)) as Task
      expect(done.status.state).toBe("completed")
      expect(messageText(done.status.message!)).toBe("nothing, then hello")
    }))
})
