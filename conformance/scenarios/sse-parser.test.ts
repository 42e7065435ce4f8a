import { describe, expect, it } from "vitest"
import { SseDecoder, type SseEvent } from "./sse-parser.ts"
import { SseSession } from "./sse-session.ts"

const wire =
  ": ping\n\n" +
  'id: 1\ndata: {"jsonrpc":"2.0","id":"a","result":{"kind":"task"}}\n\n' +
  ": ping\r\n" +
  "event: error\r\nid: 2\r\ndata: {\"n\":2}\r\n\r\n" +
  "data: line one\ndata: line two\n\n" +
  "data:no-space\r\r" +
  "data: unterminated"

const decodeAll = (chunks: ReadonlyArray<string>): Array<SseEvent> => {
  const d = new SseDecoder()
  return [...chunks.flatMap((c) => d.push(c)), ...d.end()]
}

const expected: Array<SseEvent> = [
  { data: '{"jsonrpc":"2.0","id":"a","result":{"kind":"task"}}', dataLines: 1, id: "1", comments: ["ping"] },
  { data: '{"n":2}', dataLines: 1, id: "2", event: "error", comments: ["ping"] },
  { data: "line one\nline two", dataLines: 2, comments: [] },
  { data: "no-space", dataLines: 1, comments: [] }
]

describe("SseDecoder", () => {
  it("parses ids, comments, event names and multi-line data in one chunk", () => {
    expect(decodeAll([wire])).toEqual(expected)
  })

  it("gives the same events for every two-chunk split, including inside CRLF pairs", () => {
    for (let i = 0; i <= wire.length; i++) {
      expect(decodeAll([wire.slice(0, i), wire.slice(i)]), `split at ${i}`).toEqual(expected)
    }
  })

  it("gives the same events when fed one character at a time", () => {
    expect(decodeAll([...wire])).toEqual(expected)
  })

  it("drops an event the stream ended before its blank line", () => {
    expect(decodeAll(["data: cut"])).toEqual([])
  })
})

describe("SseSession", () => {
  const sessionOf = (parts: ReadonlyArray<Uint8Array>, keepOpen = false): SseSession => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const p of parts) controller.enqueue(p)
        if (!keepOpen) controller.close()
      }
    })
    return new SseSession(new Response(body, { headers: { "content-type": "text/event-stream" } }), new AbortController(), 200)
  }

  it("decodes UTF-8 split across byte chunks and parses JSON data", async () => {
    const bytes = new TextEncoder().encode('data: {"text":"h\u00e9llo \u{1F600}"}\n\n')
    const s = sessionOf([bytes.slice(0, 17), bytes.slice(17, 19), bytes.slice(19)])
    const e = await s.next()
    expect(e?.json).toEqual({ text: "h\u00e9llo \u{1F600}" })
    expect(await s.next()).toBeUndefined()
    expect(s.done).toBe(true)
  })

  it("bounds the wait for an event on a stream that stays open", async () => {
    const s = sessionOf([new TextEncoder().encode(": ping\n\n")], true)
    await expect(s.next(50)).rejects.toThrow(/no SSE event within 50 ms/)
    expect(await s.waitForEnd(50)).toBe(false)
    await s.close()
  })
})
