import { Schema } from "effect"
import { AgentCard } from "./agent-card.ts"
import { SendMessageResult, StreamResult } from "./events.ts"
import { JSONRPCErrorResponse, JSONRPCVersion, ResponseId } from "./jsonrpc.ts"
import { TaskPushNotificationConfig } from "./push.ts"
import { Task } from "./task.ts"

const success = <Result extends Schema.Top>(result: Result, identifier: string) =>
  Schema.Struct({ jsonrpc: JSONRPCVersion, id: ResponseId, result }).annotate({ identifier })

const either = <Success extends Schema.Top>(ok: Success, identifier: string) =>
  Schema.Union([JSONRPCErrorResponse, ok]).annotate({ identifier })

/** Success of `message/send`: a Task or a Message. */
export const SendMessageSuccessResponse = success(SendMessageResult, "SendMessageSuccessResponse")
/** @see SendMessageSuccessResponse */
export type SendMessageSuccessResponse = Schema.Schema.Type<typeof SendMessageSuccessResponse>
/** Response to `message/send`. */
export const SendMessageResponse = either(SendMessageSuccessResponse, "SendMessageResponse")
/** @see SendMessageResponse */
export type SendMessageResponse = Schema.Schema.Type<typeof SendMessageResponse>

/** One SSE event of `message/stream` or `tasks/resubscribe`. */
export const SendStreamingMessageSuccessResponse = success(StreamResult, "SendStreamingMessageSuccessResponse")
/** @see SendStreamingMessageSuccessResponse */
export type SendStreamingMessageSuccessResponse = Schema.Schema.Type<typeof SendStreamingMessageSuccessResponse>
/** One SSE event (or the error) of a stream. */
export const SendStreamingMessageResponse = either(SendStreamingMessageSuccessResponse, "SendStreamingMessageResponse")
/** @see SendStreamingMessageResponse */
export type SendStreamingMessageResponse = Schema.Schema.Type<typeof SendStreamingMessageResponse>

/** Success of `tasks/get`. */
export const GetTaskSuccessResponse = success(Task, "GetTaskSuccessResponse")
/** @see GetTaskSuccessResponse */
export type GetTaskSuccessResponse = Schema.Schema.Type<typeof GetTaskSuccessResponse>
/** Response to `tasks/get`. */
export const GetTaskResponse = either(GetTaskSuccessResponse, "GetTaskResponse")
/** @see GetTaskResponse */
export type GetTaskResponse = Schema.Schema.Type<typeof GetTaskResponse>

/** Success of `tasks/cancel`. */
export const CancelTaskSuccessResponse = success(Task, "CancelTaskSuccessResponse")
/** @see CancelTaskSuccessResponse */
export type CancelTaskSuccessResponse = Schema.Schema.Type<typeof CancelTaskSuccessResponse>
/** Response to `tasks/cancel`. */
export const CancelTaskResponse = either(CancelTaskSuccessResponse, "CancelTaskResponse")
/** @see CancelTaskResponse */
export type CancelTaskResponse = Schema.Schema.Type<typeof CancelTaskResponse>

/** Success of `tasks/pushNotificationConfig/set`. */
export const SetTaskPushNotificationConfigSuccessResponse = success(
  TaskPushNotificationConfig,
  "SetTaskPushNotificationConfigSuccessResponse"
)
/** @see SetTaskPushNotificationConfigSuccessResponse */
export type SetTaskPushNotificationConfigSuccessResponse = Schema.Schema.Type<
  typeof SetTaskPushNotificationConfigSuccessResponse
>
/** Response to `tasks/pushNotificationConfig/set`. */
export const SetTaskPushNotificationConfigResponse = either(
  SetTaskPushNotificationConfigSuccessResponse,
  "SetTaskPushNotificationConfigResponse"
)
/** @see SetTaskPushNotificationConfigResponse */
export type SetTaskPushNotificationConfigResponse = Schema.Schema.Type<typeof SetTaskPushNotificationConfigResponse>

