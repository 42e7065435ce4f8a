import { createActor, type Actor, type Snapshot, type SnapshotFrom } from "xstate"
import type { Task } from "../schemas/index.ts"
import { addChunk, artifactsFrom, emptyArtifacts, toArtifacts } from "./artifacts.ts"
import { append, logFrom, toArray } from "./internal/append-log.ts"
import { taskMachine } from "./task-machine.ts"
import {
  isTerminal,
  type LifecycleState,
  type RefusalReason,
  type TaskData,
  type TaskEffect,
  type TaskEvent,
  type TaskInput,
  type TaskMachineInput,
  type TaskStreamEvent,
  type TransitionRefused
} from "./task-types.ts"

export * from "./task-types.ts"
export { taskMachine } from "./task-machine.ts"

/** A task's lifecycle actor (see {@link taskMachine}). */
export type TaskActor = Actor<typeof taskMachine>

/** A task's actor and the snapshot it reported after one step: the actor is still at that step while they match. */
export interface TaskActorAt {
  readonly actor: TaskActor
  readonly machine: SnapshotFrom<typeof taskMachine>
}

/**
 * A task between two events: the state its actor is in and the data the actor's effects built. It is a
 * value: it never changes, and stepping it again (an older snapshot, a branch) continues from its state.
 */
export interface TaskSnapshot {
  /** The lifecycle state, as the actor reports it (`submitted`, the machine's initial state, before any event). */
  readonly state: LifecycleState
  /** What the task accumulated; read it as a wire Task with {@link taskOf}. */
  readonly data: TaskData
  /**
   * The task's actor, shared by the snapshots of one line of events. It starts with the task's first
   * event: a task answered with a message (the agent's reply) never needs one.
   */
  readonly lifecycle: TaskActorAt | undefined
}

/** The outcome of one event: accepted with the next snapshot and its stream events, or refused. */
export type StepResult =
  | { readonly accepted: true; readonly snapshot: TaskSnapshot; readonly emitted: ReadonlyArray<TaskStreamEvent> }
  | { readonly accepted: false; readonly refusal: TransitionRefused }

const explain = (from: LifecycleState, event: string, reason: RefusalReason): string => {
  switch (reason) {
    case "terminal": return `task is ${from}: a terminal task accepts no '${event}'`
    case "interrupted": return `task is ${from}: '${event}' needs the task to be resumed first`
    case "unsupported": return `'${event}' is not a task event`
    case "artifact-closed": return "artifact was closed by an earlier lastChunk"
    case "not-user-message": return "resume needs a message with role 'user'"
    case "not-agent-message": return "agentMessage needs a message with role 'agent'"
    case "foreign-message": return "message belongs to another task or context"
  }
}

const refused = (from: LifecycleState, event: string, reason: RefusalReason): StepResult =>
  ({ accepted: false, refusal: { _tag: "TransitionRefused", from, event, reason, message: explain(from, event, reason) } })

/** Effects the actor being sent to emits. `send` is synchronous, so one sink serves every actor. */
let sink: Array<TaskEffect> = []
const collect = (effect: TaskEffect) => {
  sink.push(effect)
}
const ignore = () => {}

/**
 * A started actor of the machine for a task with these ids (at `snapshot`, when given, as XState restores
 * persisted actors), its effects going to the sink.
 */
const spawn = (ids: TaskMachineInput, snapshot?: Snapshot<unknown>): TaskActor => {
  const input: TaskMachineInput = { id: ids.id, contextId: ids.contextId }
  const actor = createActor(taskMachine, snapshot === undefined ? { input } : { input, snapshot })
  actor.on("*", collect)
  // With an error observer, a fault in the chart stays on the actor (and `send` throws it) instead of being
  // rethrown by XState on a timer.
  actor.subscribe({ error: ignore })
  return actor.start()
}

/** Sends one event and returns what the actor emitted for it. */
const send = (actor: TaskActor, event: TaskEvent): ReadonlyArray<TaskEffect> => {
  sink = []
  actor.send(event)
  const effects = sink
  const after = actor.getSnapshot()
  if (after.status === "error") throw after.error
  return effects
}

/**
 * The actor to step `snapshot` with: its own while the actor is still where `snapshot` left it (always, for
 * a host that keeps only its newest snapshot), else a new one restored from the machine snapshot it kept;
 * for a new task, its first actor.
 */
const actorAt = (snapshot: TaskSnapshot): TaskActor => {
  const at = snapshot.lifecycle
  if (at === undefined) {
    const actor = spawn(snapshot.data)
    if (actor.getSnapshot().value !== snapshot.state) throw new Error(`the task machine does not start in '${snapshot.state}'`)
    return actor
  }
  return at.actor.getSnapshot() === at.machine ? at.actor : spawn(snapshot.data, taskMachine.getPersistedSnapshot(at.machine))
}

const snapshotOf = (actor: TaskActor, data: TaskData): TaskSnapshot => {
  const machine = actor.getSnapshot()
  return { state: machine.value, data, lifecycle: { actor, machine } }
}

