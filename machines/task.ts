import type { SnapshotFrom } from "xstate"
import type { Task } from "../schemas/index.ts"
import { addChunk, artifactsFrom, emptyArtifacts, isClosed, toArtifacts } from "./artifacts.ts"
import { compileChart, type ChartNode } from "./internal/compile-chart.ts"
import { append, logFrom, toArray } from "./internal/append-log.ts"
import { artifactKey, messageKey, plainKey, taskChartEvents } from "./task-chart-events.ts"
import { taskMachine } from "./task-machine.ts"
import {
  type LifecycleState,
  type RefusalReason,
  type TaskData,
  type TaskEffect,
  type TaskEvent,
  type TaskInput,
  type TaskStreamEvent,
  type TransitionRefused
} from "./task-types.ts"
import { artifactUpdate, isForeign, recordedMessage, statusUpdate, withIds } from "./task-updates.ts"

export * from "./task-types.ts"
export { taskMachine } from "./task-machine.ts"
export { taskChartEvents } from "./task-chart-events.ts"

/** XState's snapshot of the task chart in one state. */
export type TaskMachineSnapshot = SnapshotFrom<typeof taskMachine>

/**
 * A task between two events: its lifecycle state and the data the chart's effects built. It is a value:
 * it never changes, and stepping it again (an older snapshot, a branch) continues from its state.
 */
export interface TaskSnapshot {
  /** The lifecycle state (`submitted`, the chart's initial state, for a new task). */
  readonly state: LifecycleState
  /** What the task accumulated; read it as a wire Task with {@link taskOf}. */
  readonly data: TaskData
  /**
   * XState's snapshot of the chart in `state`, as `initialTransition` or `transition` returned it. It
   * holds nothing of this task, so every task in the same state shares it.
   */
  readonly lifecycle: TaskMachineSnapshot
}

/** The outcome of one event: accepted with the next snapshot and its stream events, or refused. */
export type StepResult =
  | { readonly accepted: true; readonly snapshot: TaskSnapshot; readonly emitted: ReadonlyArray<TaskStreamEvent> }
  | { readonly accepted: false; readonly refusal: TransitionRefused }

/** One state of the compiled chart, with each event's answer ready to apply. */
interface Row {
  readonly state: LifecycleState
  readonly snapshot: TaskMachineSnapshot
  /** By event key; none in a final state (XState closes it to every event). */
  readonly answers: ReadonlyArray<Answer>
}

/** What an event does in a state: refused (and why), or the state it leads to and the effects to apply. */
interface Answer {
  readonly refused: RefusalReason | undefined
  readonly to: Row
  readonly effects: ReadonlyArray<TaskEffect>
}

/** The compiled chart: its initial row, and a row per state. */
interface Table {
  readonly initial: Row
  readonly rows: ReadonlyMap<LifecycleState, Row>
}

/**
 * The lifecycle chart compiled with XState's `initialTransition` and `transition` over its finite event
 * space (see `task-machine.ts` for why). A refusal is recognised here, once per answer: the chart emits
 * a single `refused` and stays where it was.
 */
const compile = (): Table => {
  const chart = compileChart<TaskMachineSnapshot, TaskEffect>(taskMachine, taskChartEvents)
  if (chart.initialEmitted.length !== 0) throw new Error("the task chart does something on start")
  const made = new Map<ChartNode<TaskMachineSnapshot, TaskEffect>, { -readonly [K in keyof Row]: Row[K] }>()
  for (const node of chart.nodes.values()) made.set(node, { state: node.snapshot.value, snapshot: node.snapshot, answers: [] })
  for (const [node, row] of made) {
    row.answers = node.cells.map((cell): Answer => {
      const to = made.get(cell.to)!
      const first = cell.emitted[0]
      if (first?.type !== "refused") return { refused: undefined, to, effects: cell.emitted }
      if (cell.emitted.length !== 1 || to !== row) throw new Error(`the task chart refuses with '${first.reason}' and does more`)
      return { refused: first.reason, to, effects: cell.emitted }
    })
  }
  const start: Row = made.get(chart.initial)!
  if (start.state !== "submitted") throw new Error(`the task chart starts in '${start.state}', not 'submitted'`)
  return { initial: start, rows: new Map([...made.values()].map((row) => [row.state, row])) }
}

let compiled: Table | undefined
/** The table, compiled on first use (some 10 ms of CPU, once per process) rather than on import. */
const table = (): Table => compiled ??= compile()

const initial = (): Row => table().initial

// The row of the last lookup: a task steps many times in one state (a stream's chunks), so most lookups
// are one comparison instead of a map's.
let lastRow: Row | undefined

