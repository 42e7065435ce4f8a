import { Schema } from "effect"
import { metadataField, optional } from "./internal/common.ts"
import { Message } from "./message.ts"
import { Part } from "./parts.ts"

/** A task's lifecycle state; any other string is invalid. */
export const TaskState: Schema.Literals<
  readonly [
    "submitted",
    "working",
    "input-required",
    "completed",
    "canceled",
    "failed",
    "rejected",
    "auth-required",
    "unknown"
  ]
> = Schema.Literals([
  "submitted",
  "working",
  "input-required",
  "completed",
  "canceled",
  "failed",
  "rejected",
  "auth-required",
  "unknown"
]).annotate({ identifier: "TaskState" })
/** @see TaskState */
export type TaskState = Schema.Schema.Type<typeof TaskState>

/** The current state of a task, with an optional agent message and ISO 8601 timestamp. */
export const TaskStatus: Schema.Struct<{
  readonly state: typeof TaskState
  readonly message: Schema.optionalKey<typeof Message>
  readonly timestamp: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  state: TaskState,
  message: optional(Message),
  timestamp: optional(Schema.String)
}).annotate({ identifier: "TaskStatus" })
/** @see TaskStatus */
export type TaskStatus = Schema.Schema.Type<typeof TaskStatus>

/** An output of a task, made of parts. */
export const Artifact: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly artifactId: Schema.String
  readonly name: Schema.optionalKey<Schema.String>
  readonly description: Schema.optionalKey<Schema.String>
  readonly parts: Schema.$Array<typeof Part>
  readonly extensions: Schema.optionalKey<Schema.$Array<Schema.String>>
}> = Schema.Struct({
  artifactId: Schema.String,
  name: optional(Schema.String),
  description: optional(Schema.String),
  parts: Schema.Array(Part),
  extensions: optional(Schema.Array(Schema.String)),
  ...metadataField
}).annotate({ identifier: "Artifact" })
/** @see Artifact */
export type Artifact = Schema.Schema.Type<typeof Artifact>

/** A stateful unit of work. */
export const Task: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly kind: Schema.Literal<"task">
  readonly id: Schema.String
  readonly contextId: Schema.String
  readonly status: typeof TaskStatus
  readonly history: Schema.optionalKey<Schema.$Array<typeof Message>>
  readonly artifacts: Schema.optionalKey<Schema.$Array<typeof Artifact>>
}> = Schema.Struct({
  kind: Schema.Literal("task"),
  id: Schema.String,
  contextId: Schema.String,
  status: TaskStatus,
  history: optional(Schema.Array(Message)),
  artifacts: optional(Schema.Array(Artifact)),
  ...metadataField
}).annotate({ identifier: "Task" })
/** @see Task */
export type Task = Schema.Schema.Type<typeof Task>
