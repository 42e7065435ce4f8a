import { Schema } from "effect"
import { JsonObject, optional } from "./internal/common.ts"
import { JSONRPCVersion, RequestId } from "./jsonrpc.ts"
import { MessageSendParams, TaskIdParams, TaskQueryParams } from "./params.ts"
import {
  DeleteTaskPushNotificationConfigParams,
  GetTaskPushNotificationConfigParams,
  ListTaskPushNotificationConfigParams,
  TaskPushNotificationConfig
} from "./push.ts"

/** The schema of a JSON-RPC request for `Method` with `Params`. */
type RpcRequest<Method extends string, Params extends Schema.Top> = Schema.Struct<{
  readonly jsonrpc: typeof JSONRPCVersion
  readonly id: typeof RequestId
  readonly method: Schema.Literal<Method>
  readonly params: Params
}>

const request = <const Method extends string, Params extends Schema.Top>(
  method: Method,
  params: Params,
  identifier: string
): RpcRequest<Method, Params> =>
  Schema.Struct({
    jsonrpc: JSONRPCVersion,
    id: RequestId,
    method: Schema.Literal(method),
    params
  }).annotate({ identifier })

/** `message/send`. */
export const SendMessageRequest: RpcRequest<"message/send", typeof MessageSendParams> = request("message/send", MessageSendParams, "SendMessageRequest")
/** @see SendMessageRequest */
export type SendMessageRequest = Schema.Schema.Type<typeof SendMessageRequest>

/** `message/stream`. */
export const SendStreamingMessageRequest: RpcRequest<"message/stream", typeof MessageSendParams> = request("message/stream", MessageSendParams, "SendStreamingMessageRequest")
/** @see SendStreamingMessageRequest */
export type SendStreamingMessageRequest = Schema.Schema.Type<typeof SendStreamingMessageRequest>

/** `tasks/get`. */
export const GetTaskRequest: RpcRequest<"tasks/get", typeof TaskQueryParams> = request("tasks/get", TaskQueryParams, "GetTaskRequest")
/** @see GetTaskRequest */
export type GetTaskRequest = Schema.Schema.Type<typeof GetTaskRequest>

/** `tasks/cancel`. */
export const CancelTaskRequest: RpcRequest<"tasks/cancel", typeof TaskIdParams> = request("tasks/cancel", TaskIdParams, "CancelTaskRequest")
/** @see CancelTaskRequest */
export type CancelTaskRequest = Schema.Schema.Type<typeof CancelTaskRequest>

/** `tasks/resubscribe`. */
export const TaskResubscriptionRequest: RpcRequest<"tasks/resubscribe", typeof TaskIdParams> = request("tasks/resubscribe", TaskIdParams, "TaskResubscriptionRequest")
/** @see TaskResubscriptionRequest */
export type TaskResubscriptionRequest = Schema.Schema.Type<typeof TaskResubscriptionRequest>

/** `tasks/pushNotificationConfig/set`. */
export const SetTaskPushNotificationConfigRequest: RpcRequest<
  "tasks/pushNotificationConfig/set",
  typeof TaskPushNotificationConfig
> = request("tasks/pushNotificationConfig/set", TaskPushNotificationConfig, "SetTaskPushNotificationConfigRequest")
/** @see SetTaskPushNotificationConfigRequest */
export type SetTaskPushNotificationConfigRequest = Schema.Schema.Type<typeof SetTaskPushNotificationConfigRequest>

/**
 * `tasks/pushNotificationConfig/get`. Upstream accepts TaskIdParams or GetTaskPushNotificationConfigParams;
 * the richer one is tried first so a `pushNotificationConfigId` is never stripped by the poorer one.
 */
export const GetTaskPushNotificationConfigRequest: RpcRequest<
  "tasks/pushNotificationConfig/get",
  Schema.Union<readonly [typeof GetTaskPushNotificationConfigParams, typeof TaskIdParams]>
