import { Effect, Schema } from "effect"
import type { YieldableError } from "effect/Cause"
import { JsonUnknown, optional } from "./internal/common.ts"
import type { JSONRPCError } from "./wire-errors.ts"

/*
 * One tagged error class per A2A error. Code raises and matches these; `toWireError` turns one into the
 * JSON-RPC `error` object, `fromWireError` turns a received object back into a class. The `message` field
 * defaults to the upstream default text, so `new TaskNotFound()` is enough; callers add detail when they
 * have it. Messages must never carry stack traces or internal details: they go out verbatim.
 */

/** The fields of every catalogue error: `message`, defaulting to the upstream text, and optional `data`. */
type ErrorFields = {
  readonly message: Schema.withDecodingDefaultTypeKey<Schema.withConstructorDefault<Schema.String>, never>
  readonly data: Schema.optionalKey<typeof JsonUnknown>
}

/**
 * The class a catalogue error extends, spelled out: JSR's fast check reads a class's base only from a
 * variable of an explicit type.
 */
type ErrorBase<Self, Tag extends string, Fields extends Schema.Struct.Fields = ErrorFields> = Schema.Class<
  Self,
  Schema.TaggedStruct<Tag, Fields>,
  YieldableError
>

const fields = (defaultMessage: string): ErrorFields => ({
  message: Schema.String.pipe(
    Schema.withConstructorDefault(Effect.succeed(defaultMessage)),
    Schema.withDecodingDefaultTypeKey(Effect.succeed(defaultMessage))
  ),
  data: optional(JsonUnknown)
})

const JSONParseBase: ErrorBase<JSONParse, "JSONParse"> =
  Schema.TaggedError<JSONParse>()("JSONParse", fields("Invalid JSON payload"))

/** -32700 / HTTP 400: the request body is not valid JSON. */
export class JSONParse extends JSONParseBase {
  static readonly code = -32700
  static readonly httpStatus = 400
  /** JSON-RPC error code. */
  get code(): number { return JSONParse.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return JSONParse.httpStatus }
}

const InvalidRequestBase: ErrorBase<InvalidRequest, "InvalidRequest"> =
  Schema.TaggedError<InvalidRequest>()("InvalidRequest", fields("Request payload validation error"))

/** -32600 / HTTP 400: not a valid JSON-RPC 2.0 request object. */
export class InvalidRequest extends InvalidRequestBase {
  static readonly code = -32600
  static readonly httpStatus = 400
  /** JSON-RPC error code. */
  get code(): number { return InvalidRequest.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return InvalidRequest.httpStatus }
}

const MethodNotFoundBase: ErrorBase<MethodNotFound, "MethodNotFound"> =
  Schema.TaggedError<MethodNotFound>()("MethodNotFound", fields("Method not found"))

/** -32601 / HTTP 404: unknown method. */
export class MethodNotFound extends MethodNotFoundBase {
  static readonly code = -32601
  static readonly httpStatus = 404
  /** JSON-RPC error code. */
  get code(): number { return MethodNotFound.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return MethodNotFound.httpStatus }
}

const InvalidParamsBase: ErrorBase<InvalidParams, "InvalidParams"> =
  Schema.TaggedError<InvalidParams>()("InvalidParams", fields("Invalid parameters"))

/** -32602 / HTTP 400: params fail the schema or a precondition (e.g. a message to a terminal task). */
export class InvalidParams extends InvalidParamsBase {
  static readonly code = -32602
  static readonly httpStatus = 400
  /** JSON-RPC error code. */
  get code(): number { return InvalidParams.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return InvalidParams.httpStatus }
}

/**
 * A message to a task in a terminal state: InvalidParams (-32602) on the 0.3 wire (CONFORMANCE.md), and
 * UnsupportedOperation (-32004) on the 1.0 wire (spec 1.0 §3.1.1), whose error mapping tells it apart by class.
 */
export class TaskTerminal extends InvalidParams {}

const InternalBase: ErrorBase<Internal, "Internal"> =
  Schema.TaggedError<Internal>()("Internal", fields("Internal error"))

/** -32603 / HTTP 500: a bug or an agent crash. The message is generic; details stay in logs. */
export class Internal extends InternalBase {
  static readonly code = -32603
  static readonly httpStatus = 500
  /** JSON-RPC error code. */
  get code(): number { return Internal.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return Internal.httpStatus }
}

const TaskNotFoundBase: ErrorBase<TaskNotFound, "TaskNotFound"> =
  Schema.TaggedError<TaskNotFound>()("TaskNotFound", fields("Task not found"))

