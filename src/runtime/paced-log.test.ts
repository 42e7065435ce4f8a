import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Stream } from "effect"
import { TestClock } from "effect/testing"
import { makeEventLog } from "./event-log.ts"
import { pacedLog } from "./paced-log.ts"

/** A window-16 log of numbers whose producer paces on its readers (stall bound 1 s). */
const paced = () => {
  let state = 0
  const inner = makeEventLog<number | string>({ window: 16, snapshot: () => `snapshot@${state}` })
  const { everRead, log, pace } = pacedLog(inner, 16, 1_000)
  /** Appends `n` events, taking the pause point after each, as the task host does. */
  const produce = (n: number) =>
    Effect.forEach(Array.from({ length: n }), () => Effect.andThen(Effect.sync(() => log.append(++state)), pace), { discard: true })
  return { everRead, log, produce }
}

/** Lets every other fiber run until none has work left (no sleeps: scheduling only). */
const settle = Effect.forEach(Array.from({ length: 50 }), () => Effect.yieldNow, { discard: true })

describe("pacedLog", () => {
  it.effect("never waits without readers", () =>
    Effect.gen(function*() {
      const { everRead, log, produce } = paced()
      yield* produce(1_000)
      expect(log.lastSeq()).toBe(1_000)
      expect(everRead()).toBe(false)
    }))

  it.effect("holds the producer at 3/4 of the window until the reader is back under 1/2, so it misses nothing", () =>
    Effect.gen(function*() {
      const { everRead, log, produce } = paced()
      const pull = yield* Stream.toPull(log.subscribe({ after: 0 }))
      yield* produce(1)
      const got: Array<number> = (yield* pull).map((e) => e.seq)
      const producer = yield* Effect.forkChild(produce(99))
      yield* settle
      // a lag of 12 (3/4 of 16) is allowed; the event that makes it 13 makes the producer wait
      expect(log.lastSeq()).toBe(14)
      expect(producer.pollUnsafe()).toBeUndefined()
      expect(everRead()).toBe(true)
      while (got.length < 100) {
        for (const e of yield* pull) got.push(e.seq)
        yield* settle
      }
      yield* Fiber.join(producer)
      // every event, in order: no snapshot resync was needed
      expect(got).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    }))

  it.effect("abandons a reader that makes no progress for the bound, then never waits for it again", () =>
    Effect.gen(function*() {
      const { log, produce } = paced()
      const pull = yield* Stream.toPull(log.subscribe({ after: 0 }))
      yield* produce(1)
      yield* pull
      const producer = yield* Effect.forkChild(produce(999))
      yield* settle
      expect(log.lastSeq()).toBe(14)
      yield* TestClock.adjust("999 millis")
      yield* settle
      expect(log.lastSeq()).toBe(14)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(producer)
      expect(log.lastSeq()).toBe(1_000)
      // the abandoned reader gets the snapshot resync, then live events
      expect(yield* pull).toEqual([{ seq: 1_000, event: "snapshot@1000" }])
    }))
})
