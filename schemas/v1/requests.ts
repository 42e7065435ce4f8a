import { Schema } from "effect"
import { Identifier, JsonObject, optional } from "../internal/common.ts"
import { TaskState } from "./enums.ts"
import { Message } from "./message.ts"
import { TaskPushNotificationConfig } from "./push.ts"
import { Task, Timestamp } from "./task.ts"

/** A history length: 0 asks for no history, n > 0 for the last n messages (1.0 semantics, spec §3.2.4). */
export const HistoryLength: Schema.Int = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "historyLength must be a non-negative integer" }))

/** `lf.a2a.v1.SendMessageConfiguration`. `returnImmediately` (default false) replaces 0.3's `blocking`. */
export const SendMessageConfiguration: Schema.Struct<{
  readonly acceptedOutputModes: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly taskPushNotificationConfig: Schema.optionalKey<typeof TaskPushNotificationConfig>
  readonly historyLength: Schema.optionalKey<Schema.Int>
  readonly returnImmediately: Schema.optionalKey<Schema.Boolean>
}> = Schema.Struct({
  acceptedOutputModes: optional(Schema.Array(Schema.String)),
  taskPushNotificationConfig: optional(TaskPushNotificationConfig),
  historyLength: optional(HistoryLength),
  returnImmediately: optional(Schema.Boolean)
}).annotate({ identifier: "SendMessageConfiguration" })
/** @see SendMessageConfiguration */
export type SendMessageConfiguration = Schema.Schema.Type<typeof SendMessageConfiguration>

/** `lf.a2a.v1.SendMessageRequest`: params of `SendMessage` and `SendStreamingMessage`. */
export const SendMessageRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly message: typeof Message
  readonly configuration: Schema.optionalKey<typeof SendMessageConfiguration>
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
}> = Schema.Struct({
  tenant: optional(Schema.String),
  message: Message,
  configuration: optional(SendMessageConfiguration),
  metadata: optional(JsonObject)
}).annotate({ identifier: "SendMessageRequest" })
/** @see SendMessageRequest */
export type SendMessageRequest = Schema.Schema.Type<typeof SendMessageRequest>

/** `lf.a2a.v1.GetTaskRequest`. */
export const GetTaskRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly id: Schema.String
  readonly historyLength: Schema.optionalKey<Schema.Int>
}> = Schema.Struct({
  tenant: optional(Schema.String),
  id: Identifier,
  historyLength: optional(HistoryLength)
}).annotate({ identifier: "GetTaskRequest" })
/** @see GetTaskRequest */
export type GetTaskRequest = Schema.Schema.Type<typeof GetTaskRequest>

/** The bounds of `ListTasksRequest.pageSize` (spec §3.1.4): default 50, 1 to 100. */
export const listPageSize = { default: 50, min: 1, max: 100 } as const

/** `lf.a2a.v1.ListTasksRequest`. `status` `TASK_STATE_UNSPECIFIED` (the proto default) filters nothing. */
export const ListTasksRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly contextId: Schema.optionalKey<Schema.String>
  readonly status: Schema.optionalKey<typeof TaskState>
  readonly pageSize: Schema.optionalKey<Schema.Int>
  readonly pageToken: Schema.optionalKey<Schema.String>
  readonly historyLength: Schema.optionalKey<Schema.Int>
  readonly statusTimestampAfter: Schema.optionalKey<typeof Timestamp>
  readonly includeArtifacts: Schema.optionalKey<Schema.Boolean>
}> = Schema.Struct({
  tenant: optional(Schema.String),
  contextId: optional(Schema.String),
  status: optional(TaskState),
  pageSize: optional(Schema.Int.check(Schema.isBetween({
    minimum: listPageSize.min,
    maximum: listPageSize.max
  }, { message: `pageSize must be between ${listPageSize.min} and ${listPageSize.max}` }))),
  pageToken: optional(Schema.String),
  historyLength: optional(HistoryLength),
  statusTimestampAfter: optional(Timestamp),
  includeArtifacts: optional(Schema.Boolean)
}).annotate({ identifier: "ListTasksRequest" })
/** @see ListTasksRequest */
export type ListTasksRequest = Schema.Schema.Type<typeof ListTasksRequest>

/** `lf.a2a.v1.ListTasksResponse`: every member REQUIRED, `nextPageToken` `""` on the last page. */
export const ListTasksResponse: Schema.Struct<{
  readonly tasks: Schema.$Array<typeof Task>
  readonly nextPageToken: Schema.String
  readonly pageSize: Schema.Int
  readonly totalSize: Schema.Int
}> = Schema.Struct({
  tasks: Schema.Array(Task),
  nextPageToken: Schema.String,
  pageSize: Schema.Int,
  totalSize: Schema.Int
}).annotate({ identifier: "ListTasksResponse" })
/** @see ListTasksResponse */
export type ListTasksResponse = Schema.Schema.Type<typeof ListTasksResponse>

/** `lf.a2a.v1.CancelTaskRequest`. */
export const CancelTaskRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly id: Schema.String
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
}> = Schema.Struct({
  tenant: optional(Schema.String),
  id: Identifier,
  metadata: optional(JsonObject)
}).annotate({ identifier: "CancelTaskRequest" })
/** @see CancelTaskRequest */
export type CancelTaskRequest = Schema.Schema.Type<typeof CancelTaskRequest>

/** `lf.a2a.v1.SubscribeToTaskRequest`. */
export const SubscribeToTaskRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly id: Schema.String
}> = Schema.Struct({
  tenant: optional(Schema.String),
  id: Identifier
}).annotate({ identifier: "SubscribeToTaskRequest" })
/** @see SubscribeToTaskRequest */
export type SubscribeToTaskRequest = Schema.Schema.Type<typeof SubscribeToTaskRequest>

/** `lf.a2a.v1.GetExtendedAgentCardRequest`; its params may be omitted (spec §9.4.8). */
export const GetExtendedAgentCardRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  tenant: optional(Schema.String)
}).annotate({ identifier: "GetExtendedAgentCardRequest" })
/** @see GetExtendedAgentCardRequest */
export type GetExtendedAgentCardRequest = Schema.Schema.Type<typeof GetExtendedAgentCardRequest>

/** `google.protobuf.Empty`: the result of `DeleteTaskPushNotificationConfig`. */
export const Empty: Schema.Struct<{}> = Schema.Struct({}).annotate({ identifier: "Empty" })
