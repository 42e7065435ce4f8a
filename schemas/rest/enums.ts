/**
 * The protobuf enum names of A2A's REST binding and their A2A JSON values.
 *
 * The 0.3.0 `.proto` spells states `TASK_STATE_*` (with the British `CANCELLED`) and roles `ROLE_*`; the
 * protobuf JSON mapping also allows an enum's number. Both are accepted on input; output uses the names.
 *
 * @module
 */
import type { TaskState } from "../task.ts"

/** A message role in the protobuf spelling. */
export type RestRole = "ROLE_USER" | "ROLE_AGENT"

/** A task state in the protobuf spelling. */
export type RestTaskState =
  | "TASK_STATE_UNSPECIFIED"
  | "TASK_STATE_SUBMITTED"
  | "TASK_STATE_WORKING"
  | "TASK_STATE_COMPLETED"
  | "TASK_STATE_FAILED"
  | "TASK_STATE_CANCELLED"
  | "TASK_STATE_INPUT_REQUIRED"
  | "TASK_STATE_REJECTED"
  | "TASK_STATE_AUTH_REQUIRED"

/** Every A2A state with its protobuf name and number (`unknown` is the proto's unspecified value). */
export const taskStates: ReadonlyArray<readonly [TaskState, RestTaskState, number]> = [
  ["unknown", "TASK_STATE_UNSPECIFIED", 0],
  ["submitted", "TASK_STATE_SUBMITTED", 1],
  ["working", "TASK_STATE_WORKING", 2],
  ["completed", "TASK_STATE_COMPLETED", 3],
  ["failed", "TASK_STATE_FAILED", 4],
  ["canceled", "TASK_STATE_CANCELLED", 5],
  ["input-required", "TASK_STATE_INPUT_REQUIRED", 6],
  ["rejected", "TASK_STATE_REJECTED", 7],
  ["auth-required", "TASK_STATE_AUTH_REQUIRED", 8]
]

const stateByName = new Map<unknown, TaskState>([
  ...taskStates.flatMap(([state, name, n]) => [[name, state], [n, state]] as const),
  // The A2A spelling of the word, in case a peer follows the JSON names into the enum.
  ["TASK_STATE_CANCELED", "canceled"]
])
const nameByState = new Map<TaskState, RestTaskState>(taskStates.map(([state, name]) => [state, name]))

/** The protobuf name of an A2A state. */
export const toRestState = (state: TaskState): RestTaskState => nameByState.get(state) ?? "TASK_STATE_UNSPECIFIED"

/**
 * The A2A state of a protobuf name or number; an A2A value, or anything unknown, is returned unchanged for
 * the schema to judge.
 */
export const fromRestState = (u: unknown): unknown => stateByName.get(u) ?? u

/** True when `u` is spelled the protobuf way (`TASK_STATE_*` or a number). */
export const isRestState = (u: unknown): boolean =>
  typeof u === "number" || (typeof u === "string" && u.startsWith("TASK_STATE_"))

/** The protobuf name of an A2A role. */
export const toRestRole = (role: "user" | "agent"): RestRole => (role === "user" ? "ROLE_USER" : "ROLE_AGENT")

/** The A2A role of a protobuf name or number; anything else is returned unchanged for the schema to judge. */
export const fromRestRole = (u: unknown): unknown => {
  if (u === "ROLE_USER" || u === 1) return "user"
  if (u === "ROLE_AGENT" || u === 2) return "agent"
  return u
}

/** True when `u` is spelled the protobuf way (`ROLE_*` or a number). */
export const isRestRole = (u: unknown): boolean =>
  typeof u === "number" || (typeof u === "string" && u.startsWith("ROLE_"))
