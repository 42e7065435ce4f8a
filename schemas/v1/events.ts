import { Schema } from "effect"
import { JsonObject, optional } from "../internal/common.ts"
import { Message } from "./message.ts"
import { Artifact, Task, TaskStatus } from "./task.ts"

/** `lf.a2a.v1.TaskStatusUpdateEvent`: no `final` in 1.0, the stream's end says it. */
export const TaskStatusUpdateEvent: Schema.Struct<{
  readonly taskId: Schema.String
  readonly contextId: Schema.String
  readonly status: typeof TaskStatus
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
}> = Schema.Struct({
  taskId: Schema.String,
  contextId: Schema.String,
  status: TaskStatus,
  metadata: optional(JsonObject)
}).annotate({ identifier: "TaskStatusUpdateEvent" })
/** @see TaskStatusUpdateEvent */
export type TaskStatusUpdateEvent = Schema.Schema.Type<typeof TaskStatusUpdateEvent>

/** `lf.a2a.v1.TaskArtifactUpdateEvent`. */
export const TaskArtifactUpdateEvent: Schema.Struct<{
  readonly taskId: Schema.String
  readonly contextId: Schema.String
  readonly artifact: typeof Artifact
  readonly append: Schema.optionalKey<Schema.Boolean>
  readonly lastChunk: Schema.optionalKey<Schema.Boolean>
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
}> = Schema.Struct({
  taskId: Schema.String,
  contextId: Schema.String,
  artifact: Artifact,
  append: optional(Schema.Boolean),
  lastChunk: optional(Schema.Boolean),
  metadata: optional(JsonObject)
}).annotate({ identifier: "TaskArtifactUpdateEvent" })
/** @see TaskArtifactUpdateEvent */
export type TaskArtifactUpdateEvent = Schema.Schema.Type<typeof TaskArtifactUpdateEvent>

const oneOf = (members: ReadonlyArray<string>) =>
  Schema.makeFilter((o: object) => {
    const n = members.filter((m) => Object.hasOwn(o, m)).length
    return n === 1 ? undefined : `exactly one of ${members.join(", ")} must be set`
  })

/** `lf.a2a.v1.StreamResponse`: one stream event, wrapped by its kind. */
export const StreamResponse: Schema.Struct<{
  readonly task: Schema.optionalKey<typeof Task>
  readonly message: Schema.optionalKey<typeof Message>
  readonly statusUpdate: Schema.optionalKey<typeof TaskStatusUpdateEvent>
  readonly artifactUpdate: Schema.optionalKey<typeof TaskArtifactUpdateEvent>
}> = Schema.Struct({
  task: optional(Task),
  message: optional(Message),
  statusUpdate: optional(TaskStatusUpdateEvent),
  artifactUpdate: optional(TaskArtifactUpdateEvent)
}).check(oneOf(["task", "message", "statusUpdate", "artifactUpdate"])).annotate({ identifier: "StreamResponse" })
/** @see StreamResponse */
export type StreamResponse = Schema.Schema.Type<typeof StreamResponse>

/** `lf.a2a.v1.SendMessageResponse`: the Task, or the agent's direct Message. */
export const SendMessageResponse: Schema.Struct<{
  readonly task: Schema.optionalKey<typeof Task>
  readonly message: Schema.optionalKey<typeof Message>
}> = Schema.Struct({
  task: optional(Task),
  message: optional(Message)
}).check(oneOf(["task", "message"])).annotate({ identifier: "SendMessageResponse" })
/** @see SendMessageResponse */
export type SendMessageResponse = Schema.Schema.Type<typeof SendMessageResponse>
