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

/** The facts about a message the chart decides on: who sent it, and whether it names another task or context. */
export interface MessageFacts {
  readonly role: Message["role"]
  /** The message carries a `taskId` or `contextId` that is not this task's. */
  readonly foreign: boolean
}

/**
 * An event as the lifecycle chart sees it: its type and the few finite facts its guards read, which the
 * host computes from its own data (the task's ids, its closed artifacts). The chart never sees content
 * (messages, parts, timestamps), so every task in the same state answers the same event the same way.
 */
export type TaskChartEvent =
  | { readonly type: "status" }
  | {
    readonly type: "artifact"
    /** An earlier chunk with `lastChunk` closed this artifact. */
    readonly closed: boolean
    /** This chunk has `lastChunk`: it closes its artifact. */
    readonly last: boolean
  }
  | { readonly type: "requestInput" }
  | { readonly type: "requestAuth" }
  | ({ readonly type: "resume" } & MessageFacts)
  | ({ readonly type: "agentMessage" } & MessageFacts)
  | { readonly type: "complete" }
  | { readonly type: "fail" }
  | { readonly type: "reject" }
  | { readonly type: "cancel" }

/**
 * What an accepted event does, as the chart emits it (XState `emit`): abstract, since the chart never
 * sees content. The host builds the stream events from the event's payload, applies them to the task's
 * {@link TaskData} and appends the streamed ones to the task's event log. An event the chart does not
 * accept in its state emits exactly one `refused` and nothing else.
 */
export type TaskEffect =
  /**
   * The task enters `state` (or restates it, as progress). The status carries the event's status message,
   * if any, which also joins the history; a `resume` has none (its message is the user's answer). Streamed.
   */
  | { readonly type: "status"; readonly state: LifecycleState }
  /** The event's artifact chunk joins the artifacts; `close`: its artifact takes no further chunks. Streamed. */
  | { readonly type: "artifact"; readonly close: boolean }
  /** The event's message joins the history: an agent's is streamed, a user's is not (its sender has it). */
  | { readonly type: "message"; readonly streamed: boolean }
  /** The event does not apply in this state; nothing changes. */
  | { readonly type: "refused"; readonly reason: RefusalReason }

/**
 * A task as its host accumulates it from the chart's effects: everything the chart does not keep (ids,
 * history, artifacts and which of them are closed). History and artifacts are persistent append logs
 * (see `internal/append-log.ts`), so an event costs O(1) however long the task runs; read the wire Task
 * with `taskOf`.
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