/** The snapshot of a new task: `submitted`, with the first user message (carrying the task's ids) in its history. */
export const start = (input: TaskInput): TaskSnapshot => {
  const { contextId, id } = input
  const data: TaskData = {
    id,
    contextId,
    status: { state: "submitted", timestamp: input.timestamp },
    history: logFrom([{ ...input.message, taskId: id, contextId }]),
    artifacts: emptyArtifacts(),
    metadata: input.metadata
  }
  return { state: "submitted", data, lifecycle: undefined }
}

/** The status change that takes a new task into each state; {@link restore} replays it. */
const entering = {
  working: "status",
  "input-required": "requestInput",
  "auth-required": "requestAuth",
  completed: "complete",
  canceled: "cancel",
  failed: "fail",
  rejected: "reject"
} as const satisfies Record<Exclude<LifecycleState, "submitted">, TaskEvent["type"]>

/**
 * The snapshot of a stored Task, to continue it (e.g. in another process). Returns undefined for the
 * wire-only state `unknown`. The actor reaches the task's state by the chart's own way there (its
 * effects are dropped: the stored Task already holds them). Artifacts come back open: closing is not
 * recorded on the wire Task.
 */
export const restore = (task: Task): TaskSnapshot | undefined => {
  const state = task.status.state
  if (state === "unknown") return undefined
  const data: TaskData = {
    id: task.id,
    contextId: task.contextId,
    status: task.status,
    history: logFrom(task.history ?? []),
    artifacts: artifactsFrom(task.artifacts ?? []),
    metadata: task.metadata
  }
  if (state === "submitted") return { state, data, lifecycle: undefined }
  const actor = spawn(data)
  send(actor, { type: entering[state], timestamp: task.status.timestamp ?? "" })
  const restored = snapshotOf(actor, data)
  if (restored.state !== state) throw new Error(`the task machine does not reach '${state}' by '${entering[state]}'`)
  return restored
}

/**
 * Applies one event: the task's actor decides, the effects it emits update the data. `snapshot` is left as
 * it was. On refusal the host keeps its snapshot and maps the refusal to a protocol error (e.g. `terminal`
 * on cancel is -32002).
 *
 * @example
 * const r = step(snapshot, { type: "complete", timestamp: new Date().toISOString() })
 * if (r.accepted) { snapshot = r.snapshot; for (const e of r.emitted) log.append(e) }
 */
export const step = (snapshot: TaskSnapshot, event: TaskEvent): StepResult => {
  // XState closes a machine in a final state to every event; we answer that with a refusal.
  if (isTerminal(snapshot.state)) return refused(snapshot.state, event.type, "terminal")
  const actor = actorAt(snapshot)
  const effects = send(actor, event)
  const first = effects[0]
  if (first?.type === "refused") return refused(snapshot.state, event.type, first.reason)
  const emitted: Array<TaskStreamEvent> = []
  let data = snapshot.data
  for (const effect of effects) data = apply(data, effect, emitted)
  return { accepted: true, snapshot: snapshotOf(actor, data), emitted }
}

/** One effect on the data; the stream events it makes go to `emitted`. */
const apply = (data: TaskData, effect: TaskEffect, emitted: Array<TaskStreamEvent>): TaskData => {
  switch (effect.type) {
    case "status": {
      const status = effect.update.status
      emitted.push(effect.update)
      return withData(data, status, status.message === undefined ? data.history : append(data.history, status.message), data.artifacts)
    }
    case "artifact":
      emitted.push(effect.update)
      return withData(data, data.status, data.history, addChunk(data.artifacts, effect.update))
    case "message":
      if (effect.streamed) emitted.push(effect.message)
      return withData(data, data.status, append(data.history, effect.message), data.artifacts)
    case "refused":
      return data
  }
}

const withData = (
  data: TaskData,
  status: TaskData["status"],
  history: TaskData["history"],
  artifacts: TaskData["artifacts"]
): TaskData => ({ id: data.id, contextId: data.contextId, status, history, artifacts, metadata: data.metadata })

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const tasks = new WeakMap<TaskData, Task>()

/**
 * The wire Task of a snapshot (merged artifacts, full history), built once per snapshot's data. It costs
 * O(history + artifact chunks), so hosts call it when they need a Task (first stream event, get,
 * interrupted or terminal state), not after every chunk. `history` and `artifacts` are omitted when empty.
 */
export const taskOf = (snapshot: TaskSnapshot): Task => {
  const data = snapshot.data
  const cached = tasks.get(data)
  if (cached !== undefined) return cached
  const task: Mutable<Task> = { kind: "task", id: data.id, contextId: data.contextId, status: data.status }
  if (data.history.length !== 0) task.history = toArray(data.history)
  if (data.artifacts.chunks.length !== 0) task.artifacts = toArtifacts(data.artifacts)
  if (data.metadata !== undefined) task.metadata = data.metadata
  tasks.set(data, task)
  return task
}
