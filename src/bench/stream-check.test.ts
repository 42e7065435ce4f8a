import { describe, expect, it } from "vitest"
import { toRest } from "../../schemas/rest/to-rest.ts"
import type { StreamResult } from "../../schemas/events.ts"
import { streamResponseJson } from "../../schemas/v1/v1-json.ts"
import type { BenchTransport, BenchVersion } from "./outcome.ts"
import { StreamCheck, type StreamCheckOptions } from "./stream-check.ts"

const task = { kind: "task", id: "t", contextId: "c", status: { state: "submitted" } } as const
const working = { kind: "status-update", taskId: "t", contextId: "c", status: { state: "working" }, final: false } as const
const done = { kind: "status-update", taskId: "t", contextId: "c", status: { state: "completed" }, final: true } as const
const chunk = (text: string, append: boolean, lastChunk: boolean, artifactId = "a", taskId = "t") => ({
  kind: "artifact-update",
  taskId,
  contextId: "c",
  artifact: { artifactId, parts: [{ kind: "text", text }] },
  append,
  lastChunk
}) as const

/** The SSE frames of `events` as the binding of `version` writes them, ids 1, 2, 3, ... */
const sse = (transport: BenchTransport, events: ReadonlyArray<unknown>, firstId = 1, version: BenchVersion = "0.3") =>
  events.map((e, i) => {
    const data = version === "1.0"
      ? (transport === "JSONRPC" ? `{"jsonrpc":"2.0","id":1,"result":${streamResponseJson(e as StreamResult)}}` : streamResponseJson(e as StreamResult))
      : JSON.stringify(transport === "JSONRPC" ? { jsonrpc: "2.0", id: 1, result: e } : toRest.streamResponse(e as StreamResult))
    return `id: ${firstId + i}\ndata: ${data}\n\n`
  }).join("")

/** Feeds `text` in pieces of `size` characters, as a socket would split it, and gives the verdict. */
const check = (text: string, options: StreamCheckOptions = {}, transport: BenchTransport = "JSONRPC", size = 7, version: BenchVersion = "0.3") => {
  const c = new StreamCheck(transport, options, undefined, version)
  for (let i = 0; i < text.length; i += size) c.feed(text.slice(i, i + size))
  return c.finish()
}

/** n numbered chunks ("1\n", "2\n", ... as the demo agent's count skill writes them) in `order`. */
const counted = (n: number, order = Array.from({ length: n }, (_, i) => i + 1)) =>
  [task, working, ...order.map((k, i) => chunk(`${k}\n`, i > 0, i === order.length - 1)), done]

describe.each([
  { transport: "JSONRPC", version: "0.3" },
  { transport: "HTTP+JSON", version: "0.3" },
  { transport: "JSONRPC", version: "1.0" },
  { transport: "HTTP+JSON", version: "1.0" }
] as const)("the stream checks over $transport in A2A $version", ({ transport, version }) => {
  const run = (events: ReadonlyArray<unknown>, options: StreamCheckOptions = {}, size = 7) =>
    check(sse(transport, events, 1, version), options, transport, size, version)

  it("accept a whole stream however the bytes are split, and a single Message", () => {
    for (const size of [1, 5, 64, 100_000]) expect(run(counted(50), { numberedChunks: true, expectedChunks: 50 }, size)).toBeUndefined()
    expect(run([{ kind: "message", role: "agent", messageId: "m", parts: [{ kind: "text", text: "hi" }] }])).toBeUndefined()
  })

  it("reject numbered chunks missing, repeated or out of order", () => {
    expect(run(counted(5, [1, 2, 4, 5]), { numberedChunks: true })).toMatchObject({ kind: "validation: chunk out of order", message: expect.stringMatching(/chunk 3 expected, got 4/) })
    expect(run(counted(5, [1, 3, 2, 4, 5]), { numberedChunks: true })?.kind).toBe("validation: chunk out of order")
    expect(run(counted(5, [1, 2, 2, 3, 4, 5]), { numberedChunks: true })?.kind).toBe("validation: chunk out of order")
    // Without the option, the numbers are not read.
    expect(run(counted(5, [1, 3, 2, 4, 5]))).toBeUndefined()
    expect(run(counted(3), { numberedChunks: true, expectedChunks: 4 })).toMatchObject({ kind: "validation: chunk count" })
  })

  it("reject a stream without its final event, or with events after it", () => {
    expect(run([task, chunk("x", false, true)])).toMatchObject({ kind: "validation: missing final event" })
    expect(run([task, done, working])).toMatchObject({ kind: "validation: event after final" })
  })

  it("reject an append to an artifact never started, and a chunk after lastChunk", () => {
    expect(run([task, chunk("x", true, false), done])).toMatchObject({ kind: "validation: append to unknown artifact" })
    expect(run([task, chunk("x", false, true), chunk("y", true, false), done])).toMatchObject({ kind: "validation: chunk after lastChunk" })
    // Two artifacts interleaved are fine.
    expect(run([task, chunk("x", false, false, "a"), chunk("y", false, false, "b"), chunk("z", true, true, "a"), chunk("w", true, true, "b"), done])).toBeUndefined()
  })

  it("reject a first event that is no Task, an event of another task, a snapshot mid-stream and a failed task", () => {
    expect(run([working, done])).toMatchObject({ kind: "validation: not a task or message" })
    expect(run([task, chunk("x", false, true, "a", "other"), done])).toMatchObject({ kind: "validation: other task" })
    expect(run([task, chunk("x", false, false), { ...task, status: { state: "working" } }, done])).toMatchObject({ kind: "validation: snapshot mid-stream" })
    expect(run([task, { ...done, status: { state: "failed" } }])).toMatchObject({ kind: "validation: final state", message: "the task ended failed" })
  })
})

