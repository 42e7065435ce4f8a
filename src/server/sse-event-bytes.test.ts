import { describe, expect, it } from "vitest"
import { Effect, Stream } from "effect"
import { streamResponseJson } from "../../schemas/v1/v1-json.ts"
import type { StreamResult } from "../../schemas/index.ts"
import { type ByteSink, makeArtifactFrameWriter, makeArtifactFrameWriterV1 } from "./sse-event-bytes.ts"
import { type SseFormat, sseBody } from "./sse-writer.ts"
import { sseV1 } from "./v1/json-rpc-v1.ts"

const taskId = "0b6f3f4e-6c53-4b8e-9a43-3f1f3c7c2a11"
const contextId = "7d1c2b1e-3a4f-4e55-8f0e-2c9d1b6a5e22"
const update = (artifact: unknown, rest: Record<string, unknown> = {}) =>
  ({ kind: "artifact-update", taskId, contextId, artifact, ...rest })
const text = (t: string) => ({ kind: "text", text: t })

class Wrapped {
  constructor(readonly artifactId: string, readonly parts: Array<unknown>) {}
  toJSON() {
    return { artifactId: `wrapped-${this.artifactId}`, parts: this.parts }
  }
}

const long = "x".repeat(100)

/** Events of the shape written as bytes, and near misses that must be written as text, the same bytes either way. */
const cases: Record<string, unknown> = {
  "bare text chunk": update({ artifactId: "a", parts: [text("1")] }),
  "append and lastChunk": update({ artifactId: "a", parts: [text("x"), text("y")] }, { append: true, lastChunk: false }),
  "three parts, no flags": update({ artifactId: "a", parts: [text("x"), text(""), text("z")] }),
  "append false, lastChunk true": update({ artifactId: "a", parts: [text("x")] }, { append: false, lastChunk: true }),
  "only lastChunk": update({ artifactId: "a", parts: [] }, { lastChunk: true }),
  "only append": update({ artifactId: "a", parts: [text("")] }, { append: true }),
  "metadata": update({ artifactId: "a", parts: [text("1")] }, { append: false, metadata: { k: [1, "two", null] } }),
  "undefined flags": update({ artifactId: "a", parts: [text("1")] }, { append: undefined, lastChunk: undefined }),
  "flags reversed": update({ artifactId: "a", parts: [text("1")] }, { lastChunk: true, append: true }),
  "text needing escapes": update({ artifactId: "a", parts: [text('quote " slash \\ newline \n tab \t')] }),
  "long text needing escapes": update({ artifactId: "a", parts: [text(`${long}"`)] }),
  "control character": update({ artifactId: "a", parts: [text("bell \u0007")] }),
  "DEL and U+0080": update({ artifactId: "a", parts: [text("\u007f\u0080\u07ff\u0800\uffff")] }),
  "lone surrogate": update({ artifactId: "a", parts: [text("\ud800 alone")] }),
  "long lone surrogate": update({ artifactId: "a", parts: [text(`${long}\udc00`)] }),
  "surrogate pair": update({ artifactId: "a", parts: [text("🙂")] }),
  "non-ASCII text": update({ artifactId: "é-🙂", parts: [text("grüße 🙂")] }),
  "non-ASCII ids": update({ artifactId: "é", parts: [text("ü")] }),
  "long plain text": update({ artifactId: "a", parts: [text(`${long} grüße`)] }),
  "artifact id needing escapes": update({ artifactId: 'a"b', parts: [text("1")] }),
  "artifact with a name": update({ artifactId: "a", name: "n", parts: [text("1")] }),
  "file part": update({ artifactId: "a", parts: [{ kind: "file", file: { uri: "https://x/y", mimeType: "text/plain" } }] }),
  "text part with metadata": update({ artifactId: "a", parts: [{ kind: "text", text: "t", metadata: { m: 1 } }] }),
  "text part keys reversed": update({ artifactId: "a", parts: [{ text: "t", kind: "text" }] }),
  "second part not text": update({ artifactId: "a", parts: [text("t"), { kind: "data", data: {} }] }),
  "sparse parts": update({ artifactId: "a", parts: [text("t"), , text("u")] }),
  "artifact keys reversed": update({ parts: [text("1")], artifactId: "a" }),
  "event keys reordered": { kind: "artifact-update", contextId, taskId, artifact: { artifactId: "a", parts: [] } },
  "unknown event key": update({ artifactId: "a", parts: [] }, { extra: 1 }),
  "event with toJSON": update({ artifactId: "a", parts: [] }, { toJSON: () => ({ replaced: true }) }),
  "flag that is not a boolean": update({ artifactId: "a", parts: [] }, { append: "yes" }),
  "artifact with toJSON": update(new Wrapped("a", [text("1")])),
  "task id needing escapes": { kind: "artifact-update", taskId: 'a"b', contextId, artifact: { artifactId: "a", parts: [] } },
  "numeric task id": { kind: "artifact-update", taskId: 1, contextId, artifact: { artifactId: "a", parts: [] } },
  "missing artifact": { kind: "artifact-update", taskId, contextId },
  "status update": { kind: "status-update", taskId, contextId, status: { state: "working" }, final: false },
  "task": { kind: "task", id: taskId, contextId, status: { state: "submitted" } }
}

