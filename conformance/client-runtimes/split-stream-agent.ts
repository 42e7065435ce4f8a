/**
 * An SSE peer that dribbles one stream out a few bytes at a time, so the client's reader sees event
 * boundaries, line endings and multi-byte UTF-8 characters split across reads on the host runtime.
 *
 * @module
 */
import type { WebHandler } from "./serve.ts"

/** The three events of the stream, as the client must deliver them. */
export const splitEvents: ReadonlyArray<unknown> = [
  { kind: "task", id: "task-s", contextId: "ctx-s", status: { state: "working", timestamp: "2025-01-01T00:00:00.000Z" } },
  {
    kind: "artifact-update",
    taskId: "task-s",
    contextId: "ctx-s",
    artifact: { artifactId: "a-s", parts: [{ kind: "text", text: "h\u00e9llo w\u00f6rld \u20ac \u{1F600} \u2713" }] },
    append: false,
    lastChunk: true
  },
  {
    kind: "status-update",
    taskId: "task-s",
    contextId: "ctx-s",
    status: { state: "completed", timestamp: "2025-01-01T00:00:01.000Z" },
    final: true
  }
]

const encoder = new TextEncoder()

/**
 * Answers any streaming request with `splitEvents`, written `chunkBytes` at a time with a timer tick
 * between writes. The frames mix LF, CRLF and CR line endings and carry a comment, as the SSE grammar
 * allows.
 */
export const splitStreamAgent = (chunkBytes: number): WebHandler => async (request) => {
  const { id } = (await request.json()) as { id: unknown }
  const data = (i: number) => JSON.stringify({ jsonrpc: "2.0", id, result: splitEvents[i] })
  const bytes = encoder.encode(`: ping\n\nid: 1\ndata: ${data(0)}\n\nid: 2\r\ndata: ${data(1)}\r\n\r\nid: 3\rdata: ${data(2)}\r\r`)
  let offset = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= bytes.length) return controller.close()
      await new Promise((resolve) => setTimeout(resolve, 1))
      controller.enqueue(bytes.slice(offset, offset + chunkBytes))
      offset += chunkBytes
    }
  })
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } })
}
