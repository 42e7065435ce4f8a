/**
 * Errors on the A2A 1.0 wire: the same error classes as 0.3 (`error-catalogue.ts`), written with 1.0's
 * details. JSON-RPC errors carry `data: [ErrorInfo, BadRequest?]` (spec §9.5); REST errors are
 * `google.rpc.Status` bodies (`{ error: { code, status, message, details } }`, spec §11.6) with the HTTP
 * status of spec 1.0.1 §5.4. The official 1.0 kit still checks the 1.0.0 statuses for three errors
 * (TaskNotCancelable 409, ContentTypeNotSupported 415, InvalidAgentResponse 502); this follows 1.0.1.
 *
 * @module
 */
import { Schema } from "effect"
import { fromWireError, MAX_WIRE_MESSAGE_LENGTH, type ProtocolError, TaskTerminal, UnsupportedOperation } from "../error-catalogue.ts"
import { JsonUnknown, optional, StringRecord } from "../internal/common.ts"

/** The `@type` of a `google.rpc.ErrorInfo` detail. */
export const errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"
/** The `@type` of a `google.rpc.BadRequest` detail. */
export const badRequestType = "type.googleapis.com/google.rpc.BadRequest"
/** The ErrorInfo `domain` of A2A's own errors. */
export const a2aErrorDomain = "a2a-protocol.org"

/** `google.rpc.ErrorInfo` as a ProtoJSON `Any`. */
export const ErrorInfo: Schema.Struct<{
  readonly "@type": Schema.Literal<typeof errorInfoType>
  readonly reason: Schema.String
  readonly domain: Schema.String
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.String>>
}> = Schema.Struct({
  "@type": Schema.Literal(errorInfoType),
  reason: Schema.String,
  domain: Schema.String,
  metadata: optional(StringRecord(Schema.String))
}).annotate({ identifier: "ErrorInfo" })
/** @see ErrorInfo */
export type ErrorInfo = Schema.Schema.Type<typeof ErrorInfo>

/** `google.rpc.BadRequest` as a ProtoJSON `Any`: which request fields were refused, and why. */
export const BadRequest: Schema.Struct<{
  readonly "@type": Schema.Literal<typeof badRequestType>
  readonly fieldViolations: Schema.$Array<Schema.Struct<{ readonly field: Schema.String; readonly description: Schema.String }>>
}> = Schema.Struct({
  "@type": Schema.Literal(badRequestType),
  fieldViolations: Schema.Array(Schema.Struct({ field: Schema.String, description: Schema.String }))
}).annotate({ identifier: "BadRequest" })
/** @see BadRequest */
export type BadRequest = Schema.Schema.Type<typeof BadRequest>

/** A JSON-RPC error object of the 1.0 binding: `data`, when present, is an array of typed details. */
export const JsonRpcError: Schema.Struct<{
  readonly code: Schema.Int
  readonly message: Schema.String
  readonly data: Schema.optionalKey<Schema.$Array<Schema.$Record<Schema.String, Schema.Unknown>>>
}> = Schema.Struct({
  code: Schema.Int,
  message: Schema.String,
  data: optional(Schema.Array(Schema.Record(Schema.String, JsonUnknown)))
}).annotate({ identifier: "JSONRPCError" })

/** `google.rpc.Status` as the REST binding writes it (AIP-193). */
export const Status: Schema.Struct<{
  readonly error: Schema.Struct<{
    readonly code: Schema.Int
    readonly status: Schema.String
    readonly message: Schema.String
    readonly details: Schema.optionalKey<Schema.$Array<Schema.$Record<Schema.String, Schema.Unknown>>>
  }>
}> = Schema.Struct({
  error: Schema.Struct({
    code: Schema.Int,
    status: Schema.String,
    message: Schema.String,
    details: optional(Schema.Array(Schema.Record(Schema.String, JsonUnknown)))
  })
}).annotate({ identifier: "Status" })
/** @see Status */
export type Status = Schema.Schema.Type<typeof Status>

interface Mapping {
  /** ErrorInfo reason: A2A's own errors only (spec §3.3.2); standard JSON-RPC errors have none. */
  readonly reason?: string
  readonly httpStatus: number
  /** The gRPC code name written as `status` in REST bodies. */
  readonly status: string
}

