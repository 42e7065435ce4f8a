import { Schema } from "effect"
import { JsonObject, JsonUnknown, optional } from "./internal/common.ts"
import { A2AError, JSONRPCError } from "./wire-errors.ts"

/** The `jsonrpc` member: always "2.0". */
export const JSONRPCVersion: Schema.Literal<"2.0"> = Schema.Literal("2.0").annotate({ identifier: "JSONRPCVersion" })

/** The id of a method request: a string or an integer (not upstream-named). */
export const RequestId: Schema.Union<readonly [Schema.String, Schema.Int]> = Schema.Union([Schema.String, Schema.Int]).annotate({ identifier: "RequestId" })
/** @see RequestId */
export type RequestId = Schema.Schema.Type<typeof RequestId>

/** The id of a response: the request's id, or null when it could not be read (not upstream-named). */
export const ResponseId: Schema.Union<readonly [Schema.String, Schema.Int, Schema.Null]> = Schema.Union([Schema.String, Schema.Int, Schema.Null]).annotate({ identifier: "ResponseId" })
/** @see ResponseId */
export type ResponseId = Schema.Schema.Type<typeof ResponseId>

/** What every JSON-RPC message shares. */
export const JSONRPCMessage: Schema.Struct<{
  readonly jsonrpc: typeof JSONRPCVersion
  readonly id: Schema.optionalKey<typeof ResponseId>
}> = Schema.Struct({
  jsonrpc: JSONRPCVersion,
  id: optional(ResponseId)
}).annotate({ identifier: "JSONRPCMessage" })
/** @see JSONRPCMessage */
export type JSONRPCMessage = Schema.Schema.Type<typeof JSONRPCMessage>

/**
 * Any JSON-RPC request, before the method is known. `id` may be absent (a notification) or null, as upstream
 * allows; the method-specific requests require a string or integer id.
 */
export const JSONRPCRequest: Schema.Struct<{
  readonly jsonrpc: typeof JSONRPCVersion
  readonly id: Schema.optionalKey<typeof ResponseId>
  readonly method: Schema.String
  readonly params: Schema.optionalKey<typeof JsonObject>
}> = Schema.Struct({
  jsonrpc: JSONRPCVersion,
  id: optional(ResponseId),
  method: Schema.String,
  params: optional(JsonObject)
}).annotate({ identifier: "JSONRPCRequest" })
/** @see JSONRPCRequest */
export type JSONRPCRequest = Schema.Schema.Type<typeof JSONRPCRequest>

/** Any successful response, before the result is typed. */
export const JSONRPCSuccessResponse: Schema.Struct<{
  readonly jsonrpc: typeof JSONRPCVersion
  readonly id: typeof ResponseId
  readonly result: Schema.Unknown
}> = Schema.Struct({
  jsonrpc: JSONRPCVersion,
  id: ResponseId,
  result: JsonUnknown
}).annotate({ identifier: "JSONRPCSuccessResponse" })
/** @see JSONRPCSuccessResponse */
export type JSONRPCSuccessResponse = Schema.Schema.Type<typeof JSONRPCSuccessResponse>

/** An error response. `error` is any JSON-RPC error; A2A's own codes decode to their specific shapes. */
export const JSONRPCErrorResponse: Schema.Struct<{
  readonly jsonrpc: typeof JSONRPCVersion
  readonly id: typeof ResponseId
  readonly error: Schema.Union<readonly [typeof A2AError, typeof JSONRPCError]>
}> = Schema.Struct({
  jsonrpc: JSONRPCVersion,
  id: ResponseId,
  error: Schema.Union([A2AError, JSONRPCError])
}).annotate({ identifier: "JSONRPCErrorResponse" })
/** @see JSONRPCErrorResponse */
export type JSONRPCErrorResponse = Schema.Schema.Type<typeof JSONRPCErrorResponse>
