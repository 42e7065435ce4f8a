import { Schema } from "effect"
import { JsonObject, optional } from "../internal/common.ts"
import { TaskState } from "./enums.ts"
import { Message } from "./message.ts"
import { Part } from "./parts.ts"

/** A `google.protobuf.Timestamp` in ProtoJSON: an RFC 3339 date-time in UTC or with an offset. */
export const Timestamp: Schema.String = Schema.String.check(Schema.makeFilter((s) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s))
    ? undefined
    : "expected an RFC 3339 timestamp such as 2026-01-01T00:00:00.000Z")).annotate({ identifier: "Timestamp" })

/** `lf.a2a.v1.TaskStatus`. */
export const TaskStatus: Schema.Struct<{
  readonly state: typeof TaskState
  readonly message: Schema.optionalKey<typeof Message>
  readonly timestamp: Schema.optionalKey<typeof Timestamp>
}> = Schema.Struct({
  state: TaskState,
  message: optional(Message),
  timestamp: optional(Timestamp)
}).annotate({ identifier: "TaskStatus" })
/** @see TaskStatus */
export type TaskStatus = Schema.Schema.Type<typeof TaskStatus>

/** `lf.a2a.v1.Artifact`. */
export const Artifact: Schema.Struct<{
  readonly artifactId: Schema.String
  readonly name: Schema.optionalKey<Schema.String>
  readonly description: Schema.optionalKey<Schema.String>
  readonly parts: Schema.$Array<typeof Part>
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly extensions: Schema.optionalKey<Schema.$Array<Schema.String>>
}> = Schema.Struct({
  artifactId: Schema.String,
  name: optional(Schema.String),
  description: optional(Schema.String),
  parts: Schema.Array(Part),
  metadata: optional(JsonObject),
  extensions: optional(Schema.Array(Schema.String))
}).annotate({ identifier: "Artifact" })
/** @see Artifact */
export type Artifact = Schema.Schema.Type<typeof Artifact>

/** `lf.a2a.v1.Task`. */
export const Task: Schema.Struct<{
  readonly id: Schema.String
  readonly contextId: Schema.optionalKey<Schema.String>
  readonly status: typeof TaskStatus
  readonly artifacts: Schema.optionalKey<Schema.$Array<typeof Artifact>>
  readonly history: Schema.optionalKey<Schema.$Array<typeof Message>>
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
}> = Schema.Struct({
  id: Schema.String,
  contextId: optional(Schema.String),
  status: TaskStatus,
  artifacts: optional(Schema.Array(Artifact)),
  history: optional(Schema.Array(Message)),
  metadata: optional(JsonObject)
}).annotate({ identifier: "Task" })
/** @see Task */
export type Task = Schema.Schema.Type<typeof Task>
