import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Fiber, Stream } from "effect"
import { makeEventLog, maxPulled } from "./event-log.ts"

const counterLog = (window = 8) => {
  let state = 0
  const log = makeEventLog<number | string>({ window, snapshot: () => `snapshot@${state}` })
  const push = (n: number) => {
    state = n
    log.append(n)
  }
  return { log, push }
}

/** Yields until the log has `n` subscribers: ordering by observation, never by sleeping. */
const untilSubscribers = (log: { readonly subscribers: () => number }, n: number) =>
  Effect.yieldNow.pipe(Effect.repeat({ until: () => log.subscribers() >= n }))

const seqs = <E>(c: ReadonlyArray<{ readonly seq: number; readonly event: E }>) => c.map((e) => e.seq)

describe("EventLog", () => {
  it.effect("numbers events from 1 and replays the window after a given sequence", () =>
    Effect.gen(function*() {
      const { log, push } = counterLog()
      for (let i = 1; i <= 5; i++) push(i)
      log.close()
      const got = yield* Stream.runCollect(log.subscribe({ after: 2 }))
      expect(got).toEqual([
        { seq: 3, event: 3 },
        { seq: 4, event: 4 },
        { seq: 5, event: 5 }
      ])
    }))

  it.effect("starts with a snapshot when no position is given, then delivers live events", () =>
    Effect.gen(function*() {
      const { log, push } = counterLog()
      push(1)
      const fiber = yield* Effect.forkChild(Stream.runCollect(Stream.take(log.subscribe(), 3)))
      yield* untilSubscribers(log, 1)
      push(2)
      push(3)
      const got = yield* Fiber.join(fiber)
      expect(got).toEqual([{ seq: 1, event: "snapshot@1" }, { seq: 2, event: 2 }, { seq: 3, event: 3 }])
    }))

  it.effect("starts with a snapshot when the window no longer holds the requested position", () =>
    Effect.gen(function*() {
      const { log, push } = counterLog(4)
      for (let i = 1; i <= 10; i++) push(i)
      log.close()
      const got = yield* Stream.runCollect(log.subscribe({ after: 2 }))
      expect(got).toEqual([{ seq: 10, event: "snapshot@10" }])
      expect(log.retained()).toBe(4)
    }))

  it.effect("hands a waiting reader everything queued in one chunk", () =>
    Effect.gen(function*() {
      const { log, push } = counterLog(64)
      const pull = yield* Stream.toPull(log.subscribe({ after: 0 }))
      const waiting = yield* Effect.forkChild(pull)
      yield* Effect.yieldNow
      push(1)
      for (let i = 2; i <= 20; i++) push(i)
      const first = yield* Fiber.join(waiting)
      const second = first.length === 20 ? [] : yield* pull
      expect([...seqs(first), ...seqs(second)]).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      // a reader that was not waiting receives the whole backlog at once
      for (let i = 21; i <= 40; i++) push(i)
      expect(seqs(yield* pull)).toEqual(Array.from({ length: 20 }, (_, i) => i + 21))
    }))

  it.effect("hands a large backlog over in pulls of at most maxPulled events, in order, none missing", () =>
    Effect.gen(function*() {
      const total = maxPulled * 2 + 5
      const { log, push } = counterLog(total + 16)
      const pull = yield* Stream.toPull(log.subscribe({ after: 0 }))
      for (let i = 1; i <= total; i++) push(i)
      const sizes: Array<number> = []
      const got: Array<number> = []
      while (got.length < total) {
        const chunk = yield* pull
        sizes.push(chunk.length)
        got.push(...seqs(chunk))
      }
      expect(sizes).toEqual([maxPulled, maxPulled, 5])
      expect(got).toEqual(Array.from({ length: total }, (_, i) => i + 1))
    }))

  it.effect("never runs a waiting reader inside append: the reader takes the events on its own turn", () =>
    Effect.gen(function*() {
      const { log, push } = counterLog(64)
      const read: Array<number> = []
      const reader = yield* Effect.forkChild(
        Stream.runForEach(log.subscribe({ after: 0 }), ({ seq }) => Effect.sync(() => read.push(seq)))
      )
      yield* untilSubscribers(log, 1)
      yield* Effect.yieldNow // the reader is parked in its pull
      push(1)
      push(2)
      push(3)
      // the producer's step is over before any reader work runs...
      expect(read).toEqual([])
      log.close()
      yield* Fiber.join(reader)
      // ...and the reader then got everything, in order
      expect(read).toEqual([1, 2, 3])
    }))

  it.effect("resynchronises a reader that reads nothing while 100,000 events go by, with bounded memory", () =>
    Effect.gen(function*() {
      const { log, push } = counterLog(1024)
      const pull = yield* Stream.toPull(log.subscribe())
      expect(seqs(yield* pull)).toEqual([0])
      for (let i = 1; i <= 100_000; i++) push(i)
      expect(log.retained()).toBeLessThanOrEqual(1024)
      const resync = yield* pull
      expect(resync).toEqual([{ seq: 100_000, event: "snapshot@100000" }])
      push(100_001)
      expect(yield* pull).toEqual([{ seq: 100_001, event: 100_001 }])
    }))

  it.effect("honours a per-subscriber lag bound smaller than the window", () =>
    Effect.gen(function*() {
      const { log, push } = counterLog(1024)
      const pull = yield* Stream.toPull(log.subscribe({ after: 0, maxLag: 10 }))
      for (let i = 1; i <= 11; i++) push(i)
      expect(yield* pull).toEqual([{ seq: 11, event: "snapshot@11" }])
      for (let i = 12; i <= 21; i++) push(i)
      expect(seqs(yield* pull)).toHaveLength(10)
    }))

  it.effect("delivers every event to every subscriber and ends them on close", () =>
    Effect.gen(function*() {
      const { log, push } = counterLog(4096)
      // Forked one after the other by this fiber: a fork made inside a concurrent forEach would belong to
      // that forEach's worker fiber and end with it.
      const readers = yield* Effect.forEach([1, 2, 3], () => Effect.forkChild(Stream.runCollect(log.subscribe({ after: 0 }))))
      yield* untilSubscribers(log, 3)
      expect(log.subscribers()).toBe(3)
      for (let i = 1; i <= 1000; i++) push(i)
      log.close()
      expect(log.append(1001)).toBeUndefined()
      for (const r of readers) {
        expect(seqs(yield* Fiber.join(r))).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1))
      }
      expect(log.subscribers()).toBe(0)
    }))

  it.effect("ends a pull on a closed, drained log", () =>
    Effect.gen(function*() {
      const { log } = counterLog()
      log.close()
      const pull = yield* Stream.toPull(log.subscribe({ after: 0 }))
      expect(Cause.isDone(yield* Effect.flip(pull))).toBe(true)
    }))

  it.effect("a gated log hands readers only published events, and continues after a given start", () =>
    Effect.gen(function*() {
      const log = makeEventLog<string>({ snapshot: () => "snap", startAfter: 10, gated: true })
      log.append("a")
      log.append("b")
      log.append("c")
      const fiber = yield* Effect.forkChild(Stream.runCollect(log.subscribe({ after: 10 })))
      yield* untilSubscribers(log, 1)
      log.publish(12)
      log.close()
      yield* Effect.yieldNow
      // closed, but 13 is not published yet: the reader waits for it
      expect(fiber.pollUnsafe()).toBeUndefined()
      log.publish(13)
      expect(seqs(yield* Fiber.join(fiber))).toEqual([11, 12, 13])
      // a replay never goes beyond what was published
      expect(yield* Stream.runCollect(log.subscribe({ after: 11 }))).toEqual([{ seq: 12, event: "b" }, { seq: 13, event: "c" }])
    }))

  it.effect("a gated log drops what was never published when discarded", () =>
    Effect.gen(function*() {
      const log = makeEventLog<string>({ snapshot: () => "snap", gated: true })
      log.append("a")
      log.append("b")
      log.publish(1)
      log.discard()
      expect(yield* Stream.runCollect(log.subscribe({ after: 0 }))).toEqual([{ seq: 1, event: "a" }])
      expect(log.lastSeq()).toBe(1)
    }))
})