/** -32001 / HTTP 404: unknown task id. */
export class TaskNotFound extends TaskNotFoundBase {
  static readonly code = -32001
  static readonly httpStatus = 404
  /** JSON-RPC error code. */
  get code(): number { return TaskNotFound.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return TaskNotFound.httpStatus }
}

const TaskNotCancelableBase: ErrorBase<TaskNotCancelable, "TaskNotCancelable"> =
  Schema.TaggedError<TaskNotCancelable>()("TaskNotCancelable", fields("Task cannot be canceled"))

/** -32002 / HTTP 409: cancel of a task already in a terminal state. */
export class TaskNotCancelable extends TaskNotCancelableBase {
  static readonly code = -32002
  static readonly httpStatus = 409
  /** JSON-RPC error code. */
  get code(): number { return TaskNotCancelable.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return TaskNotCancelable.httpStatus }
}

const PushNotificationNotSupportedBase: ErrorBase<PushNotificationNotSupported, "PushNotificationNotSupported"> =
  Schema.TaggedError<PushNotificationNotSupported>()("PushNotificationNotSupported", fields("Push Notification is not supported"))

/** -32003 / HTTP 400: a push-config method while push notifications are off. */
export class PushNotificationNotSupported extends PushNotificationNotSupportedBase {
  static readonly code = -32003
  static readonly httpStatus = 400
  /** JSON-RPC error code. */
  get code(): number { return PushNotificationNotSupported.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return PushNotificationNotSupported.httpStatus }
}

const UnsupportedOperationBase: ErrorBase<UnsupportedOperation, "UnsupportedOperation"> =
  Schema.TaggedError<UnsupportedOperation>()("UnsupportedOperation", fields("This operation is not supported"))

/** -32004 / HTTP 400: a capability is off, or the agent refuses the operation. */
export class UnsupportedOperation extends UnsupportedOperationBase {
  static readonly code = -32004
  static readonly httpStatus = 400
  /** JSON-RPC error code. */
  get code(): number { return UnsupportedOperation.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return UnsupportedOperation.httpStatus }
}

const ContentTypeNotSupportedBase: ErrorBase<ContentTypeNotSupported, "ContentTypeNotSupported"> =
  Schema.TaggedError<ContentTypeNotSupported>()("ContentTypeNotSupported", fields("Incompatible content types"))

/** -32005 / HTTP 415: a part's MIME type is outside the accepted input modes. */
export class ContentTypeNotSupported extends ContentTypeNotSupportedBase {
  static readonly code = -32005
  static readonly httpStatus = 415
  /** JSON-RPC error code. */
  get code(): number { return ContentTypeNotSupported.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return ContentTypeNotSupported.httpStatus }
}

const InvalidAgentResponseBase: ErrorBase<InvalidAgentResponse, "InvalidAgentResponse"> =
  Schema.TaggedError<InvalidAgentResponse>()("InvalidAgentResponse", fields("Invalid agent response"))

/** -32006 / HTTP 502: the agent (or, client side, the remote server) produced something invalid. */
export class InvalidAgentResponse extends InvalidAgentResponseBase {
  static readonly code = -32006
  static readonly httpStatus = 502
  /** JSON-RPC error code. */
  get code(): number { return InvalidAgentResponse.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return InvalidAgentResponse.httpStatus }
}

const AuthenticatedExtendedCardNotConfiguredBase: ErrorBase<AuthenticatedExtendedCardNotConfigured, "AuthenticatedExtendedCardNotConfigured"> =
  Schema.TaggedError<AuthenticatedExtendedCardNotConfigured>()("AuthenticatedExtendedCardNotConfigured", fields("Authenticated Extended Card is not configured"))

/** -32007 / HTTP 404: the authenticated extended card was asked for but is not configured. */
export class AuthenticatedExtendedCardNotConfigured extends AuthenticatedExtendedCardNotConfiguredBase {
  static readonly code = -32007
  static readonly httpStatus = 404
  /** JSON-RPC error code. */
  get code(): number { return AuthenticatedExtendedCardNotConfigured.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return AuthenticatedExtendedCardNotConfigured.httpStatus }
}

const RemoteErrorBase: ErrorBase<RemoteError, "RemoteError", {
  readonly code: Schema.Int
  readonly message: Schema.String
  readonly data: Schema.optionalKey<typeof JsonUnknown>
}> = Schema.TaggedError<RemoteError>()("RemoteError", {
  code: Schema.Int,
  message: Schema.String,
  data: optional(JsonUnknown)
})

const ExtensionSupportRequiredBase: ErrorBase<ExtensionSupportRequired, "ExtensionSupportRequired"> =
  Schema.TaggedError<ExtensionSupportRequired>()("ExtensionSupportRequired", fields("Extension support required"))