/** Sequence numbers of every length, on both sides of 2^31 (where the digits are written another way). */
const seqs = [0, 7, 10, 99, 100, 1234567, 999_999_999, 1_000_000_000, 2_147_483_647, 2_147_483_648, 4_294_967_296, 9_007_199_254_740_991]

const frameText = (id: string | number, seq: number, event: unknown) =>
  `id: ${seq}\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(event)}}\n\n`

const body = (id: string | number, frames: ReadonlyArray<{ readonly seq: number; readonly event: unknown }>, format?: SseFormat) =>
  Effect.runSync(Stream.runCollect(sseBody(id, Stream.fromArray(frames), { heartbeatMs: 0 }, format)))

const concat = (chunks: ReadonlyArray<Uint8Array>) => Buffer.concat(chunks.map((c) => Buffer.from(c)))

describe("SSE frames written as bytes", () => {
  it.each(Object.entries(cases))("are exactly the UTF-8 of the text frame: %s", (_name, event) => {
    for (const seq of seqs) {
      expect(concat(body(3, [{ seq, event }]))).toEqual(Buffer.from(frameText(3, seq, event), "utf8"))
    }
  })

  it("keep the order of a chunk that mixes bytes-written and text-written events, across tasks", () => {
    const other = { ...(cases["bare text chunk"] as object), taskId: "another" }
    const events = [...Object.values(cases), other, ...Object.values(cases)]
    const frames = events.map((event, i) => ({ seq: i + 1, event }))
    const expected = frames.map(({ event, seq }) => frameText("req", seq, event)).join("")
    const out = body("req", frames)
    expect(out).toHaveLength(1)
    expect(concat(out).toString("utf8")).toBe(expected)
  })

  it("write the common text chunk directly, and leave the sink as it was for an event they do not know", () => {
    const write = makeArtifactFrameWriter(`data: {"jsonrpc":"2.0","id":1,"result":`, "}\n\n")
    const sink: ByteSink = { buffer: new Uint8Array(8), used: 0 }
    expect(write(sink, 2, cases["append and lastChunk"])).toBe(true)
    const written = sink.used
    expect(Buffer.from(sink.buffer.subarray(0, written)).toString("utf8")).toBe(frameText(1, 2, cases["append and lastChunk"]))
    for (const name of ["text needing escapes", "second part not text", "metadata", "lone surrogate", "status update"]) {
      expect(write(sink, 3, cases[name])).toBe(false)
      expect(sink.used).toBe(written)
    }
  })
})

/** A 1.0 frame as the 1.0 JSON writer makes it: a `StreamResponse` result. */
const frameTextV1 = (id: string | number, seq: number, event: unknown) =>
  `id: ${seq}\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${streamResponseJson(event as StreamResult)}}\n\n`

// The 1.0 writer reads model events: the cases above that are not one (no artifact, a hole in the parts) are not its input.
const casesV1 = Object.entries(cases).filter(([name]) => name !== "missing artifact" && name !== "sparse parts")

describe("A2A 1.0 SSE frames written as bytes", () => {
  it.each(casesV1)("are exactly the UTF-8 of the 1.0 text frame: %s", (_name, event) => {
    for (const seq of seqs) {
      expect(concat(body(3, [{ seq, event }], sseV1))).toEqual(Buffer.from(frameTextV1(3, seq, event), "utf8"))
    }
  })

  it("keep the order of a chunk that mixes bytes-written and text-written events, across tasks", () => {
    const other = { ...(cases["bare text chunk"] as object), taskId: "another" }
    const events = [...casesV1.map(([, e]) => e), other, ...casesV1.map(([, e]) => e)]
    const frames = events.map((event, i) => ({ seq: i + 1, event }))
    const expected = frames.map(({ event, seq }) => frameTextV1("req", seq, event)).join("")
    const out = body("req", frames, sseV1)
    expect(out).toHaveLength(1)
    expect(concat(out).toString("utf8")).toBe(expected)
  })

  it("write text chunks directly, false flags left out, and leave the sink as it was for an event they do not know", () => {
    const write = makeArtifactFrameWriterV1(`data: {"jsonrpc":"2.0","id":1,"result":`, "}\n\n")
    const sink: ByteSink = { buffer: new Uint8Array(8), used: 0 }
    expect(write(sink, 2, cases["append false, lastChunk true"])).toBe(true)
    const written = sink.used
    const frame = Buffer.from(sink.buffer.subarray(0, written)).toString("utf8")
    expect(frame).toBe(`id: 2\ndata: {"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"taskId":"${taskId}","contextId":"${contextId}",` +
      `"artifact":{"artifactId":"a","parts":[{"text":"x"}]},"lastChunk":true}}}\n\n`)
    expect(frame).toBe(frameTextV1(1, 2, cases["append false, lastChunk true"]))
    for (const name of ["text needing escapes", "second part not text", "metadata", "lone surrogate", "status update", "task"]) {
      expect(write(sink, 3, cases[name])).toBe(false)
      expect(sink.used).toBe(written)
    }
  })
})
