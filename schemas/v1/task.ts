import { Schema } from "effect"
import { JsonObject, optional } from "../internal/common.ts"
import { TaskState } from "./enums.ts"
import { Message } from "./message.ts"
import { Part } from "./parts.ts"

/** A `google.protobuf.Timestamp` in ProtoJSON: an RFC 3339 date-time in UTC or with an offset. */
export const Timestamp = Schema.String.check(Schema.makeFilter((s) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s))
    ? undefined
    : "expected an RFC 3339 timestamp such as 2026-01-01T00:00:00.000Z")).annotate({ identifier: "Timestamp" })

/** `lf.a2a.v1.TaskStatus`. */
export const TaskStatus = Schema.Struct({
  state: TaskState,
  message: optional(Message),
  timestamp: optional(Timestamp)
}).annotate({ identifier: "TaskStatus" })
/** @see TaskStatus */
export type TaskStatus = Schema.Schema.Type<typeof TaskStatus>

/** `lf.a2a.v1.Artifact`. */
export const Artifact = Schema.Struct({
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
export const Task = Schema.Struct({
  id: Schema.String,
  contextId: optional(Schema.String),
  status: TaskStatus,
  artifacts: optional(Schema.Array(Artifact)),
  history: optional(Schema.Array(Message)),
  metadata: optional(JsonObject)
}).annotate({ identifier: "Task" })
/** @see Task */
export type Task = Schema.Schema.Type<typeof Task>
