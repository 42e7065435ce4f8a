import { Schema } from "effect"
import { AgentCard } from "./agent-card.ts"
import { SendMessageResult, StreamResult } from "./events.ts"
import { JSONRPCErrorResponse, JSONRPCVersion, ResponseId } from "./jsonrpc.ts"
import { TaskPushNotificationConfig } from "./push.ts"
import { Task } from "./task.ts"

/** The schema of a JSON-RPC success response whose `result` is `Result`. */
type SuccessResponse<Result extends Schema.Top> = Schema.Struct<{
  readonly jsonrpc: typeof JSONRPCVersion
  readonly id: typeof ResponseId
  readonly result: Result
}>

/** The schema of a response: the JSON-RPC error response or `Success`. */
type RpcResponse<Success extends Schema.Top> = Schema.Union<readonly [typeof JSONRPCErrorResponse, Success]>

const success = <Result extends Schema.Top>(result: Result, identifier: string): SuccessResponse<Result> =>
  Schema.Struct({ jsonrpc: JSONRPCVersion, id: ResponseId, result }).annotate({ identifier })

const either = <Success extends Schema.Top>(ok: Success, identifier: string): RpcResponse<Success> =>
  Schema.Union([JSONRPCErrorResponse, ok]).annotate({ identifier })

/** Success of `message/send`: a Task or a Message. */
export const SendMessageSuccessResponse: SuccessResponse<typeof SendMessageResult> = success(SendMessageResult, "SendMessageSuccessResponse")
/** @see SendMessageSuccessResponse */
export type SendMessageSuccessResponse = Schema.Schema.Type<typeof SendMessageSuccessResponse>
/** Response to `message/send`. */
export const SendMessageResponse: RpcResponse<typeof SendMessageSuccessResponse> = either(SendMessageSuccessResponse, "SendMessageResponse")
/** @see SendMessageResponse */
export type SendMessageResponse = Schema.Schema.Type<typeof SendMessageResponse>

/** One SSE event of `message/stream` or `tasks/resubscribe`. */
export const SendStreamingMessageSuccessResponse: SuccessResponse<typeof StreamResult> = success(StreamResult, "SendStreamingMessageSuccessResponse")
/** @see SendStreamingMessageSuccessResponse */
export type SendStreamingMessageSuccessResponse = Schema.Schema.Type<typeof SendStreamingMessageSuccessResponse>
/** One SSE event (or the error) of a stream. */
export const SendStreamingMessageResponse: RpcResponse<typeof SendStreamingMessageSuccessResponse> = either(SendStreamingMessageSuccessResponse, "SendStreamingMessageResponse")
/** @see SendStreamingMessageResponse */
export type SendStreamingMessageResponse = Schema.Schema.Type<typeof SendStreamingMessageResponse>

/** Success of `tasks/get`. */
export const GetTaskSuccessResponse: SuccessResponse<typeof Task> = success(Task, "GetTaskSuccessResponse")
/** @see GetTaskSuccessResponse */
export type GetTaskSuccessResponse = Schema.Schema.Type<typeof GetTaskSuccessResponse>
/** Response to `tasks/get`. */
export const GetTaskResponse: RpcResponse<typeof GetTaskSuccessResponse> = either(GetTaskSuccessResponse, "GetTaskResponse")
/** @see GetTaskResponse */
export type GetTaskResponse = Schema.Schema.Type<typeof GetTaskResponse>

/** Success of `tasks/cancel`. */
export const CancelTaskSuccessResponse: SuccessResponse<typeof Task> = success(Task, "CancelTaskSuccessResponse")
/** @see CancelTaskSuccessResponse */
export type CancelTaskSuccessResponse = Schema.Schema.Type<typeof CancelTaskSuccessResponse>
/** Response to `tasks/cancel`. */
export const CancelTaskResponse: RpcResponse<typeof CancelTaskSuccessResponse> = either(CancelTaskSuccessResponse, "CancelTaskResponse")
/** @see CancelTaskResponse */
export type CancelTaskResponse = Schema.Schema.Type<typeof CancelTaskResponse>

/** Success of `tasks/pushNotificationConfig/set`. */
export const SetTaskPushNotificationConfigSuccessResponse: SuccessResponse<typeof TaskPushNotificationConfig> = success(
  TaskPushNotificationConfig,
  "SetTaskPushNotificationConfigSuccessResponse"
)
/** @see SetTaskPushNotificationConfigSuccessResponse */
export type SetTaskPushNotificationConfigSuccessResponse = Schema.Schema.Type<
  typeof SetTaskPushNotificationConfigSuccessResponse
>
/** Response to `tasks/pushNotificationConfig/set`. */
export const SetTaskPushNotificationConfigResponse: RpcResponse<typeof SetTaskPushNotificationConfigSuccessResponse> = either(
  SetTaskPushNotificationConfigSuccessResponse,
  "SetTaskPushNotificationConfigResponse"
)
/** @see SetTaskPushNotificationConfigResponse */
export type SetTaskPushNotificationConfigResponse = Schema.Schema.Type<typeof SetTaskPushNotificationConfigResponse>

/** Success of `tasks/pushNotificationConfig/get`. */
export const GetTaskPushNotificationConfigSuccessResponse: SuccessResponse<typeof TaskPushNotificationConfig> = success(
  TaskPushNotificationConfig,
  "GetTaskPushNotificationConfigSuccessResponse"
)
/** @see GetTaskPushNotificationConfigSuccessResponse */
export type GetTaskPushNotificationConfigSuccessResponse = Schema.Schema.Type<
  typeof GetTaskPushNotificationConfigSuccessResponse