const rowOf = (state: LifecycleState): Row => {
  const last = lastRow
  if (last !== undefined && last.state === state) return last
  const row = table().rows.get(state)
  if (row === undefined) throw new Error(`the task chart never reaches '${state}'`)
  lastRow = row
  return row
}

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

const refusal = (from: LifecycleState, event: string, reason: RefusalReason): TransitionRefused =>
  ({ _tag: "TransitionRefused", from, event, reason, message: explain(from, event, reason) })

/** The event's key in the chart's event space: its type and the facts the chart reads, from the task's data. */
const keyOf = (data: TaskData, event: TaskEvent): number => {
  switch (event.type) {
    case "artifact": return artifactKey(isClosed(data.artifacts, event.artifact.artifactId), event.lastChunk === true)
    case "resume":
    case "agentMessage": return messageKey(event.type, event.message.role, isForeign(data, event.message))
    default: return plainKey(event.type)
  }
}

/** The snapshot of a new task: `submitted`, with the first user message (carrying the task's ids) in its history. */
export const start = (input: TaskInput): TaskSnapshot => {
  const { contextId, id } = input
  const data: TaskData = {
    id,
    contextId,
    status: { state: initial().state, timestamp: input.timestamp },
    history: logFrom([withIds(input.message, input)]),
    artifacts: emptyArtifacts(),
    metadata: input.metadata
  }
  return { state: initial().state, data, lifecycle: initial().snapshot }
}

/**
 * The snapshot of a stored Task, to continue it (e.g. in another process): XState's snapshot of the
 * chart in the task's state, as compiled. Returns undefined for the wire-only state `unknown`. Artifacts
 * come back open: closing is not recorded on the wire Task.
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
  return { state, data, lifecycle: rowOf(state).snapshot }
}

/**
 * Applies one event: the compiled chart decides, the host builds the stream events from the event's
 * payload and folds them into the data. `snapshot` is left as it was. On refusal the host keeps its
 * snapshot and maps the refusal to a protocol error (e.g. `terminal` on cancel is -32002).
 *
 * @example
 * const r = step(snapshot, { type: "complete", timestamp: new Date().toISOString() })
 * if (r.accepted) { snapshot = r.snapshot; for (const e of r.emitted) log.append(e) }
 */
export const step = (snapshot: TaskSnapshot, event: TaskEvent): StepResult => {
  const emitted: Array<TaskStreamEvent> = []
  const next = stepInto(snapshot, event, (e) => emitted.push(e))
  return isRefusal(next) ? { accepted: false, refusal: next } : { accepted: true, snapshot: next, emitted }
}

const isRefusal = (r: TaskSnapshot | TransitionRefused): r is TransitionRefused => (r as { _tag?: unknown })._tag === "TransitionRefused"

/**
 * {@link step} for a host that keeps one snapshot and hands each stream event on at once: each event goes
 * to `emit` as it is made (once the chart accepted the event: a refusal emits nothing) and the next
 * snapshot, or the refusal, is returned, without the result object and the event list of each `step`
 * (a list kept from step to step and emptied with `length = 0` gave up its backing store every step).
 *
 * @internal
 */
export const stepInto = (snapshot: TaskSnapshot, event: TaskEvent, emit: (event: TaskStreamEvent) => void): TaskSnapshot | TransitionRefused => {
  const row = rowOf(snapshot.state)
  // XState closes a chart in a final state to every event; we answer that with a refusal.
  if (row.answers.length === 0) return refusal(snapshot.state, event.type, "terminal")
  const answer = row.answers[keyOf(snapshot.data, event)]!
  if (answer.refused !== undefined) return refusal(snapshot.state, event.type, answer.refused)
  let data = snapshot.data
  const effects = answer.effects
  for (let i = 0; i < effects.length; i++) data = apply(data, event, effects[i]!, emit)
  return { state: answer.to.state, data, lifecycle: answer.to.snapshot }
}

/** Whether {@link stepInto} refused. @internal */
export const refusedStep = isRefusal

/** One effect of `event` on the data; the stream events it makes go to `emit`. */
const apply = (data: TaskData, event: TaskEvent, effect: TaskEffect, emit: (event: TaskStreamEvent) => void): TaskData => {
  switch (effect.type) {
    case "status": {
      const update = statusUpdate(data, event, effect.state)
      const status = update.status
      emit(update)
      return withData(data, status, status.message === undefined ? data.history : append(data.history, status.message), data.artifacts)
    }
    case "artifact": {
      const update = artifactUpdate(data, event)
      emit(update)
      return withData(data, data.status, data.history, addChunk(data.artifacts, update, effect.close))
    }
    case "message": {
      const message = recordedMessage(data, event)
      if (effect.streamed) emit(message)
      return withData(data, data.status, append(data.history, message), data.artifacts)
    }
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