/** Spec 1.0.1 §5.4, by JSON-RPC code. */
const mappings: ReadonlyMap<number, Mapping> = new Map<number, Mapping>([
  [-32700, { httpStatus: 400, status: "INVALID_ARGUMENT" }],
  [-32600, { httpStatus: 400, status: "INVALID_ARGUMENT" }],
  [-32601, { httpStatus: 404, status: "NOT_FOUND" }],
  [-32602, { httpStatus: 400, status: "INVALID_ARGUMENT" }],
  [-32603, { httpStatus: 500, status: "INTERNAL" }],
  [-32001, { reason: "TASK_NOT_FOUND", httpStatus: 404, status: "NOT_FOUND" }],
  [-32002, { reason: "TASK_NOT_CANCELABLE", httpStatus: 400, status: "FAILED_PRECONDITION" }],
  [-32003, { reason: "PUSH_NOTIFICATION_NOT_SUPPORTED", httpStatus: 400, status: "FAILED_PRECONDITION" }],
  [-32004, { reason: "UNSUPPORTED_OPERATION", httpStatus: 400, status: "FAILED_PRECONDITION" }],
  [-32005, { reason: "CONTENT_TYPE_NOT_SUPPORTED", httpStatus: 400, status: "INVALID_ARGUMENT" }],
  [-32006, { reason: "INVALID_AGENT_RESPONSE", httpStatus: 500, status: "INTERNAL" }],
  [-32007, { reason: "EXTENDED_AGENT_CARD_NOT_CONFIGURED", httpStatus: 400, status: "FAILED_PRECONDITION" }],
  [-32008, { reason: "EXTENSION_SUPPORT_REQUIRED", httpStatus: 400, status: "FAILED_PRECONDITION" }],
  [-32009, { reason: "VERSION_NOT_SUPPORTED", httpStatus: 400, status: "FAILED_PRECONDITION" }]
])

const unknownMapping: Mapping = { httpStatus: 500, status: "UNKNOWN" }

/** The gRPC code name of an HTTP status, for REST bodies of errors that have no A2A mapping (401, 403, 413...). */
export const statusNameOf = (httpStatus: number): string => {
  switch (httpStatus) {
    case 400: return "INVALID_ARGUMENT"
    case 401: return "UNAUTHENTICATED"
    case 403: return "PERMISSION_DENIED"
    case 404: return "NOT_FOUND"
    case 405: return "UNIMPLEMENTED"
    case 409: return "ABORTED"
    case 413: return "RESOURCE_EXHAUSTED"
    case 415: return "INVALID_ARGUMENT"
    case 429: return "RESOURCE_EXHAUSTED"
    case 503: return "UNAVAILABLE"
    default: return httpStatus >= 500 ? "INTERNAL" : "UNKNOWN"
  }
}

/**
 * The error as 1.0 states it. A message to a terminal task is UnsupportedOperation in 1.0 (spec §3.1.1),
 * InvalidParams in 0.3; every other error keeps its class.
 */
export const asV1Error = (e: ProtocolError): ProtocolError =>
  e instanceof TaskTerminal ? new UnsupportedOperation({ message: e.message }) : e

