import type {
  Artifact,
  Message,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent
} from "../schemas/index.ts"
import type { ArtifactTable } from "./artifacts.ts"
import type { AppendLog } from "./internal/append-log.ts"
import type { GrowOnlySet } from "./internal/grow-only-set.ts"

/** The states a task can be in; the wire's `unknown` is never entered by a running task. */
export type LifecycleState = Exclude<TaskState, "unknown">

/** Extension data on tasks and events. */
export type Metadata = NonNullable<Task["metadata"]>

/** Fields of every event that changes the task's status. `timestamp` is ISO 8601 from the host's clock. */
export interface StatusChange {
  readonly timestamp: string
  /** Agent message shown in `status.message`; it is also appended to the history. */
  readonly message?: Message
  /** Copied onto the emitted status-update event. */
  readonly metadata?: Metadata
}

/**
 * What the host tells a task. Agent-side: `status` (working, e.g. progress), `artifact`, `requestInput`,
 * `requestAuth`, `agentMessage`, `complete`, `fail`, `reject`. Client-side: `resume` (a user message with
 * this task's id) and `cancel`.
 */
export type TaskEvent =
  | ({ readonly type: "status" } & StatusChange)
  | {
    readonly type: "artifact"
    readonly artifact: Artifact
    readonly append?: boolean
    readonly lastChunk?: boolean
    readonly metadata?: Metadata
  }
  | ({ readonly type: "requestInput" } & StatusChange)
  | ({ readonly type: "requestAuth" } & StatusChange)
  | { readonly type: "resume"; readonly timestamp: string; readonly message: Message }
  | { readonly type: "agentMessage"; readonly message: Message }
  | ({ readonly type: "complete" } & StatusChange)
  | ({ readonly type: "fail" } & StatusChange)
  | ({ readonly type: "reject" } & StatusChange)
  | ({ readonly type: "cancel" } & StatusChange)

/** A stream event produced by an accepted transition, ready for the task's event log. */
export type TaskStreamEvent = TaskStatusUpdateEvent | TaskArtifactUpdateEvent | Message

/** Why the machine refused an event. */
export type RefusalReason =
  | "terminal" // the task is completed, canceled, failed or rejected
  | "interrupted" // the task waits for input or auth: only resume, status, fail and cancel apply
  | "unsupported" // an event type the machine does not know
  | "artifact-closed" // a chunk for an artifact already closed by lastChunk
  | "not-user-message" // resume with a message whose role is not user
  | "not-agent-message" // agentMessage with a message whose role is not agent
  | "foreign-message" // the message names another task or context

/** The machine's answer to an event it does not accept in its current state. */
export interface TransitionRefused {
  readonly _tag: "TransitionRefused"
  readonly from: LifecycleState
  readonly event: string
  readonly reason: RefusalReason
  readonly message: string
}

/**
 * The machine's context: only what its guards read. A task's accumulated data (history, artifact chunks)
 * lives with the host in {@link TaskData}, so a transition copies three fields however long the task runs,
 * and persisting or restoring the actor never walks the task's content.
 */
export interface TaskMachineContext {
  readonly id: string
  readonly contextId: string
  /** Artifacts closed by a `lastChunk`: the machine refuses further chunks for them. */
  readonly closed: GrowOnlySet<string>
}

/** What the machine starts from: the task's ids (its guards check that messages name them). */
export interface TaskMachineInput {
  readonly id: string
  readonly contextId: string
}

/**
 * What an accepted event does, as the machine emits it (XState `emit`); the host applies it to the task's
 * {@link TaskData} and appends the streamed ones to the task's event log. An event the machine does not
 * accept in its state emits exactly one `refused` and nothing else.
 */
export type TaskEffect =
  /** The status changes (or is restated, as progress): its message, if any, joins the history. Streamed. */
  | { readonly type: "status"; readonly update: TaskStatusUpdateEvent }
  /** An artifact chunk joins the artifacts. Streamed. */
  | { readonly type: "artifact"; readonly update: TaskArtifactUpdateEvent }
  /** A message joins the history: an agent's is streamed, a user's is not (its sender has it). */
  | { readonly type: "message"; readonly message: Message; readonly streamed: boolean }
  /** The event does not apply in this state; nothing changes. */
  | { readonly type: "refused"; readonly reason: RefusalReason }

/**
 * A task as its host accumulates it from the machine's effects. History and artifacts are persistent
 * append logs (see `internal/append-log.ts`), so an event costs O(1) however long the task runs; read
 * the wire Task with `taskOf`.
 */
export interface TaskData {
  readonly id: string
  readonly contextId: string
  readonly status: TaskStatus
  readonly history: AppendLog<Message>
  readonly artifacts: ArtifactTable
  readonly metadata: Metadata | undefined
}

/** Input for a new task: the server-generated ids and the first user message. */
export interface TaskInput {
  readonly id: string
  readonly contextId: string
  readonly message: Message
  readonly timestamp: string
  readonly metadata?: Metadata
}

/** Terminal states: nothing leaves them. */
export const isTerminal = (state: TaskState): boolean =>
  state === "completed" || state === "canceled" || state === "failed" || state === "rejected"

/** Interrupted states: the task waits for the client; streams and blocking sends end here. */
export const isInterrupted = (state: TaskState): boolean => state === "input-required" || state === "auth-required"
