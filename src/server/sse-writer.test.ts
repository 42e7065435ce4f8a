import { describe, expect, it } from "@effect/vitest"
import { Array as Arr, Effect, Fiber, Stream } from "effect"
import { TestClock } from "effect/testing"
import { TaskNotFound } from "../../schemas/error-catalogue.ts"
import { sseBody } from "./sse-writer.ts"

const decoder = new TextDecoder()
const text = (chunks: ReadonlyArray<Uint8Array>) => chunks.map((c) => decoder.decode(c))

describe("sseBody", () => {
  it.effect("writes one id line and one data line per event, carrying the request id", () =>
    Effect.gen(function* () {
      const events = Stream.fromIterable([{ seq: 1, event: { kind: "task", id: "t" } }, { seq: 2, event: { kind: "status-update" } }])
      const out = text(yield* Stream.runCollect(sseBody("req-1", events, { heartbeatMs: 0 }))).join("")
      expect(out).toBe(
        'id: 1\ndata: {"jsonrpc":"2.0","id":"req-1","result":{"kind":"task","id":"t"}}\n\n' +
          'id: 2\ndata: {"jsonrpc":"2.0","id":"req-1","result":{"kind":"status-update"}}\n\n'
      )
    }))

  it.effect("writes every event of one input chunk as one buffer", () =>
    Effect.gen(function* () {
      const events = Stream.fromArray(Arr.range(1, 50).map((seq) => ({ seq, event: { n: seq } })))
      const out = text(yield* Stream.runCollect(sseBody(7, events, { heartbeatMs: 0 })))
      expect(out).toHaveLength(1)
      expect(out[0]!.match(/^data: /gm)).toHaveLength(50)
    }))

  it.effect("encodes a chunk larger than its scratch buffer, multi-byte text included, exactly", () =>
    Effect.gen(function* () {
      const event = (seq: number) => ({
        kind: "artifact-update",
        taskId: "t",
        contextId: "c",
        artifact: { artifactId: "a", parts: [{ kind: "text", text: `${seq} grüße 🙂 ${"x".repeat(seq % 97)}` }] },
        append: seq > 1
      })
      const frames = Arr.range(1, 3_000).map((seq) => ({ seq, event: event(seq) }))
      const out = text(yield* Stream.runCollect(sseBody(3, Stream.fromArray(frames), { heartbeatMs: 0 })))
      expect(out).toHaveLength(1)
      const expected = frames
        .map(({ seq, event }) => `id: ${seq}\ndata: {"jsonrpc":"2.0","id":3,"result":${JSON.stringify(event)}}\n\n`)
        .join("")
      expect(out[0]!.length).toBeGreaterThan(64 * 1024)
      expect(out[0]).toBe(expected)
    }))

  it.effect("hands out buffers that later chunks do not overwrite", () =>
    Effect.gen(function* () {
      const events = Stream.fromArrays([{ seq: 1, event: { n: "first" } }], [{ seq: 2, event: { n: "second" } }])
      const buffers = yield* Stream.runCollect(sseBody(1, events, { heartbeatMs: 0 }))
      expect(buffers.map((b) => decoder.decode(b))).toEqual([
        'id: 1\ndata: {"jsonrpc":"2.0","id":1,"result":{"n":"first"}}\n\n',
        'id: 2\ndata: {"jsonrpc":"2.0","id":1,"result":{"n":"second"}}\n\n'
      ])
    }))

  it.effect("keeps JSON on one line even when strings hold newlines", () =>
    Effect.gen(function* () {
      const events = Stream.make({ seq: 1, event: { text: "a\nb\r\nc" } })
      const [frame] = text(yield* Stream.runCollect(sseBody(1, events, { heartbeatMs: 0 })))
      expect(frame!.split("\n").filter((l) => l.startsWith("data: "))).toHaveLength(1)
    }))

  it.effect("ends a failed stream with a JSON-RPC error event", () =>
    Effect.gen(function* () {
      const events = Stream.concat(Stream.make({ seq: 1, event: {} }), Stream.fail(new TaskNotFound({ message: "Task x not found" })))
      const out = text(yield* Stream.runCollect(sseBody("r", events, { heartbeatMs: 0 }))).join("")
      const last = JSON.parse(out.trim().split("\n").at(-1)!.slice("data: ".length))
      expect(last).toEqual({ jsonrpc: "2.0", id: "r", error: { code: -32001, message: "Task x not found" } })
    }))

  it.effect("hides the cause of a defect", () =>
    Effect.gen(function* () {
      const events = Stream.die(new Error("secret stack"))
      const out = text(yield* Stream.runCollect(sseBody("r", events, { heartbeatMs: 0 }))).join("")
      expect(out).not.toContain("secret")
      expect(JSON.parse(out.slice("data: ".length)).error.code).toBe(-32603)
    }))

  it.effect("opens a quiet stream with one ping, then pings only while idle", () =>
    Effect.gen(function* () {
      const collected: Array<string> = []
      const never = Stream.never as Stream.Stream<{ seq: number; event: unknown }>
      const fiber = yield* sseBody(1, never, { heartbeatMs: 1_000 }).pipe(
        Stream.runForEach((c) => Effect.sync(() => collected.push(decoder.decode(c)))),
        Effect.forkChild
      )
      // the opening ping gets the response headers out while nothing else is ready, before any time passes
      yield* Effect.yieldNow.pipe(Effect.repeat({ until: () => collected.length > 0, times: 100 }))
      expect(collected).toEqual([": ping\n\n"])
      yield* TestClock.adjust(999)
      expect(collected).toEqual([": ping\n\n"])
      yield* TestClock.adjust(1)
      yield* TestClock.adjust(2_000)
      expect(collected.length).toBeGreaterThanOrEqual(3)
      expect(collected.every((c) => c === ": ping\n\n")).toBe(true)
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("sends no opening ping when an event is ready at once", () =>
    Effect.gen(function* () {
      const out = text(yield* Stream.runCollect(sseBody(1, Stream.make({ seq: 1, event: {} }), { heartbeatMs: 1_000 })))
      expect(out.join("")).toBe('id: 1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n')
    }))
})