>
/** Response to `tasks/pushNotificationConfig/get`. */
export const GetTaskPushNotificationConfigResponse: RpcResponse<typeof GetTaskPushNotificationConfigSuccessResponse> = either(
  GetTaskPushNotificationConfigSuccessResponse,
  "GetTaskPushNotificationConfigResponse"
)
/** @see GetTaskPushNotificationConfigResponse */
export type GetTaskPushNotificationConfigResponse = Schema.Schema.Type<typeof GetTaskPushNotificationConfigResponse>

/** Success of `tasks/pushNotificationConfig/list`. */
export const ListTaskPushNotificationConfigSuccessResponse: SuccessResponse<Schema.$Array<typeof TaskPushNotificationConfig>> = success(
  Schema.Array(TaskPushNotificationConfig),
  "ListTaskPushNotificationConfigSuccessResponse"
)
/** @see ListTaskPushNotificationConfigSuccessResponse */
export type ListTaskPushNotificationConfigSuccessResponse = Schema.Schema.Type<
  typeof ListTaskPushNotificationConfigSuccessResponse
>
/** Response to `tasks/pushNotificationConfig/list`. */
export const ListTaskPushNotificationConfigResponse: RpcResponse<typeof ListTaskPushNotificationConfigSuccessResponse> = either(
  ListTaskPushNotificationConfigSuccessResponse,
  "ListTaskPushNotificationConfigResponse"
)
/** @see ListTaskPushNotificationConfigResponse */
export type ListTaskPushNotificationConfigResponse = Schema.Schema.Type<typeof ListTaskPushNotificationConfigResponse>

/** Success of `tasks/pushNotificationConfig/delete`: `result` is null. */
export const DeleteTaskPushNotificationConfigSuccessResponse: SuccessResponse<Schema.Null> = success(
  Schema.Null,
  "DeleteTaskPushNotificationConfigSuccessResponse"
)
/** @see DeleteTaskPushNotificationConfigSuccessResponse */
export type DeleteTaskPushNotificationConfigSuccessResponse = Schema.Schema.Type<
  typeof DeleteTaskPushNotificationConfigSuccessResponse
>
/** Response to `tasks/pushNotificationConfig/delete`. */
export const DeleteTaskPushNotificationConfigResponse: RpcResponse<typeof DeleteTaskPushNotificationConfigSuccessResponse> = either(
  DeleteTaskPushNotificationConfigSuccessResponse,
  "DeleteTaskPushNotificationConfigResponse"
)
/** @see DeleteTaskPushNotificationConfigResponse */
export type DeleteTaskPushNotificationConfigResponse = Schema.Schema.Type<
  typeof DeleteTaskPushNotificationConfigResponse
>

/** Success of `agent/getAuthenticatedExtendedCard`. */
export const GetAuthenticatedExtendedCardSuccessResponse: SuccessResponse<typeof AgentCard> = success(
  AgentCard,
  "GetAuthenticatedExtendedCardSuccessResponse"
)
/** @see GetAuthenticatedExtendedCardSuccessResponse */
export type GetAuthenticatedExtendedCardSuccessResponse = Schema.Schema.Type<
  typeof GetAuthenticatedExtendedCardSuccessResponse
>
/** Response to `agent/getAuthenticatedExtendedCard`. */
export const GetAuthenticatedExtendedCardResponse: RpcResponse<typeof GetAuthenticatedExtendedCardSuccessResponse> = either(
  GetAuthenticatedExtendedCardSuccessResponse,
  "GetAuthenticatedExtendedCardResponse"
)
/** @see GetAuthenticatedExtendedCardResponse */
export type GetAuthenticatedExtendedCardResponse = Schema.Schema.Type<typeof GetAuthenticatedExtendedCardResponse>

/** Any A2A response. Success members overlap (a Task result fits several); decoding takes the first match. */
export const JSONRPCResponse: Schema.Union<
  readonly [
    typeof JSONRPCErrorResponse,
    typeof SendMessageSuccessResponse,
    typeof SendStreamingMessageSuccessResponse,
    typeof GetTaskSuccessResponse,
    typeof GetTaskSuccessResponse,
    typeof SetTaskPushNotificationConfigSuccessResponse,
    typeof SetTaskPushNotificationConfigSuccessResponse,
    typeof ListTaskPushNotificationConfigSuccessResponse,
    typeof DeleteTaskPushNotificationConfigSuccessResponse,
    typeof GetAuthenticatedExtendedCardSuccessResponse
  ]
> = Schema.Union([JSONRPCErrorResponse,
  SendMessageSuccessResponse,
  SendStreamingMessageSuccessResponse,
  GetTaskSuccessResponse,
  CancelTaskSuccessResponse,
  SetTaskPushNotificationConfigSuccessResponse,
  GetTaskPushNotificationConfigSuccessResponse,
  ListTaskPushNotificationConfigSuccessResponse,
  DeleteTaskPushNotificationConfigSuccessResponse,
  GetAuthenticatedExtendedCardSuccessResponse]).annotate({ identifier: "JSONRPCResponse" })
/** @see JSONRPCResponse */
export type JSONRPCResponse = Schema.Schema.Type<typeof JSONRPCResponse>
