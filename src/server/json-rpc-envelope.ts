/**
 * JSON-RPC 2.0 response envelopes, written as strings.
 *
 * Results are plain JSON values already in wire form (the schemas keep decoded and encoded
 * forms identical), so an envelope is one `JSON.stringify` of the result between a prefix
 * and a brace. The prefix depends only on the request id and is built once per request,
 * which matters on streams that carry hundreds of thousands of events.
 */
import { toWireError, type ProtocolError } from "../../schemas/error-catalogue.ts"

/** A JSON-RPC request id as the wire allows it. */
export type RequestId = string | number | null

/** The text that precedes the JSON of a result in a success response for `id`. */
export const resultPrefix = (id: RequestId): string => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`

/** A complete success response. */
export const successResponse = (id: RequestId, result: unknown): string =>
  `${resultPrefix(id)}${JSON.stringify(result)}}`

/** A complete error response; the error is written through the catalogue, never with a stack. */
export const errorResponse = (id: RequestId, error: ProtocolError): string =>
  JSON.stringify({ jsonrpc: "2.0", id, error: toWireError(error) })
