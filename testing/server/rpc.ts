/**
 * Small helpers for server tests: JSON-RPC calls and SSE streams against a real server.
 */
import { SseSession } from "../../conformance/scenarios/sse-session.ts"

let counter = 0

/** A user text message with a fresh id. */
export const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  kind: "message",
  role: "user",
  messageId: `m-${++counter}-${crypto.randomUUID()}`,
  parts: [{ kind: "text", text }],
  ...extra
})

/** Posts one JSON-RPC request and returns the parsed response with its HTTP status and headers. */
export const rpc = async (
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {}
): Promise<{ status: number; headers: Headers; body: any }> => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++counter, method, params }),
    signal: AbortSignal.timeout(20_000)
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
}

/** Opens an SSE stream for a streaming method; every wait on it is bounded by `waitMs`. */
export const openStream = async (
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
  waitMs = 20_000
): Promise<SseSession> => {
  const abort = new AbortController()
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++counter, method, params }),
    signal: abort.signal
  })
  return new SseSession(response, abort, waitMs)
}
