/**
 * The wire objects a task's host builds when the lifecycle chart accepts an event: the chart says what
 * happens (enter a state, record the chunk, record the message), these say it in A2A terms, from the
 * event's payload and the task's ids.
 *
 * @module
 */
import type { Message, TaskArtifactUpdateEvent, TaskStatus, TaskStatusUpdateEvent } from "../schemas/index.ts"
import { isInterrupted, isTerminal, type LifecycleState, type TaskData, type TaskEvent } from "./task-types.ts"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** The task's ids, as the builders need them. */
type Ids = Pick<TaskData, "id" | "contextId">

/** Whether `message` names another task or context than this one (a message naming none is this task's). */
export const isForeign = (task: Ids, message: Message): boolean =>
  (message.taskId !== undefined && message.taskId !== task.id) ||
  (message.contextId !== undefined && message.contextId !== task.contextId)

/**
 * `message` with the task's ids. It is copied key by key, not spread: on Node 20 an object spread that
 * adds properties (`{ ...message, taskId }` for a message without one) costs some 3 µs, more than the
 * rest of a step.
 */
export const withIds = (message: Message, task: Ids): Message => {
  const copy: Record<string, unknown> = {}
  const source = message as unknown as Record<string, unknown>
  for (const key of Object.keys(source)) {
    if (key === "__proto__") Object.defineProperty(copy, key, { value: source[key], enumerable: true, writable: true, configurable: true })
    else copy[key] = source[key]
  }
  copy["taskId"] = task.id
  copy["contextId"] = task.contextId
  return copy as unknown as Message
}

/** The message as recorded: it carries this task's ids, as peers expect of history entries. */
export const ownMessage = (task: Ids, message: Message): Message =>
  message.taskId === task.id && message.contextId === task.contextId ? message : withIds(message, task)

/**
 * The status-update of entering `state` on `event`: its time is the event's, its message (if any) the
 * event's status message. A `resume` has none: its message is the user's answer, recorded in the history.
 * `final` marks the states a stream (and a blocking send) ends in.
 */
export const statusUpdate = (task: Ids, event: TaskEvent, state: LifecycleState): TaskStatusUpdateEvent => {
  if (event.type === "artifact" || event.type === "agentMessage") throw new Error(`a '${event.type}' event changes no status`)
  const message = event.type === "resume" || event.message === undefined ? undefined : ownMessage(task, event.message)
  const status: TaskStatus = message === undefined ? { state, timestamp: event.timestamp } : { state, message, timestamp: event.timestamp }
  const final = isTerminal(state) || isInterrupted(state)
  const metadata = event.type === "resume" ? undefined : event.metadata
  return metadata === undefined
    ? { kind: "status-update", taskId: task.id, contextId: task.contextId, status, final }
    : { kind: "status-update", taskId: task.id, contextId: task.contextId, status, final, metadata }
}

/** The artifact-update of a chunk event; the host keeps this same object as the chunk. */
export const artifactUpdate = (task: Ids, event: TaskEvent): TaskArtifactUpdateEvent => {
  if (event.type !== "artifact") throw new Error(`a '${event.type}' event carries no artifact`)
  const { append, artifact, lastChunk, metadata } = event
  const taskId = task.id
  const contextId = task.contextId
  // One literal per shape of a plain chunk (most of a stream): adding the flags one by one moves the
  // object through a hidden class per flag.
  if (metadata === undefined) {
    if (append === undefined) {
      return lastChunk === undefined
        ? { kind: "artifact-update", taskId, contextId, artifact }
        : { kind: "artifact-update", taskId, contextId, artifact, lastChunk }
    }
    return lastChunk === undefined
      ? { kind: "artifact-update", taskId, contextId, artifact, append }
      : { kind: "artifact-update", taskId, contextId, artifact, append, lastChunk }
  }
  const update: Mutable<TaskArtifactUpdateEvent> = { kind: "artifact-update", taskId, contextId, artifact }
  if (append !== undefined) update.append = append
  if (lastChunk !== undefined) update.lastChunk = lastChunk
  update.metadata = metadata
  return update
}

/** The message of a `resume` or `agentMessage` event, as recorded. */
export const recordedMessage = (task: Ids, event: TaskEvent): Message => {
  if (event.type !== "resume" && event.type !== "agentMessage") throw new Error(`a '${event.type}' event carries no message to record`)
  return ownMessage(task, event.message)
}
