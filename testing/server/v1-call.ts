/**
 * A2A 1.0 calls against a server's Web handler, on both bindings: JSON-RPC with `A2A-Version: 1.0`, and REST
 * requests to the 1.0 routes with the same header. Answers read back as {@link WireAnswer}s.
 *
 * @module
 */
import { readAnswer, wireCall, type WireAnswer, type WireCallOptions } from "./wire-call.ts"

type Handler = (request: Request) => Promise<Response>

/** The header every 1.0 request carries. */
export const v1Headers = { "a2a-version": "1.0" } as const

/** A 1.0 JSON-RPC call. */
export const v1Call = (handler: Handler, method: string, params: unknown, options: WireCallOptions = {}): Promise<WireAnswer> =>
  wireCall(handler, method, params, { ...options, headers: { ...v1Headers, ...options.headers } })

/** A 1.0 REST request: `path` with its query, an optional JSON body. */
export const v1Rest = async (
  handler: Handler,
  method: string,
  path: string,
  body?: unknown,
  options: WireCallOptions = {}
): Promise<WireAnswer> =>
  readAnswer(await handler(new Request(`http://127.0.0.1${path}`, {
    method,
    headers: { ...v1Headers, ...(body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })), options)

/** The params of a 1.0 SendMessage with one text part; `extra` adds members to the message. */
export const v1Text = (text: string, extra: Record<string, unknown> = {}, configuration?: Record<string, unknown>) => ({
  message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text }], ...extra },
  ...(configuration === undefined ? {} : { configuration })
})
