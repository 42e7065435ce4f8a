import { Schema } from "effect"
import { JsonUnknown, optional } from "./internal/common.ts"

/**
 * The JSON-RPC error objects as they travel on the wire. The tagged classes that code raises and handles
 * live in `error-catalogue.ts`; these schemas only describe the `error` member of a response.
 */

/** Any JSON-RPC error object: an integer code, a message, optional data. */
export const JSONRPCError: Schema.Struct<{
  readonly code: Schema.Int
  readonly message: Schema.String
  readonly data: Schema.optionalKey<Schema.Unknown>
}> = Schema.Struct({
  code: Schema.Int,
  message: Schema.String,
  data: optional(JsonUnknown)
}).annotate({ identifier: "JSONRPCError" })
/** @see JSONRPCError */
export type JSONRPCError = Schema.Schema.Type<typeof JSONRPCError>

/** The schema of the JSON-RPC error object with code `Code`. */
type WireError<Code extends number> = Schema.Struct<{
  readonly code: Schema.Literal<Code>
  readonly message: Schema.String
  readonly data: Schema.optionalKey<typeof JsonUnknown>
}>

const wireError = <const Code extends number>(code: Code, identifier: string): WireError<Code> =>
  Schema.Struct({
    code: Schema.Literal(code),
    message: Schema.String,
    data: optional(JsonUnknown)
  }).annotate({ identifier })

/** -32700: the body is not JSON. */
export const JSONParseError: WireError<-32700> = wireError(-32700, "JSONParseError")
/** @see JSONParseError */
export type JSONParseError = Schema.Schema.Type<typeof JSONParseError>

/** -32600: not a valid JSON-RPC request. */
export const InvalidRequestError: WireError<-32600> = wireError(-32600, "InvalidRequestError")
/** @see InvalidRequestError */
export type InvalidRequestError = Schema.Schema.Type<typeof InvalidRequestError>

/** -32601: unknown method. */
export const MethodNotFoundError: WireError<-32601> = wireError(-32601, "MethodNotFoundError")
/** @see MethodNotFoundError */
export type MethodNotFoundError = Schema.Schema.Type<typeof MethodNotFoundError>

/** -32602: params fail the method's schema or its preconditions. */
export const InvalidParamsError: WireError<-32602> = wireError(-32602, "InvalidParamsError")
/** @see InvalidParamsError */
export type InvalidParamsError = Schema.Schema.Type<typeof InvalidParamsError>

/** -32603: internal failure. */
export const InternalError: WireError<-32603> = wireError(-32603, "InternalError")
/** @see InternalError */
export type InternalError = Schema.Schema.Type<typeof InternalError>

/** -32001: unknown task id. */
export const TaskNotFoundError: WireError<-32001> = wireError(-32001, "TaskNotFoundError")
/** @see TaskNotFoundError */
export type TaskNotFoundError = Schema.Schema.Type<typeof TaskNotFoundError>

/** -32002: cancel of a task in a terminal state. */
export const TaskNotCancelableError: WireError<-32002> = wireError(-32002, "TaskNotCancelableError")
/** @see TaskNotCancelableError */
export type TaskNotCancelableError = Schema.Schema.Type<typeof TaskNotCancelableError>

/** -32003: push notifications are off. */
export const PushNotificationNotSupportedError: WireError<-32003> = wireError(-32003, "PushNotificationNotSupportedError")
/** @see PushNotificationNotSupportedError */
export type PushNotificationNotSupportedError = Schema.Schema.Type<typeof PushNotificationNotSupportedError>

/** -32004: capability off or operation refused. */
export const UnsupportedOperationError: WireError<-32004> = wireError(-32004, "UnsupportedOperationError")
/** @see UnsupportedOperationError */
export type UnsupportedOperationError = Schema.Schema.Type<typeof UnsupportedOperationError>

/** -32005: a part's MIME type is outside the accepted input modes. */
export const ContentTypeNotSupportedError: WireError<-32005> = wireError(-32005, "ContentTypeNotSupportedError")
/** @see ContentTypeNotSupportedError */
export type ContentTypeNotSupportedError = Schema.Schema.Type<typeof ContentTypeNotSupportedError>

/** -32006: the agent produced an invalid response. */
export const InvalidAgentResponseError: WireError<-32006> = wireError(-32006, "InvalidAgentResponseError")
/** @see InvalidAgentResponseError */
export type InvalidAgentResponseError = Schema.Schema.Type<typeof InvalidAgentResponseError>

/** -32007: the authenticated extended card is not configured. */
export const AuthenticatedExtendedCardNotConfiguredError: WireError<-32007> = wireError(-32007, "AuthenticatedExtendedCardNotConfiguredError")
/** @see AuthenticatedExtendedCardNotConfiguredError */
export type AuthenticatedExtendedCardNotConfiguredError = Schema.Schema.Type<
  typeof AuthenticatedExtendedCardNotConfiguredError
>

/** Every error the A2A spec defines, JSON-RPC standard ones included. */
export const A2AError: Schema.Union<
  readonly [
    typeof JSONParseError,
    typeof InvalidRequestError,
    typeof MethodNotFoundError,
    typeof InvalidParamsError,
    typeof InternalError,
    typeof TaskNotFoundError,
    typeof TaskNotCancelableError,
    typeof PushNotificationNotSupportedError,
    typeof UnsupportedOperationError,
    typeof ContentTypeNotSupportedError,
    typeof InvalidAgentResponseError,
    typeof AuthenticatedExtendedCardNotConfiguredError
  ]
> = Schema.Union([JSONParseError,
  InvalidRequestError,
  MethodNotFoundError,
  InvalidParamsError,
  InternalError,
  TaskNotFoundError,
  TaskNotCancelableError,
  PushNotificationNotSupportedError,
  UnsupportedOperationError,
  ContentTypeNotSupportedError,
  InvalidAgentResponseError,
  AuthenticatedExtendedCardNotConfiguredError]).annotate({ identifier: "A2AError" })
/** @see A2AError */
export type A2AError = Schema.Schema.Type<typeof A2AError>
