import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { invalidAnswerReason } from "./errors.ts"
import { sseMessages } from "./sse.ts"

const body = (chunks: ReadonlyArray<Uint8Array | string>): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder()
  let i = 0
  return new ReadableStream({
    pull(controller) {
      const next = chunks[i++]
      if (next === undefined) return controller.close()
      controller.enqueue(typeof next === "string" ? encoder.encode(next) : next)
    }
  })
}

const limits = { url: "http://127.0.0.1/test", idleTimeoutMs: 1_000, maxEventBytes: 1_024 }

const read = (chunks: ReadonlyArray<Uint8Array | string>, maxEventBytes = limits.maxEventBytes) =>
  Effect.runPromise(Stream.runCollect(sseMessages(body(chunks), { ...limits, maxEventBytes })))

describe("sseMessages", () => {
  it("reassembles events split anywhere, including inside a multi-byte character", async () => {
    const bytes = new TextEncoder().encode("id: 7\ndata: {\"t\":\"h\u00e9\u20ac\"}\n\n")
    const chunks = Array.from(bytes, (b) => new Uint8Array([b]))
    expect(await read(chunks)).toEqual([{ id: "7", event: undefined, data: "{\"t\":\"h\u00e9\u20ac\"}" }])
  })

  it("accepts CRLF and CR line endings, joins multi-line data and skips comments", async () => {
    const events = await read([": ping\r\n\r\n", "event: error\r\ndata: a\r\ndata: b\r\n\r\n", "data: c\r\r", "data: d\n\n"])
    expect(events).toEqual([
      { id: undefined, event: "error", data: "a\nb" },
      { id: undefined, event: undefined, data: "c" },
      { id: undefined, event: undefined, data: "d" }
    ])
  })

  it("dispatches a last event whose blank line is a CR at the very end of the body", async () => {
    expect(await read(["data: a\r\r", "data: b\r", "\r"])).toEqual([
      { id: undefined, event: undefined, data: "a" },
      { id: undefined, event: undefined, data: "b" }
    ])
    expect(await read(["data: whole\n\ndata: half\r"])).toEqual([{ id: undefined, event: undefined, data: "whole" }])
  })

  it("drops an event left incomplete when the body ends", async () => {
    expect(await read(["data: whole\n\n", "data: half"])).toEqual([{ id: undefined, event: undefined, data: "whole" }])
  })

  it("fails with TooLarge as soon as an event outgrows the limit, even before it ends", async () => {
    const endless = ["data: ", ..."x".repeat(64).split("").map(() => "y".repeat(100))]
    const error = await Effect.runPromise(Effect.flip(Stream.runCollect(sseMessages(body(endless), limits))))
    expect(error._tag === "InvalidAgentResponse" && invalidAnswerReason(error)).toBe("TooLarge")
  })
})
