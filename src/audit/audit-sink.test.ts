import { Effect, Result, Schema } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { AuditEvent, auditEvent } from "./audit-event.ts"
import { fanOutAuditSink, memoryAuditSink } from "./audit-sink.ts"
import { jsonLinesSink, writableStreamLines } from "./json-lines-sink.ts"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect.pipe(Effect.provide(TestClock.layer())))

describe("audit events", () => {
  it("stamps events with the Effect clock", async () => {
    const event = await run(
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2025, 0, 2, 3, 4, 5, 6))
        return yield* auditEvent({ kind: "task-transition", taskId: "t1", from: "working", to: "completed" })
      })
    )
    expect(event).toEqual({
      kind: "task-transition",
      at: "2025-01-02T03:04:05.006Z",
      taskId: "t1",
      from: "working",
      to: "completed"
    })
    expect(Schema.is(AuditEvent)(event)).toBe(true)
  })

  it("rejects events that break the schema", () => {
    const decode = Schema.decodeUnknownResult(AuditEvent)
    expect(Result.isFailure(decode({ kind: "task-transition", at: "yesterday", taskId: "t", from: null, to: "working" })))
      .toBe(true)
    expect(Result.isFailure(decode({ kind: "task-transition", at: "2025-01-01T00:00:00Z", taskId: "t", from: null, to: "done" })))
      .toBe(true)
    expect(Result.isFailure(decode({ kind: "nope", at: "2025-01-01T00:00:00Z" }))).toBe(true)
  })
})

const at = "2025-01-01T00:00:00.000Z"
const sample = (n: number): AuditEvent => ({ kind: "extension-activated", at, uri: `urn:ext:${n}` })

describe("memoryAuditSink", () => {
  it("keeps the newest records up to its capacity and counts the dropped ones", async () => {
    const { records, dropped } = await run(
      Effect.gen(function* () {
        const sink = yield* memoryAuditSink({ capacity: 3 })
        for (let i = 1; i <= 5; i++) yield* sink.record(sample(i))
        return { records: yield* sink.snapshot, dropped: yield* sink.dropped }
      })
    )
    expect(records.map((r) => r.seq)).toEqual([3, 4, 5])
    expect(records[0]?.event).toEqual(sample(3))
    expect(dropped).toBe(2)
  })

  it("fans out to several sinks", async () => {
    const sizes = await run(
      Effect.gen(function* () {
        const a = yield* memoryAuditSink()
        const b = yield* memoryAuditSink()
        yield* fanOutAuditSink([a, b]).record(sample(1))
        return [(yield* a.snapshot).length, (yield* b.snapshot).length]
      })
    )
    expect(sizes).toEqual([1, 1])
  })
})

describe("jsonLinesSink", () => {
  it("writes one canonical JSON object per line with a gap-free seq, in call order under concurrency", async () => {
    const lines: Array<string> = []
    await run(
      Effect.gen(function* () {
        const sink = yield* jsonLinesSink({ write: async (line) => void lines.push(line) })
        yield* Effect.forEach([1, 2, 3, 4], (i) => sink.record(sample(i)), { concurrency: "unbounded" })
      })
    )
    expect(lines).toHaveLength(4)
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(parsed.map((p) => p["seq"])).toEqual([1, 2, 3, 4])
    expect(lines[0]).toMatch(/^\{"at":"[^"]+","kind":"extension-activated","seq":1,"uri":"urn:ext:\d"\}\n$/)
    expect(new Set(parsed.map((p) => p["uri"])).size).toBe(4)
  })

  it("surfaces write failures as AuditSinkError and keeps seq gap-free", async () => {
    const lines: Array<string> = []
    let calls = 0
    const failure = await run(
      Effect.gen(function* () {
        const sink = yield* jsonLinesSink({
          write: async (line) => {
            calls += 1
            if (calls === 2) throw new Error("EIO")
            lines.push(line)
          }
        })
        yield* sink.record(sample(1))
        const failed = yield* Effect.flip(sink.record(sample(2)))
        yield* sink.record(sample(3))
        return failed
      })
    )
    expect(failure._tag).toBe("AuditSinkError")
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([1, 2])
  })

  it("drops fields the schema does not declare", async () => {
    const lines: Array<string> = []
    await run(
      Effect.gen(function* () {
        const sink = yield* jsonLinesSink({ write: async (line) => void lines.push(line) })
        yield* sink.record({ ...sample(1), secret: "token" } as unknown as AuditEvent)
      })
    )
    expect(lines[0]).not.toContain("secret")
  })

  it("writes to a WritableStream as UTF-8 bytes", async () => {
    const chunks: Array<Uint8Array> = []
    const stream = new WritableStream<Uint8Array>({ write: (chunk) => void chunks.push(chunk) })
    const lines = writableStreamLines(stream)
    await run(
      Effect.gen(function* () {
        const sink = yield* jsonLinesSink({ write: lines.write })
        yield* sink.record(sample(1))
        yield* sink.record(sample(2))
      })
    )
    await lines.close()
    const text = chunks.map((c) => new TextDecoder().decode(c)).join("")
    expect(text.split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { uri: string }).uri)).toEqual([
      "urn:ext:1",
      "urn:ext:2"
    ])
  })
})