/** Success of `tasks/pushNotificationConfig/get`. */
export const GetTaskPushNotificationConfigSuccessResponse = success(
  TaskPushNotificationConfig,
  "GetTaskPushNotificationConfigSuccessResponse"
)
/** @see GetTaskPushNotificationConfigSuccessResponse */
export type GetTaskPushNotificationConfigSuccessResponse = Schema.Schema.Type<
  typeof GetTaskPushNotificationConfigSuccessResponse
>
/** Response to `tasks/pushNotificationConfig/get`. */
export const GetTaskPushNotificationConfigResponse = either(
  GetTaskPushNotificationConfigSuccessResponse,
  "GetTaskPushNotificationConfigResponse"
)
/** @see GetTaskPushNotificationConfigResponse */
export type GetTaskPushNotificationConfigResponse = Schema.Schema.Type<typeof GetTaskPushNotificationConfigResponse>

/** Success of `tasks/pushNotificationConfig/list`. */
export const ListTaskPushNotificationConfigSuccessResponse = success(
  Schema.Array(TaskPushNotificationConfig),
  "ListTaskPushNotificationConfigSuccessResponse"
)
/** @see ListTaskPushNotificationConfigSuccessResponse */
export type ListTaskPushNotificationConfigSuccessResponse = Schema.Schema.Type<
  typeof ListTaskPushNotificationConfigSuccessResponse
>
/** Response to `tasks/pushNotificationConfig/list`. */
export const ListTaskPushNotificationConfigResponse = either(
  ListTaskPushNotificationConfigSuccessResponse,
  "ListTaskPushNotificationConfigResponse"
)
/** @see ListTaskPushNotificationConfigResponse */
export type ListTaskPushNotificationConfigResponse = Schema.Schema.Type<typeof ListTaskPushNotificationConfigResponse>

/** Success of `tasks/pushNotificationConfig/delete`: `result` is null. */
export const DeleteTaskPushNotificationConfigSuccessResponse = success(
  Schema.Null,
  "DeleteTaskPushNotificationConfigSuccessResponse"
)
/** @see DeleteTaskPushNotificationConfigSuccessResponse */
export type DeleteTaskPushNotificationConfigSuccessResponse = Schema.Schema.Type<
  typeof DeleteTaskPushNotificationConfigSuccessResponse
>
/** Response to `tasks/pushNotificationConfig/delete`. */
export const DeleteTaskPushNotificationConfigResponse = either(
  DeleteTaskPushNotificationConfigSuccessResponse,
  "DeleteTaskPushNotificationConfigResponse"
)
/** @see DeleteTaskPushNotificationConfigResponse */
export type DeleteTaskPushNotificationConfigResponse = Schema.Schema.Type<
  typeof DeleteTaskPushNotificationConfigResponse
>

/** Success of `agent/getAuthenticatedExtendedCard`. */
export const GetAuthenticatedExtendedCardSuccessResponse = success(
  AgentCard,
  "GetAuthenticatedExtendedCardSuccessResponse"
)
/** @see GetAuthenticatedExtendedCardSuccessResponse */
export type GetAuthenticatedExtendedCardSuccessResponse = Schema.Schema.Type<
  typeof GetAuthenticatedExtendedCardSuccessResponse
>
/** Response to `agent/getAuthenticatedExtendedCard`. */
export const GetAuthenticatedExtendedCardResponse = either(
  GetAuthenticatedExtendedCardSuccessResponse,
  "GetAuthenticatedExtendedCardResponse"
)
/** @see GetAuthenticatedExtendedCardResponse */
export type GetAuthenticatedExtendedCardResponse = Schema.Schema.Type<typeof GetAuthenticatedExtendedCardResponse>

/** Any A2A response. Success members overlap (a Task result fits several); decoding takes the first match. */
export const JSONRPCResponse = Schema.Union([JSONRPCErrorResponse,
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
