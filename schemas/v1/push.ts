import { Schema } from "effect"
import { Identifier, optional, WebhookUrl } from "../internal/common.ts"

/** `lf.a2a.v1.AuthenticationInfo`: one HTTP authentication scheme (e.g. `Bearer`) and its credentials. */
export const AuthenticationInfo: Schema.Struct<{
  readonly scheme: Schema.String
  readonly credentials: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  scheme: Schema.String.check(Schema.isMinLength(1, { message: "authentication.scheme is required" })),
  credentials: optional(Schema.String)
}).annotate({ identifier: "AuthenticationInfo" })
/** @see AuthenticationInfo */
export type AuthenticationInfo = Schema.Schema.Type<typeof AuthenticationInfo>

/**
 * `lf.a2a.v1.TaskPushNotificationConfig`: the flat 1.0 push config. `taskId` is absent inside a SendMessage
 * (the task does not exist yet); the URL is at most 2 KiB and the ids at most 256 characters (stricter than upstream).
 */
export const TaskPushNotificationConfig: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly id: Schema.optionalKey<Schema.String>
  readonly taskId: Schema.optionalKey<Schema.String>
  readonly url: Schema.String
  readonly token: Schema.optionalKey<Schema.String>
  readonly authentication: Schema.optionalKey<typeof AuthenticationInfo>
}> = Schema.Struct({
  tenant: optional(Schema.String),
  id: optional(Identifier),
  taskId: optional(Identifier),
  url: WebhookUrl,
  token: optional(Schema.String),
  authentication: optional(AuthenticationInfo)
}).annotate({ identifier: "TaskPushNotificationConfig" })
/** @see TaskPushNotificationConfig */
export type TaskPushNotificationConfig = Schema.Schema.Type<typeof TaskPushNotificationConfig>

/** `lf.a2a.v1.GetTaskPushNotificationConfigRequest`: `id` is the config's id, `taskId` the task's. */
export const GetTaskPushNotificationConfigRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly taskId: Schema.String
  readonly id: Schema.String
}> = Schema.Struct({
  tenant: optional(Schema.String),
  taskId: Identifier,
  id: Identifier
}).annotate({ identifier: "GetTaskPushNotificationConfigRequest" })
/** @see GetTaskPushNotificationConfigRequest */
export type GetTaskPushNotificationConfigRequest = Schema.Schema.Type<typeof GetTaskPushNotificationConfigRequest>

/** `lf.a2a.v1.DeleteTaskPushNotificationConfigRequest`. */
export const DeleteTaskPushNotificationConfigRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly taskId: Schema.String
  readonly id: Schema.String
}> = Schema.Struct({
  tenant: optional(Schema.String),
  taskId: Identifier,
  id: Identifier
}).annotate({ identifier: "DeleteTaskPushNotificationConfigRequest" })
/** @see DeleteTaskPushNotificationConfigRequest */
export type DeleteTaskPushNotificationConfigRequest = Schema.Schema.Type<typeof DeleteTaskPushNotificationConfigRequest>

/** `lf.a2a.v1.ListTaskPushNotificationConfigsRequest`; a task holds few configs, so one page holds them all. */
export const ListTaskPushNotificationConfigsRequest: Schema.Struct<{
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly taskId: Schema.String
  readonly pageSize: Schema.optionalKey<Schema.Int>
  readonly pageToken: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  tenant: optional(Schema.String),
  taskId: Identifier,
  pageSize: optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  pageToken: optional(Schema.String)
}).annotate({ identifier: "ListTaskPushNotificationConfigsRequest" })
/** @see ListTaskPushNotificationConfigsRequest */
export type ListTaskPushNotificationConfigsRequest = Schema.Schema.Type<typeof ListTaskPushNotificationConfigsRequest>

/** `lf.a2a.v1.ListTaskPushNotificationConfigsResponse`. */
export const ListTaskPushNotificationConfigsResponse: Schema.Struct<{
  readonly configs: Schema.optionalKey<Schema.$Array<typeof TaskPushNotificationConfig>>
  readonly nextPageToken: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  configs: optional(Schema.Array(TaskPushNotificationConfig)),
  nextPageToken: optional(Schema.String)
}).annotate({ identifier: "ListTaskPushNotificationConfigsResponse" })
/** @see ListTaskPushNotificationConfigsResponse */
export type ListTaskPushNotificationConfigsResponse = Schema.Schema.Type<typeof ListTaskPushNotificationConfigsResponse>
