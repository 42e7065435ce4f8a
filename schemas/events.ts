import { Schema } from "effect"
import { metadataField, optional } from "./internal/common.ts"
import { Message } from "./message.ts"
import { Artifact, Task, TaskStatus } from "./task.ts"

/** A change of a task's status, sent during streaming. `final` marks the last event of a stream. */
export const TaskStatusUpdateEvent: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly kind: Schema.Literal<"status-update">
  readonly taskId: Schema.String
  readonly contextId: Schema.String
  readonly status: typeof TaskStatus
  readonly final: Schema.Boolean
}> = Schema.Struct({
  kind: Schema.Literal("status-update"),
  taskId: Schema.String,
  contextId: Schema.String,
  status: TaskStatus,
  final: Schema.Boolean,
  ...metadataField
}).annotate({ identifier: "TaskStatusUpdateEvent" })
/** @see TaskStatusUpdateEvent */
export type TaskStatusUpdateEvent = Schema.Schema.Type<typeof TaskStatusUpdateEvent>

/** A new or updated artifact (or chunk of one), sent during streaming. */
export const TaskArtifactUpdateEvent: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly kind: Schema.Literal<"artifact-update">
  readonly taskId: Schema.String
  readonly contextId: Schema.String
  readonly artifact: typeof Artifact
  readonly append: Schema.optionalKey<Schema.Boolean>
  readonly lastChunk: Schema.optionalKey<Schema.Boolean>
}> = Schema.Struct({
  kind: Schema.Literal("artifact-update"),
  taskId: Schema.String,
  contextId: Schema.String,
  artifact: Artifact,
  append: optional(Schema.Boolean),
  lastChunk: optional(Schema.Boolean),
  ...metadataField
}).annotate({ identifier: "TaskArtifactUpdateEvent" })
/** @see TaskArtifactUpdateEvent */
export type TaskArtifactUpdateEvent = Schema.Schema.Type<typeof TaskArtifactUpdateEvent>

/** One event of `message/stream` or `tasks/resubscribe` (not an upstream definition name). */
export const StreamResult: Schema.Union<
  readonly [
    typeof Task,
    typeof Message,
    typeof TaskStatusUpdateEvent,
    typeof TaskArtifactUpdateEvent
  ]
> = Schema.Union([Task, Message, TaskStatusUpdateEvent, TaskArtifactUpdateEvent]).annotate({
  identifier: "StreamResult"
})
/** @see StreamResult */
export type StreamResult = Schema.Schema.Type<typeof StreamResult>

/** The result of `message/send`: a Task, or a direct Message (not an upstream definition name). */
export const SendMessageResult: Schema.Union<readonly [typeof Task, typeof Message]> = Schema.Union([Task, Message]).annotate({ identifier: "SendMessageResult" })
/** @see SendMessageResult */
export type SendMessageResult = Schema.Schema.Type<typeof SendMessageResult>
