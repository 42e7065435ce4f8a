import { describe, expect, it } from "@effect/vitest"
import { Clock, Deferred, Effect, Fiber, Stream } from "effect"
import { TestClock } from "effect/testing"
import type { Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { TaskRuntime } from "./task-runtime.ts"

const alice = as("alice")

describe("TaskRuntime at scale", () => {
  it.effect("runs 10,000 concurrent tasks with per-task order, then drops them after their time to live", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore({ terminalTtl: "1 minute", maxTerminalTasks: 20_000 })
      const runtime = yield* TaskRuntime.make(
        Agent.make({
          card: testCard(),
          execute: (ctx) =>
            Effect.gen(function*() {
              yield* ctx.working()
              yield* ctx.artifact(`echo ${messageText(ctx.message)}`)
              yield* ctx.complete()
            })
        }),
        { store }
      )
      const n = 10_000
      const results = yield* Effect.forEach(
        Array.from({ length: n }, (_, i) => i),
        (i) => Effect.flatMap(runtime.stream({ message: userMessage(`#${i}`) }, alice), Stream.runCollect),
        { concurrency: "unbounded" }
      )
      results.forEach((events, i) => {
        expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4])
        expect(events.map((e) => e.event.kind)).toEqual(["task", "status-update", "artifact-update", "status-update"])
        const artifact = events[2]!.event
        expect(artifact.kind === "artifact-update" && artifact.artifact.parts[0]).toEqual({ kind: "text", text: `echo #${i}` })
        const last = events[3]!.event
        expect(last.kind === "status-update" && last.status.state).toBe("completed")
      })
      expect(store.size()).toBe(n)
      expect(runtime.hosted()).toBe(0)
      yield* TestClock.adjust("2 minutes")
      expect(store.size()).toBe(0)
    }), 120_000)

  it.effect("a reader that reads nothing never stalls a 100,000-event agent, then gets a snapshot and live events", () =>
    Effect.gen(function*() {
      const emitted = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      const total = 100_000
      const runtime = yield* TaskRuntime.make(
        Agent.make({
          card: testCard(),
          execute: (ctx) =>
            Effect.gen(function*() {
              for (let i = 0; i < total; i++) {
                yield* ctx.artifact(`${i}`, { artifactId: "big", append: i > 0 })
              }
              yield* Deferred.succeed(emitted, undefined)
              yield* Deferred.await(gate)
              yield* ctx.artifact("tail", { artifactId: "big", append: true, lastChunk: true })
              yield* ctx.complete()
            })
        }),
        { logWindow: 256 }
      )
      const pull = yield* Stream.toPull(yield* runtime.stream({ message: userMessage("go") }, alice))
      const first = yield* pull
      expect(first[0]?.event.kind).toBe("task")
      // the agent emits everything while nobody reads: it waits once for the idle reader, for at most the
      // stall bound (1 s of Effect time), then leaves it to the snapshot resync
      const clock = yield* Effect.forkChild(Effect.forever(Effect.andThen(Effect.yieldNow, TestClock.adjust("100 millis"))))
      yield* Deferred.await(emitted)
      const waited = yield* Clock.currentTimeMillis
      yield* Fiber.interrupt(clock)
      expect(waited).toBeGreaterThanOrEqual(1_000)
      const resync = yield* pull
      expect(resync).toHaveLength(1)
      const snapshot = resync[0]!
      expect(snapshot.seq).toBe(1 + total)
      expect(snapshot.event.kind).toBe("task")
      expect((snapshot.event as Task).artifacts?.[0]?.parts).toHaveLength(total)
      yield* Deferred.succeed(gate, undefined)
      const rest: Array<{ seq: number; kind: string }> = []
      for (;;) {
        const next = yield* Effect.result(pull)
        if (next._tag === "Failure") break
        for (const e of next.success) rest.push({ seq: e.seq, kind: e.event.kind })
      }
      expect(rest).toEqual([{ seq: total + 2, kind: "artifact-update" }, { seq: total + 3, kind: "status-update" }])
    }), 120_000)
})
