import { assign, emit, setup } from "xstate"
import type { Message, TaskArtifactUpdateEvent, TaskStatus, TaskStatusUpdateEvent } from "../schemas/index.ts"
import { add, emptySet, has } from "./internal/grow-only-set.ts"
import {
  isInterrupted,
  isTerminal,
  type LifecycleState,
  type Metadata,
  type RefusalReason,
  type StatusChange,
  type TaskEffect,
  type TaskEvent,
  type TaskMachineContext,
  type TaskMachineInput
} from "./task-types.ts"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** The message as recorded: it carries this task's ids, as peers expect of history entries. */
const ownMessage = (context: TaskMachineContext, message: Message): Message =>
  message.taskId === context.id && message.contextId === context.contextId
    ? message
    : { ...message, taskId: context.id, contextId: context.contextId }

const isForeign = (context: TaskMachineContext, message: Message): boolean =>
  (message.taskId !== undefined && message.taskId !== context.id) ||
  (message.contextId !== undefined && message.contextId !== context.contextId)

const messageOf = (event: TaskEvent): Message | undefined => "message" in event ? event.message : undefined

/** A status-update; `final` marks the states a stream (and a blocking send) ends in. */
const statusUpdate = (
  context: TaskMachineContext,
  status: TaskStatus,
  metadata: Metadata | undefined
): TaskStatusUpdateEvent => {
  const final = isTerminal(status.state) || isInterrupted(status.state)
  const base = { kind: "status-update", taskId: context.id, contextId: context.contextId, status, final } as const
  return metadata === undefined ? base : { ...base, metadata }
}

/** Entering `state` on a status change: its message (if any) is the status message, its time the status time. */
const entered = (context: TaskMachineContext, change: StatusChange, state: LifecycleState): TaskStatusUpdateEvent => {
  const message = change.message === undefined ? undefined : ownMessage(context, change.message)
  const status: TaskStatus = message === undefined
    ? { state, timestamp: change.timestamp }
    : { state, message, timestamp: change.timestamp }
  return statusUpdate(context, status, change.metadata)
}

/** The artifact-update of a chunk; the host keeps this same object as the chunk. */
const artifactUpdate = (
  context: TaskMachineContext,
  event: Extract<TaskEvent, { type: "artifact" }>
): TaskArtifactUpdateEvent => {
  const update: Mutable<TaskArtifactUpdateEvent> = {
    kind: "artifact-update",
    taskId: context.id,
    contextId: context.contextId,
    artifact: event.artifact
  }
  if (event.append !== undefined) update.append = event.append
  if (event.lastChunk !== undefined) update.lastChunk = event.lastChunk
  if (event.metadata !== undefined) update.metadata = event.metadata
  return update
}

const refuse = (reason: RefusalReason) => ({ actions: { type: "refuse", params: { reason } } }) as const
const enter = (state: LifecycleState) => ({ target: state, actions: { type: "enter", params: { state } } }) as const
const messageGuards = (role: "user" | "agent") => [
  { guard: role === "user" ? "notUserMessage" : "notAgentMessage", ...refuse(`not-${role}-message`) },
  { guard: "foreignMessage", ...refuse("foreign-message") }
] as const

/** Events every non-terminal state accepts. */
const anyLiveState = { fail: enter("failed"), cancel: enter("canceled"), status: enter("working") } as const

/** While submitted or working, the agent may do anything. */
const running = {
  on: {
    ...anyLiveState,
    artifact: [
      { guard: "closedArtifact", ...refuse("artifact-closed") },
      { guard: "lastChunk", actions: ["closeArtifact", "recordArtifact"] },
      { actions: "recordArtifact" }
    ],
    requestInput: enter("input-required"),
    requestAuth: enter("auth-required"),
    resume: [...messageGuards("user"), { actions: "recordUserMessage" }],
    agentMessage: [...messageGuards("agent"), { actions: "recordAgentMessage" }],
    complete: enter("completed"),
    reject: enter("rejected")
  }
} as const

/** While waiting for the client, only its answer, an out-of-band resumption, failure or cancel apply. */
const interrupted = {
  on: {
    ...anyLiveState,
    resume: [...messageGuards("user"), { target: "working", actions: ["recordUserMessage", "resumeWork"] }],
    "*": refuse("interrupted")
  }
} as const

/**
 * The A2A 0.3.0 task lifecycle as a statechart. It decides what an event may do in each state and says
 * what it does by emitting {@link TaskEffect}s; it keeps only what its guards need (the task's ids and
 * its closed artifacts), never the task's content. A refusal is a transition too: it emits `refused`
 * and changes nothing. Final states accept nothing (XState closes them); the host answers those events.
 */
export const taskMachine = setup({
  types: {
    context: {} as TaskMachineContext,
    events: {} as TaskEvent,
    input: {} as TaskMachineInput,
    emitted: {} as TaskEffect
  },
  guards: {
    closedArtifact: ({ context, event }) => event.type === "artifact" && has(context.closed, event.artifact.artifactId),
    lastChunk: ({ event }) => event.type === "artifact" && event.lastChunk === true,
    notUserMessage: ({ event }) => messageOf(event)?.role !== "user",
    notAgentMessage: ({ event }) => messageOf(event)?.role !== "agent",
    foreignMessage: ({ context, event }) => {
      const message = messageOf(event)
      return message !== undefined && isForeign(context, message)
    }
  },
  actions: {
    // The chart sends only status changes (StatusChange events) to `enter`.
    enter: emit(({ context, event }, params: { state: LifecycleState }) =>
      ({ type: "status", update: entered(context, event as StatusChange, params.state) }) as const),
    // A user's answer resumes the task: the answer joins the history, the status carries no message.
    resumeWork: emit(({ context, event }) =>
      ({ type: "status", update: statusUpdate(context, { state: "working", timestamp: (event as { timestamp: string }).timestamp }, undefined) }) as const),
    recordArtifact: emit(({ context, event }) =>
      ({ type: "artifact", update: artifactUpdate(context, event as Extract<TaskEvent, { type: "artifact" }>) }) as const),
    recordUserMessage: emit(({ context, event }) =>
      ({ type: "message", message: ownMessage(context, messageOf(event)!), streamed: false }) as const),
    recordAgentMessage: emit(({ context, event }) =>
      ({ type: "message", message: ownMessage(context, messageOf(event)!), streamed: true }) as const),
    closeArtifact: assign({
      closed: ({ context, event }) => event.type === "artifact" ? add(context.closed, event.artifact.artifactId) : context.closed
    }),
    refuse: emit((_, params: { reason: RefusalReason }) => ({ type: "refused", reason: params.reason }) as const)
  }
}).createMachine({
  id: "a2a-task",
  initial: "submitted",
  context: ({ input }) => ({ id: input.id, contextId: input.contextId, closed: emptySet<string>() }),
  on: { "*": refuse("unsupported") },
  states: {
    submitted: running,
    working: running,
    "input-required": interrupted,
    "auth-required": interrupted,
    completed: { type: "final" },
    canceled: { type: "final" },
    failed: { type: "final" },
    rejected: { type: "final" }
  }
})