describe("the stream checks of A2A 1.0", () => {
  const v1 = (text: string, transport: BenchTransport = "JSONRPC") => check(text, {}, transport, 7, "1.0")

  it("take an interrupted state as the end (the server then closes the stream), and refuse 0.3's events", () => {
    const asked = { ...working, status: { state: "input-required" } }
    expect(v1(sse("JSONRPC", [task, asked], 1, "1.0"))).toBeUndefined()
    expect(v1(sse("JSONRPC", [task, asked, working], 1, "1.0"))).toMatchObject({ kind: "validation: event after final" })
    // A 0.3 JSON-RPC event (bare, with `kind`) is not a StreamResponse. (0.3's REST events are wrapped as 1.0's
    // are; their extra `final` is an unknown member, which 1.0 readers ignore.)
    expect(v1(sse("JSONRPC", [task], 1, "1.0") + sse("JSONRPC", [done], 2))).toMatchObject({ kind: "validation: malformed event" })
    expect(v1(sse("JSONRPC", [task, working], 1, "1.0"))).toMatchObject({
      kind: "validation: missing final event",
      message: expect.stringMatching(/terminal or interrupted/)
    })
  })

  it("report a REST error frame (a google.rpc.Status) by the A2A code its ErrorInfo names", () => {
    const info = { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" }
    const frame = `event: error\ndata: ${JSON.stringify({ error: { code: 404, status: "NOT_FOUND", message: "gone", details: [info] } })}\n\n`
    expect(v1(sse("HTTP+JSON", [task], 1, "1.0") + frame, "HTTP+JSON")).toEqual({ kind: "A2A error -32001", message: "gone" })
    const bare = `event: error\ndata: ${JSON.stringify({ error: { code: 503, status: "UNAVAILABLE", message: "busy" } })}\n\n`
    expect(v1(sse("HTTP+JSON", [task], 1, "1.0") + bare, "HTTP+JSON")).toEqual({ kind: "A2A error 503", message: "busy" })
  })
})

describe("the stream checks", () => {
  it("report a JSON-RPC error event by its code, and a REST error frame by its code", () => {
    const error = `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "boom" } })}\n\n`
    expect(check(sse("JSONRPC", [task]) + error)).toEqual({ kind: "JSON-RPC -32603", message: "boom" })
    const frame = `event: error\ndata: ${JSON.stringify({ code: -32001, message: "gone" })}\n\n`
    expect(check(sse("HTTP+JSON", [task]) + frame, {}, "HTTP+JSON")).toEqual({ kind: "A2A error -32001", message: "gone" })
  })

  it("read chunks quickly only from compact JSON, and still judge spaced JSON in full", () => {
    const spaced = counted(4, [1, 2, 4, 3]).map((e) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: e }, null, 1).replace(/\n/g, "")}\n\n`).join("")
    expect(check(spaced, { numberedChunks: true })?.kind).toBe("validation: chunk out of order")
    const good = counted(4).map((e) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: e }, null, 1).replace(/\n/g, "")}\n\n`).join("")
    expect(check(good, { numberedChunks: true })).toBeUndefined()
  })

  it("with consecutive ids, reject a gap or a repeat, also across a resumption", () => {
    const events = counted(4)
    expect(check(sse("JSONRPC", events), { consecutiveIds: true })).toBeUndefined()
    const gap = sse("JSONRPC", events.slice(0, 3)) + sse("JSONRPC", events.slice(4), 6)
    expect(check(gap, { consecutiveIds: true })).toMatchObject({ kind: "validation: event id gap" })

    // Cut after 3 events, resumed from id 2: event 3 comes twice.
    const c = new StreamCheck("JSONRPC", { consecutiveIds: true, numberedChunks: true })
    c.cutAfter = 3
    c.feed(sse("JSONRPC", events))
    expect(c.wasCut).toBe(true)
    expect(c.lastEventId).toBe("3")
    c.resume()
    c.feed(sse("JSONRPC", events.slice(2), 3))
    expect(c.finish()).toMatchObject({ kind: "validation: event id repeated" })

    // Resumed right after the last id read: accepted.
    const ok = new StreamCheck("JSONRPC", { consecutiveIds: true, numberedChunks: true })
    ok.cutAfter = 3
    ok.feed(sse("JSONRPC", events))
    ok.resume()
    ok.feed(sse("JSONRPC", events.slice(3), 4))
    expect(ok.finish()).toBeUndefined()
    expect(ok.events).toBe(events.length)
  })
})