/**
 * -32008 / HTTP 400 (A2A 1.0): the agent declares an extension `required` and the request did not activate
 * it. The 0.3 binding answers the same refusal with -32600, as it always has (0.3 has no code for it).
 */
export class ExtensionSupportRequired extends ExtensionSupportRequiredBase {
  static readonly code = -32008
  static readonly httpStatus = 400
  /** JSON-RPC error code. */
  get code(): number { return ExtensionSupportRequired.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return ExtensionSupportRequired.httpStatus }
}

const VersionNotSupportedBase: ErrorBase<VersionNotSupported, "VersionNotSupported"> =
  Schema.TaggedError<VersionNotSupported>()("VersionNotSupported", fields("Version not supported"))

/** -32009 / HTTP 400 (A2A 1.0): the `A2A-Version` a request names is not one this server speaks. */
export class VersionNotSupported extends VersionNotSupportedBase {
  static readonly code = -32009
  static readonly httpStatus = 400
  /** JSON-RPC error code. */
  get code(): number { return VersionNotSupported.code }
  /** HTTP status for the REST binding. */
  get httpStatus(): number { return VersionNotSupported.httpStatus }
}

/**
 * An error received from a peer with a code outside the A2A catalogue (JSON-RPC leaves -32000..-32099 and
 * other codes to implementations). Kept as its own class, rather than folded into Internal, so the original
 * code survives `fromWireError` / `toWireError` unchanged when a client relays it.
 */
export class RemoteError extends RemoteErrorBase {
  static readonly httpStatus = 500
  /** HTTP status for the REST binding: relaying an unknown peer error is our failure to handle it. */
  get httpStatus(): number { return RemoteError.httpStatus }
}

/** The classes of the A2A catalogue, in spec order (RemoteError excluded: it has no fixed code); the last two are 1.0's. */
export const catalogue = [
  JSONParse,
  InvalidRequest,
  MethodNotFound,
  InvalidParams,
  Internal,
  TaskNotFound,
  TaskNotCancelable,
  PushNotificationNotSupported,
  UnsupportedOperation,
  ContentTypeNotSupported,
  InvalidAgentResponse,
  AuthenticatedExtendedCardNotConfigured,
  ExtensionSupportRequired,
  VersionNotSupported
] as const

/** Any error this protocol puts on the wire: one of the catalogue, or a relayed RemoteError. */
export type ProtocolError =
  | JSONParse
  | InvalidRequest
  | MethodNotFound
  | InvalidParams
  | Internal
  | TaskNotFound
  | TaskNotCancelable
  | PushNotificationNotSupported
  | UnsupportedOperation
  | ContentTypeNotSupported
  | InvalidAgentResponse
  | AuthenticatedExtendedCardNotConfigured
  | ExtensionSupportRequired
  | VersionNotSupported
  | RemoteError

type CatalogueClass = (typeof catalogue)[number]

const byCode: ReadonlyMap<number, CatalogueClass> = new Map(catalogue.map((c) => [c.code, c] as const))

/** True for an instance of any ProtocolError class. */
export const isProtocolError = (u: unknown): u is ProtocolError =>
  u instanceof RemoteError || catalogue.some((c) => u instanceof c)

/** The longest `message` an error carries on the wire, in characters. */
export const MAX_WIRE_MESSAGE_LENGTH = 1_024

/**
 * The JSON-RPC `error` object for `e`. `data` is copied only when present, so the result can be
 * `JSON.stringify`-ed as is. The message is clipped to {@link MAX_WIRE_MESSAGE_LENGTH} characters: messages
 * quote what a request named (a task id, a method), and nothing a client sent may come back unbounded.
 */
export const toWireError = (e: ProtocolError): JSONRPCError => {
  const message = e.message.length <= MAX_WIRE_MESSAGE_LENGTH
    ? e.message
    : `${e.message.slice(0, MAX_WIRE_MESSAGE_LENGTH - 1)}…`
  return e.data === undefined ? { code: e.code, message } : { code: e.code, message, data: e.data }
}

/**
 * The class for a received JSON-RPC `error` object: a catalogue class for a known code, otherwise a
 * RemoteError that keeps the code.
 *
 * @example
 * fromWireError({ code: -32001, message: "Task not found" }) // TaskNotFound
 */
export const fromWireError = (wire: {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}): ProtocolError => {
  const props = wire.data === undefined ? { message: wire.message } : { message: wire.message, data: wire.data }
  const Class = byCode.get(wire.code)
  return Class === undefined ? new RemoteError({ code: wire.code, ...props }) : new Class(props)
}

