/**
 * The enums of A2A 1.0 (`lf.a2a.v1`) in their ProtoJSON form, and how they map to the runtime's model.
 *
 * ProtoJSON writes an enum by its full name (`TASK_STATE_COMPLETED`); parsers also accept its number. Both
 * are read; names are written. The unspecified values (number 0) are never written and never accepted
 * where a value is required.
 *
 * @module
 */
import { Schema } from "effect"
import type { TaskState as ModelTaskState } from "../task.ts"

/** Every 1.0 task state, in the proto's order (numbers 0..8). */
export const taskStateNames = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED"
] as const

/** `lf.a2a.v1.TaskState` by name. */
export const TaskState: Schema.Literals<typeof taskStateNames> = Schema.Literals(taskStateNames).annotate({ identifier: "TaskState" })
/** @see TaskState */
export type TaskState = Schema.Schema.Type<typeof TaskState>

/** Every 1.0 role, in the proto's order (numbers 0..2). */
export const roleNames = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] as const

/** `lf.a2a.v1.Role` by name. */
export const Role: Schema.Literals<typeof roleNames> = Schema.Literals(roleNames).annotate({ identifier: "Role" })
/** @see Role */
export type Role = Schema.Schema.Type<typeof Role>

const modelStates: ReadonlyArray<readonly [ModelTaskState, TaskState]> = [
  ["unknown", "TASK_STATE_UNSPECIFIED"],
  ["submitted", "TASK_STATE_SUBMITTED"],
  ["working", "TASK_STATE_WORKING"],
  ["completed", "TASK_STATE_COMPLETED"],
  ["failed", "TASK_STATE_FAILED"],
  ["canceled", "TASK_STATE_CANCELED"],
  ["input-required", "TASK_STATE_INPUT_REQUIRED"],
  ["rejected", "TASK_STATE_REJECTED"],
  ["auth-required", "TASK_STATE_AUTH_REQUIRED"]
]
const toV1 = new Map<ModelTaskState, TaskState>(modelStates)
const fromV1 = new Map<TaskState, ModelTaskState>(modelStates.map(([m, v]) => [v, m]))

/** The 1.0 name of a task state of the model. */
export const toV1State = (state: ModelTaskState): TaskState => toV1.get(state) ?? "TASK_STATE_UNSPECIFIED"

/** The model's task state of a 1.0 name. */
export const fromV1State = (state: TaskState): ModelTaskState => fromV1.get(state) ?? "unknown"

/** The 1.0 name of a role of the model. */
export const toV1Role = (role: "user" | "agent"): Role => (role === "user" ? "ROLE_USER" : "ROLE_AGENT")

/** Enum fields as ProtoJSON parsers read them: a name, or its number. */
export const enumNames: { readonly [field: string]: ReadonlyArray<string> } = {
  state: taskStateNames,
  status: taskStateNames,
  role: roleNames
}
