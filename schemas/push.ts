import { Schema } from "effect"
import { Identifier, metadataField, optional, WebhookUrl } from "./internal/common.ts"

/** How the agent authenticates to the client's webhook: scheme names (e.g. "Bearer") and optional credentials. */
export const PushNotificationAuthenticationInfo: Schema.Struct<{
  readonly schemes: Schema.$Array<Schema.String>
  readonly credentials: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  schemes: Schema.Array(Schema.String),
  credentials: optional(Schema.String)
}).annotate({ identifier: "PushNotificationAuthenticationInfo" })
/** @see PushNotificationAuthenticationInfo */
export type PushNotificationAuthenticationInfo = Schema.Schema.Type<typeof PushNotificationAuthenticationInfo>

/**
 * A webhook to notify of task updates. `url` is a string of at most 2 KiB here, and the id at most 256
 * characters (both stricter than upstream); the push module checks the URL (scheme, address ranges) before
 * use, since that check needs more than a shape.
 */
export const PushNotificationConfig: Schema.Struct<{
  readonly url: Schema.String
  readonly id: Schema.optionalKey<Schema.String>
  readonly token: Schema.optionalKey<Schema.String>
  readonly authentication: Schema.optionalKey<typeof PushNotificationAuthenticationInfo>
}> = Schema.Struct({
  url: WebhookUrl,
  id: optional(Identifier),
  token: optional(Schema.String),
  authentication: optional(PushNotificationAuthenticationInfo)
}).annotate({ identifier: "PushNotificationConfig" })
/** @see PushNotificationConfig */
export type PushNotificationConfig = Schema.Schema.Type<typeof PushNotificationConfig>

/** A push config bound to a task: params and result of `tasks/pushNotificationConfig/set`. */
export const TaskPushNotificationConfig: Schema.Struct<{
  readonly taskId: Schema.String
  readonly pushNotificationConfig: typeof PushNotificationConfig
}> = Schema.Struct({
  taskId: Identifier,
  pushNotificationConfig: PushNotificationConfig
}).annotate({ identifier: "TaskPushNotificationConfig" })
/** @see TaskPushNotificationConfig */
export type TaskPushNotificationConfig = Schema.Schema.Type<typeof TaskPushNotificationConfig>

/** Params of `tasks/pushNotificationConfig/get`; without a config id the task's default config is meant. */
export const GetTaskPushNotificationConfigParams: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly id: Schema.String
  readonly pushNotificationConfigId: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  id: Identifier,
  pushNotificationConfigId: optional(Identifier),
  ...metadataField
}).annotate({ identifier: "GetTaskPushNotificationConfigParams" })
/** @see GetTaskPushNotificationConfigParams */
export type GetTaskPushNotificationConfigParams = Schema.Schema.Type<typeof GetTaskPushNotificationConfigParams>

/** Params of `tasks/pushNotificationConfig/list`. */
export const ListTaskPushNotificationConfigParams: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly id: Schema.String
}> = Schema.Struct({
  id: Identifier,
  ...metadataField
}).annotate({ identifier: "ListTaskPushNotificationConfigParams" })
/** @see ListTaskPushNotificationConfigParams */
export type ListTaskPushNotificationConfigParams = Schema.Schema.Type<typeof ListTaskPushNotificationConfigParams>

/** Params of `tasks/pushNotificationConfig/delete`. */
export const DeleteTaskPushNotificationConfigParams: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly id: Schema.String
  readonly pushNotificationConfigId: Schema.String
}> = Schema.Struct({
  id: Identifier,
  pushNotificationConfigId: Identifier,
  ...metadataField
}).annotate({ identifier: "DeleteTaskPushNotificationConfigParams" })
/** @see DeleteTaskPushNotificationConfigParams */
export type DeleteTaskPushNotificationConfigParams = Schema.Schema.Type<typeof DeleteTaskPushNotificationConfigParams>
