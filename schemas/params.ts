import { Schema } from "effect"
import { Identifier, metadataField, optional } from "./internal/common.ts"
import { Message } from "./message.ts"
import { PushNotificationConfig } from "./push.ts"

/**
 * How many history messages to return: absent or 0 means all, n > 0 the last n. Negative or fractional
 * values are invalid params (CONFORMANCE.md); upstream only says "integer" (stricter than upstream).
 */
export const HistoryLength: Schema.Int = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({ identifier: "HistoryLength" })

/** Options of `message/send` and `message/stream`. `blocking` defaults to true (applied by the runtime). */
export const MessageSendConfiguration: Schema.Struct<{
  readonly acceptedOutputModes: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly historyLength: Schema.optionalKey<Schema.Int>
  readonly pushNotificationConfig: Schema.optionalKey<typeof PushNotificationConfig>
  readonly blocking: Schema.optionalKey<Schema.Boolean>
}> = Schema.Struct({
  acceptedOutputModes: optional(Schema.Array(Schema.String)),
  historyLength: optional(HistoryLength),
  pushNotificationConfig: optional(PushNotificationConfig),
  blocking: optional(Schema.Boolean)
}).annotate({ identifier: "MessageSendConfiguration" })
/** @see MessageSendConfiguration */
export type MessageSendConfiguration = Schema.Schema.Type<typeof MessageSendConfiguration>

/** Params of `message/send` and `message/stream`. */
export const MessageSendParams: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly message: typeof Message
  readonly configuration: Schema.optionalKey<typeof MessageSendConfiguration>
}> = Schema.Struct({
  message: Message,
  configuration: optional(MessageSendConfiguration),
  ...metadataField
}).annotate({ identifier: "MessageSendParams" })
/** @see MessageSendParams */
export type MessageSendParams = Schema.Schema.Type<typeof MessageSendParams>

/** Params of `tasks/get`; the id is at most 256 characters long (stricter than upstream, as every id here). */
export const TaskQueryParams: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly id: Schema.String
  readonly historyLength: Schema.optionalKey<Schema.Int>
}> = Schema.Struct({
  id: Identifier,
  historyLength: optional(HistoryLength),
  ...metadataField
}).annotate({ identifier: "TaskQueryParams" })
/** @see TaskQueryParams */
export type TaskQueryParams = Schema.Schema.Type<typeof TaskQueryParams>

/** Params naming a task: `tasks/cancel`, `tasks/resubscribe`. */
export const TaskIdParams: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly id: Schema.String
}> = Schema.Struct({
  id: Identifier,
  ...metadataField
}).annotate({ identifier: "TaskIdParams" })
/** @see TaskIdParams */
export type TaskIdParams = Schema.Schema.Type<typeof TaskIdParams>