> = request(
  "tasks/pushNotificationConfig/get",
  Schema.Union([GetTaskPushNotificationConfigParams, TaskIdParams]),
  "GetTaskPushNotificationConfigRequest"
)
/** @see GetTaskPushNotificationConfigRequest */
export type GetTaskPushNotificationConfigRequest = Schema.Schema.Type<typeof GetTaskPushNotificationConfigRequest>

/** `tasks/pushNotificationConfig/list`. */
export const ListTaskPushNotificationConfigRequest: RpcRequest<
  "tasks/pushNotificationConfig/list",
  typeof ListTaskPushNotificationConfigParams
> = request("tasks/pushNotificationConfig/list", ListTaskPushNotificationConfigParams, "ListTaskPushNotificationConfigRequest")
/** @see ListTaskPushNotificationConfigRequest */
export type ListTaskPushNotificationConfigRequest = Schema.Schema.Type<typeof ListTaskPushNotificationConfigRequest>

/** `tasks/pushNotificationConfig/delete`. */
export const DeleteTaskPushNotificationConfigRequest: RpcRequest<
  "tasks/pushNotificationConfig/delete",
  typeof DeleteTaskPushNotificationConfigParams
> = request("tasks/pushNotificationConfig/delete", DeleteTaskPushNotificationConfigParams, "DeleteTaskPushNotificationConfigRequest")
/** @see DeleteTaskPushNotificationConfigRequest */
export type DeleteTaskPushNotificationConfigRequest = Schema.Schema.Type<typeof DeleteTaskPushNotificationConfigRequest>

/**
 * Params of `agent/getAuthenticatedExtendedCard`: upstream defines none; we accept them absent or as any
 * object (its members are ignored), since clients differ on sending `{}` (not upstream-named).
 */
export const NoParams: Schema.UndefinedOr<typeof JsonObject> = Schema.UndefinedOr(JsonObject).annotate({ identifier: "NoParams" })
/** @see NoParams */
export type NoParams = Schema.Schema.Type<typeof NoParams>

/** `agent/getAuthenticatedExtendedCard`. */
export const GetAuthenticatedExtendedCardRequest: Schema.Struct<{
  readonly jsonrpc: typeof JSONRPCVersion
  readonly id: typeof RequestId
  readonly method: Schema.Literal<"agent/getAuthenticatedExtendedCard">
  readonly params: Schema.optionalKey<typeof JsonObject>
}> = Schema.Struct({
  jsonrpc: JSONRPCVersion,
  id: RequestId,
  method: Schema.Literal("agent/getAuthenticatedExtendedCard"),
  params: optional(JsonObject)
}).annotate({ identifier: "GetAuthenticatedExtendedCardRequest" })
/** @see GetAuthenticatedExtendedCardRequest */
export type GetAuthenticatedExtendedCardRequest = Schema.Schema.Type<typeof GetAuthenticatedExtendedCardRequest>

/** Any A2A method request, discriminated by `method`. */
export const A2ARequest: Schema.Union<
  readonly [
    typeof SendMessageRequest,
    typeof SendStreamingMessageRequest,
    typeof GetTaskRequest,
    typeof CancelTaskRequest,
    typeof SetTaskPushNotificationConfigRequest,
    typeof GetTaskPushNotificationConfigRequest,
    typeof TaskResubscriptionRequest,
    typeof ListTaskPushNotificationConfigRequest,
    typeof DeleteTaskPushNotificationConfigRequest,
    typeof GetAuthenticatedExtendedCardRequest
  ]
> = Schema.Union([SendMessageRequest,
  SendStreamingMessageRequest,
  GetTaskRequest,
  CancelTaskRequest,
  SetTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  TaskResubscriptionRequest,
  ListTaskPushNotificationConfigRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetAuthenticatedExtendedCardRequest]).annotate({ identifier: "A2ARequest" })
/** @see A2ARequest */
export type A2ARequest = Schema.Schema.Type<typeof A2ARequest>
