import { Schema } from "effect"
import { optional } from "./internal/common.ts"
import { HistoryLength } from "./params.ts"
import { Task, TaskState } from "./task.ts"

/**
 * What a client asks `ListTasks` (an A2A 1.0 operation; 0.3 has none) for, in the model's words: the task
 * state as the model spells it (`"working"`), `historyLength` as everywhere in the model (absent or 0: the
 * whole history; n > 0: the last n messages). Every filter is optional; `pageToken` is the previous page's
 * `nextPageToken`.
 */
export const ListTasksParams: Schema.Struct<{
  readonly contextId: Schema.optionalKey<Schema.String>
  readonly status: Schema.optionalKey<typeof TaskState>
  readonly pageSize: Schema.optionalKey<Schema.Int>
  readonly pageToken: Schema.optionalKey<Schema.String>
  readonly historyLength: Schema.optionalKey<Schema.Int>
  readonly statusTimestampAfter: Schema.optionalKey<Schema.String>
  readonly includeArtifacts: Schema.optionalKey<Schema.Boolean>
}> = Schema.Struct({
  contextId: optional(Schema.String),
  status: optional(TaskState),
  pageSize: optional(Schema.Int),
  pageToken: optional(Schema.String),
  historyLength: optional(HistoryLength),
  /** ISO 8601: only tasks whose status changed at or after this time. */
  statusTimestampAfter: optional(Schema.String),
  includeArtifacts: optional(Schema.Boolean)
}).annotate({ identifier: "ListTasksParams" })
/** @see ListTasksParams */
export type ListTasksParams = Schema.Schema.Type<typeof ListTasksParams>

/**
 * One page of `ListTasks`: the caller's tasks, newest status first; `nextPageToken` is `""` on the last
 * page; `totalSize` counts every task that matches the filters.
 */
export const ListTasksResult: Schema.Struct<{
  readonly tasks: Schema.$Array<typeof Task>
  readonly nextPageToken: Schema.String
  readonly pageSize: Schema.Int
  readonly totalSize: Schema.Int
}> = Schema.Struct({
  tasks: Schema.Array(Task),
  nextPageToken: Schema.String,
  pageSize: Schema.Int,
  totalSize: Schema.Int
}).annotate({ identifier: "ListTasksResult" })
/** @see ListTasksResult */
export type ListTasksResult = Schema.Schema.Type<typeof ListTasksResult>