const clip = (message: string): string =>
  message.length <= MAX_WIRE_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_WIRE_MESSAGE_LENGTH - 1)}…`

/** Field violations from a decode refusal's `data.issues` (see `describeParamsError`), when it has any. */
const violations = (data: unknown): ReadonlyArray<{ readonly field: string; readonly description: string }> => {
  const issues = typeof data === "object" && data !== null ? (data as { readonly issues?: unknown }).issues : undefined
  if (!Array.isArray(issues)) return []
  return issues.flatMap((issue: unknown) => {
    const i = issue as { readonly path?: unknown; readonly message?: unknown }
    return typeof i.path === "string" && typeof i.message === "string" ? [{ field: i.path, description: i.message }] : []
  })
}

/** The typed details of an error: ErrorInfo for A2A errors, BadRequest for refused params. */
export const errorDetails = (e: ProtocolError): Array<ErrorInfo | BadRequest> => {
  const details: Array<ErrorInfo | BadRequest> = []
  const reason = mappings.get(e.code)?.reason
  if (reason !== undefined) details.push({ "@type": errorInfoType, reason, domain: a2aErrorDomain })
  const fields = violations(e.data)
  if (fields.length > 0) details.push({ "@type": badRequestType, fieldViolations: fields })
  return details
}

/** The JSON-RPC `error` object of the 1.0 binding. */
export const toV1JsonRpcError = (error: ProtocolError): { code: number; message: string; data?: Array<ErrorInfo | BadRequest> } => {
  const e = asV1Error(error)
  const details = errorDetails(e)
  const message = clip(e.message)
  return details.length === 0 ? { code: e.code, message } : { code: e.code, message, data: details }
}

/** The HTTP status of an error on the 1.0 REST binding (spec 1.0.1 §5.4). */
export const v1HttpStatus = (error: ProtocolError): number => (mappings.get(asV1Error(error).code) ?? unknownMapping).httpStatus

/** The `google.rpc.Status` body of an error on the 1.0 REST binding; `httpStatus` overrides the mapped one. */
export const toV1StatusBody = (error: ProtocolError, httpStatus?: number): Status => {
  const e = asV1Error(error)
  const mapping = mappings.get(e.code) ?? unknownMapping
  const code = httpStatus ?? mapping.httpStatus
  const details = errorDetails(e)
  const status = httpStatus === undefined || httpStatus === mapping.httpStatus ? mapping.status : statusNameOf(httpStatus)
  const body = { code, status, message: clip(e.message) }
  return { error: details.length === 0 ? body : { ...body, details } }
}

/** The ErrorInfo reason an A2A error code is written with, when it has one. */
export const reasonOf = (code: number): string | undefined => mappings.get(code)?.reason

/** The A2A error code of an ErrorInfo reason (for clients reading 1.0 errors). */
export const codeOfReason = (reason: string): number | undefined => {
  for (const [code, mapping] of mappings) if (mapping.reason === reason) return code
  return undefined
}

/** The A2A reason of the first ErrorInfo of A2A's domain among typed details, if any. */
const a2aReason = (details: unknown): string | undefined => {
  if (!Array.isArray(details)) return undefined
  for (const d of details as ReadonlyArray<unknown>) {
    if (typeof d !== "object" || d === null) continue
    const info = d as { readonly "@type"?: unknown; readonly reason?: unknown; readonly domain?: unknown }
    if (info["@type"] === errorInfoType && typeof info.reason === "string" && (info.domain === undefined || info.domain === a2aErrorDomain)) {
      return info.reason
    }
  }
  return undefined
}

/**
 * The error class of a 1.0 JSON-RPC `error` object, for clients: the ErrorInfo `reason` in `data` names the
 * A2A error (spec §9.5), else the code does; `data` (the typed details) is kept.
 *
 * @example
 * errorFromV1({ code: -32001, message: "no such task", data: [{ "@type": errorInfoType, reason: "TASK_NOT_FOUND", domain: a2aErrorDomain }] })
 * // TaskNotFound
 */
export const errorFromV1 = (wire: { readonly code: number; readonly message: string; readonly data?: unknown }): ProtocolError => {
  const reason = a2aReason(wire.data)
  const code = (reason === undefined ? undefined : codeOfReason(reason)) ?? wire.code
  return fromWireError(wire.data === undefined ? { code, message: wire.message } : { code, message: wire.message, data: wire.data })
}

/** The A2A error of a `google.rpc.Status` code name, for REST answers without an ErrorInfo. */
const codeOfStatus: ReadonlyMap<string, number> = new Map([
  ["INVALID_ARGUMENT", -32602],
  ["UNIMPLEMENTED", -32004],
  ["INTERNAL", -32603]
])

/**
 * The error class of a 1.0 REST error body (`google.rpc.Status`), for clients: the ErrorInfo reason in
 * `details` names the A2A error (spec §11.6 requires one); without it, `INVALID_ARGUMENT`, `UNIMPLEMENTED` and
 * `INTERNAL` are InvalidParams, UnsupportedOperation and Internal; any other status is undefined (a plain HTTP
 * failure, e.g. a proxy's 404).
 */
export const errorFromV1Status = (body: Status): ProtocolError | undefined => {
  const { message, status, details } = body.error
  const reason = a2aReason(details)
  const code = (reason === undefined ? undefined : codeOfReason(reason)) ?? codeOfStatus.get(status)
  if (code === undefined) return undefined
  return fromWireError(details === undefined ? { code, message } : { code, message, data: details })
}
