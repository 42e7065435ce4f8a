import { assign, createActor, setup, type AnyActorScope, type SnapshotFrom } from "xstate"
import type { Message, Task, TaskArtifactUpdateEvent, TaskStatus, TaskStatusUpdateEvent } from "../schemas/index.ts"
import { addChunk, artifactsFrom, emptyArtifacts, isClosed, toArtifacts } from "./artifacts.ts"
import { append, logFrom, toArray } from "./internal/append-log.ts"
import {
  isInterrupted,
  isTerminal,
  type LifecycleState,
  type Metadata,
  type RefusalReason,
  type StatusChange,
  type TaskEvent,
  type TaskInput,
  type TaskMachineContext,
  type TaskStreamEvent,
  type TransitionRefused
} from "./task-types.ts"

export * from "./task-types.ts"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const none: ReadonlyArray<TaskStreamEvent> = Object.freeze([])

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

const refusalOf = (from: LifecycleState, event: string, reason: RefusalReason): TransitionRefused =>
  ({ _tag: "TransitionRefused", from, event, reason, message: explain(from, event, reason) })

/** The message as recorded: it carries this task's ids, as peers expect of history entries. */
/** The context of a new task: submitted, with the first user message in its history. */
const initialContext = (input: TaskInput): TaskMachineContext => ({
  id: input.id,
  contextId: input.contextId,
  status: { state: "submitted", timestamp: input.timestamp },
  history: logFrom([{ ...input.message, taskId: input.id, contextId: input.contextId }]),
  artifacts: emptyArtifacts(),
  metadata: input.metadata,
  emitted: none,
  refusal: undefined
})

const ownMessage = (context: TaskMachineContext, message: Message): Message =>
  message.taskId === context.id && message.contextId === context.contextId
    ? message
    : { ...message, taskId: context.id, contextId: context.contextId }

const isForeign = (context: TaskMachineContext, message: Message): boolean =>
  (message.taskId !== undefined && message.taskId !== context.id) ||
  (message.contextId !== undefined && message.contextId !== context.contextId)

const messageOf = (event: TaskEvent): Message | undefined => "message" in event ? event.message : undefined

const statusUpdate = (
  context: TaskMachineContext,
  status: TaskStatus,
  metadata: Metadata | undefined
): TaskStatusUpdateEvent => {
  const final = isTerminal(status.state) || isInterrupted(status.state)
  const base = { kind: "status-update", taskId: context.id, contextId: context.contextId, status, final } as const
  return metadata === undefined ? base : { ...base, metadata }
}

/** Moves to `state`: the status message (if any) joins the history; one status-update is emitted. */
const enterStatus = (context: TaskMachineContext, event: TaskEvent, state: LifecycleState) => {
  const change = event as StatusChange // the chart sends only StatusChange events here
  const message = change.message === undefined ? undefined : ownMessage(context, change.message)
  const status: TaskStatus = message === undefined
    ? { state, timestamp: change.timestamp }
    : { state, message, timestamp: change.timestamp }
  return {
    status,
    history: message === undefined ? context.history : append(context.history, message),
    emitted: [statusUpdate(context, status, change.metadata)],
    refusal: undefined
  }
}

/** The artifact-update event of an accepted chunk; it is also kept as the chunk in the artifact table. */
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

/** Adds an artifact chunk (the caller checked it is open) and emits it as an artifact-update. */
const recordArtifact = (context: TaskMachineContext, event: Extract<TaskEvent, { type: "artifact" }>) => {
  const update = artifactUpdate(context, event)
  return { artifacts: addChunk(context.artifacts, update), emitted: [update], refusal: undefined }
}

const refuse = (reason: RefusalReason) => ({ actions: { type: "refuse", params: { reason } } }) as const
const enter = (state: LifecycleState) => ({ target: state, actions: { type: "enter", params: { state } } }) as const
const messageGuards = (role: "user" | "agent") => [
  { guard: role === "user" ? "notUserMessage" : "notAgentMessage", ...refuse(`not-${role}-message`) },
  { guard: "foreignMessage", ...refuse("foreign-message") }
] as const

/** Events every non-terminal state accepts; anything a state does not list falls to the root's refusal. */
const anyLiveState = { fail: enter("failed"), cancel: enter("canceled"), status: enter("working") } as const

/** While submitted or working, the agent may do anything. */
const running = {
  on: {
    ...anyLiveState,
    artifact: [{ guard: "closedArtifact", ...refuse("artifact-closed") }, { actions: "recordArtifact" }],
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
  on: { ...anyLiveState, resume: [...messageGuards("user"), { target: "working", actions: "resumeWork" }] }
} as const

/**
 * The A2A 0.3.0 task lifecycle as a pure statechart. Refusals are transitions too (they record a
 * {@link TransitionRefused}), except out of final states, which XState closes: {@link step} reports those.
 */
export const taskMachine = setup({
  types: {
    context: {} as TaskMachineContext,
    events: {} as TaskEvent,
    input: {} as TaskInput
  },
  guards: {
    closedArtifact: ({ context, event }) =>
      event.type === "artifact" && isClosed(context.artifacts, event.artifact.artifactId),
    notUserMessage: ({ event }) => messageOf(event)?.role !== "user",
    notAgentMessage: ({ event }) => messageOf(event)?.role !== "agent",
    foreignMessage: ({ context, event }) => {
      const message = messageOf(event)
      return message !== undefined && isForeign(context, message)
    }
  },
  actions: {
    enter: assign(({ context, event }, params: { state: LifecycleState }) => enterStatus(context, event, params.state)),
    recordArtifact: assign(({ context, event }) => event.type === "artifact" ? recordArtifact(context, event) : {}),
    recordUserMessage: assign(({ context, event }) => ({
      history: append(context.history, ownMessage(context, messageOf(event)!)),
      emitted: none,
      refusal: undefined
    })),
    recordAgentMessage: assign(({ context, event }) => {
      const message = ownMessage(context, messageOf(event)!)
      return { history: append(context.history, message), emitted: [message], refusal: undefined }
    }),
    resumeWork: assign(({ context, event }) => {
      const status: TaskStatus = { state: "working", timestamp: (event as { timestamp: string }).timestamp }
      return {
        status,
        history: append(context.history, ownMessage(context, messageOf(event)!)),
        emitted: [statusUpdate(context, status, undefined)],
        refusal: undefined
      }
    }),
    refuse: assign(({ context, event }, params: { reason?: RefusalReason }) => {
      const from = context.status.state as LifecycleState
      const reason = params.reason ?? (isTerminal(from) ? "terminal" : isInterrupted(from) ? "interrupted" : "unsupported")
      return { refusal: refusalOf(from, event.type, reason), emitted: none }
    })
  }
}).createMachine({
  id: "a2a-task",
  initial: "submitted",
  context: ({ input }) => initialContext(input),
  on: { "*": { actions: { type: "refuse", params: {} } } },
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

/** A task actor's snapshot: the value the host keeps between events. */
export type TaskSnapshot = SnapshotFrom<typeof taskMachine>

/** The outcome of one event: accepted with the next snapshot and its stream events, or refused. */
export type StepResult =
  | { readonly accepted: true; readonly snapshot: TaskSnapshot; readonly emitted: ReadonlyArray<TaskStreamEvent> }
  | { readonly accepted: false; readonly refusal: TransitionRefused }

/**
 * One inert actor scope for every pure transition. XState's `transition()` helper builds a new actor
 * (computing an initial snapshot) on each call, which costs more than the step itself; the scope only
 * serves spawning, delays and custom actions, and this machine has none (all its actions are assigns).
 */
const scope: AnyActorScope = (() => {
  const self = createActor(taskMachine, {
    input: { id: "", contextId: "", timestamp: "", message: { kind: "message", messageId: "", role: "user", parts: [] } }
  })
  const ignore = () => {}
  return {
    self, id: "", sessionId: "", system: self.system,
    logger: ignore, defer: ignore, emit: ignore, stopChild: ignore, actionExecutor: ignore
  }
})()

/** `submitted` as resolved once on a sample task (set at the end of this module; see {@link start}). */
let submittedTemplate: TaskSnapshot | undefined

/** The snapshot of a new task: `submitted`, with the first user message in its history. */
export const start = (input: TaskInput): TaskSnapshot => {
  const context = initialContext(input)
  // Resolving the submitted state directly skips the actor-start machinery of getInitialSnapshot,
  // which doubled the cost of every new task; the result is the same snapshot (tested).
  if (submittedTemplate === undefined) return taskMachine.resolveState({ value: "submitted", context })
  // Resolving it once and taking its context-free fields saves the interpreter's state walk per task;
  // children and history are fresh, as resolveState makes them.
  return moveTo(submittedTemplate, submittedTemplate, context, {}, {})
}

/**
 * The snapshot of a stored Task, to continue it (e.g. in another process). Returns undefined for the
 * wire-only state `unknown`. Artifacts come back open: closing is not recorded on the wire Task.
 */
export const restore = (task: Task): TaskSnapshot | undefined => {
  const state = task.status.state
  if (state === "unknown") return undefined
  return taskMachine.resolveState({
    value: state,
    context: {
      id: task.id,
      contextId: task.contextId,
      status: task.status,
      history: logFrom(task.history ?? []),
      artifacts: artifactsFrom(task.artifacts ?? []),
      metadata: task.metadata,
      emitted: none,
      refusal: undefined
    }
  })
}

/**
 * Applies one event. Pure: `snapshot` is left as it was and may be stepped again. On refusal the host
 * keeps its snapshot and maps the refusal to a protocol error (e.g. `terminal` on cancel is -32002).
 *
 * @example
 * const r = step(snapshot, { type: "complete", timestamp: new Date().toISOString() })
 * if (r.accepted) { snapshot = r.snapshot; for (const e of r.emitted) log.append(e) }
 */
export const step = (snapshot: TaskSnapshot, event: TaskEvent): StepResult =>
  snapshot.status === "done" ? refuseTerminal(snapshot, event) : hotPath(snapshot, event) ?? chart(snapshot, event)

/** XState closes a machine in a final state to every event; we answer that with a refusal. */
const refuseTerminal = (snapshot: TaskSnapshot, event: TaskEvent): StepResult =>
  ({ accepted: false, refusal: refusalOf(snapshot.value, event.type, "terminal") })

/**
 * {@link step} without its shortcut: every event through the statechart.
 *
 * @internal exported so tests can hold the shortcut to the chart's answers
 */
export const stepThroughChart = (snapshot: TaskSnapshot, event: TaskEvent): StepResult =>
  snapshot.status === "done" ? refuseTerminal(snapshot, event) : chart(snapshot, event)

const chart = (snapshot: TaskSnapshot, event: TaskEvent): StepResult => {
  const next = taskMachine.transition(snapshot, event, scope)
  const refusal = next.context.refusal
  return refusal === undefined
    ? { accepted: true, snapshot: next, emitted: next.context.emitted }
    : { accepted: false, refusal }
}

/**
 * Streams are mostly artifact chunks and progress updates, and a full XState macrostep costs several
 * microseconds. For those two events in the states that accept them without changing state, the answer
 * is the chart's own action applied to the context, with the state nodes kept as they are (what XState
 * builds for a transition that stays in the same atomic state with no entry or exit actions). Everything
 * else, refusals included, goes through the chart. Tests compare this path with the chart's.
 */
const hotPath = (snapshot: TaskSnapshot, event: TaskEvent): StepResult | undefined => {
  const context = snapshot.context
  const state = context.status.state
  if (event.type === "artifact") {
    if ((state === "working" || state === "submitted") && !isClosed(context.artifacts, event.artifact.artifactId)) {
      const update = artifactUpdate(context, event)
      const emitted = [update]
      return accept(snapshot, withContext(context, context.status, context.history, addChunk(context.artifacts, update), emitted))
    }
  } else if (event.type === "status" && state === "working") {
    const entered = enterStatus(context, event, "working")
    return accept(snapshot, withContext(context, entered.status, entered.history, context.artifacts, entered.emitted))
  } else if (moves !== undefined && (state === "working" || state === "submitted")) {
    // A task that ends (or starts working) in one action takes this change once; through the interpreter
    // it cost more than the rest of the task's step work together.
    const target = moves[state][event.type as MoveEvent]
    if (target !== undefined) {
      const entered = enterStatus(context, event, target.value)
      const next = withContext(context, entered.status, entered.history, context.artifacts, entered.emitted)
      return { accepted: true, snapshot: moveTo(snapshot, target, next), emitted: next.emitted }
    }
  }
  return undefined
}

/** The status changes {@link hotPath} takes out of `submitted` and `working` without the interpreter. */
type MoveEvent = "complete" | "fail" | "reject" | "cancel" | "status"

/**
 * The snapshot after a change of state: the target's state nodes, value, status and output as the chart
 * computed them once (they depend only on the state and the event type, not on the context); the rest
 * passes through from `snapshot`, as in XState's own transition (this machine has no history or children).
 */
const moveTo = (
  snapshot: TaskSnapshot,
  target: TaskSnapshot,
  context: TaskMachineContext,
  children = snapshot.children,
  historyValue = snapshot.historyValue
): TaskSnapshot => ({
  status: target.status,
  output: target.output,
  error: snapshot.error,
  machine: snapshot.machine,
  context,
  _nodes: target._nodes,
  value: target.value,
  tags: target.tags,
  children,
  historyValue,
  matches: snapshot.matches,
  hasTag: snapshot.hasTag,
  can: snapshot.can,
  getMeta: snapshot.getMeta,
  toJSON: snapshot.toJSON
} as TaskSnapshot)

/**
 * The next context, written out field by field: spreading the old context and then an update object
 * costs a dictionary-style copy per event, which dominated a stream of small chunks.
 */
const withContext = (
  context: TaskMachineContext,
  status: TaskStatus,
  history: TaskMachineContext["history"],
  artifacts: TaskMachineContext["artifacts"],
  emitted: ReadonlyArray<TaskStreamEvent>
): TaskMachineContext => ({
  id: context.id,
  contextId: context.contextId,
  status,
  history,
  artifacts,
  metadata: context.metadata,
  emitted,
  refusal: undefined
})

const accept = (snapshot: TaskSnapshot, context: TaskMachineContext): StepResult =>
  ({ accepted: true, snapshot: withSnapshotContext(snapshot, context), emitted: context.emitted })

/**
 * `{ ...snapshot, context }` written out. XState snapshots carry fifteen fields (methods included) and
 * V8 spreads them on a slow path, several times the cost of the rest of the step; a literal with the
 * same fields in the same order is what XState's own clone builds. The field list is checked once
 * against a real snapshot, so another XState version falls back to the spread instead of losing fields.
 */
const copyContext = (snapshot: TaskSnapshot, context: TaskMachineContext): TaskSnapshot => ({
  status: snapshot.status,
  output: snapshot.output,
  error: snapshot.error,
  machine: snapshot.machine,
  context,
  _nodes: snapshot._nodes,
  value: snapshot.value,
  tags: snapshot.tags,
  children: snapshot.children,
  historyValue: snapshot.historyValue,
  matches: snapshot.matches,
  hasTag: snapshot.hasTag,
  can: snapshot.can,
  getMeta: snapshot.getMeta,
  toJSON: snapshot.toJSON
} as TaskSnapshot)

const spreadContext = (snapshot: TaskSnapshot, context: TaskMachineContext): TaskSnapshot => ({ ...snapshot, context })

const withSnapshotContext = (() => {
  const sample = scope.self.getSnapshot() as TaskSnapshot
  const same = (a: object, b: object) => Object.keys(a).join() === Object.keys(b).join()
  return same(copyContext(sample, sample.context), sample) ? copyContext : spreadContext
})()

/**
 * For each of `submitted` and `working` and each {@link MoveEvent} (but `status` from `working`, which
 * stays), the chart's own answer on a sample task: {@link moveTo} takes its state-dependent fields.
 * Undefined when this XState's snapshots have other fields than {@link moveTo} writes (then the chart answers).
 */
const moves = (() => {
  if (withSnapshotContext !== copyContext) return undefined
  const from = taskMachine.resolveState({
    value: "submitted",
    context: initialContext({ id: "", contextId: "", timestamp: "", message: { kind: "message", messageId: "", role: "user", parts: [] } })
  })
  submittedTemplate = from
  const targets = (source: TaskSnapshot, types: ReadonlyArray<MoveEvent>) => {
    const out: Partial<Record<MoveEvent, TaskSnapshot>> = {}
    for (const type of types) {
      const result = chart(source, { type, timestamp: "" })
      if (!result.accepted) throw new Error(`the chart refuses ${type} from ${source.value}`)
      out[type] = result.snapshot
    }
    return out
  }
  const submitted = targets(from, ["complete", "fail", "reject", "cancel", "status"])
  return { submitted, working: targets(submitted.status!, ["complete", "fail", "reject", "cancel"]) }
})()

const tasks = new WeakMap<TaskMachineContext, Task>()

/**
 * The wire Task of a snapshot (merged artifacts, full history), built once per snapshot. It costs
 * O(history + artifact chunks), so hosts call it when they need a Task (first stream event, get,
 * interrupted or terminal state), not after every chunk. `history` and `artifacts` are omitted when empty.
 */
export const taskOf = (snapshot: TaskSnapshot): Task => {
  const context = snapshot.context
  const cached = tasks.get(context)
  if (cached !== undefined) return cached
  // Fields set one by one (same order as before) rather than spread from temporary objects: built per task and state.
  const task: Mutable<Task> = { kind: "task", id: context.id, contextId: context.contextId, status: context.status }
  if (context.history.length !== 0) task.history = toArray(context.history)
  if (context.artifacts.chunks.length !== 0) task.artifacts = toArtifacts(context.artifacts)
  if (context.metadata !== undefined) task.metadata = context.metadata
  tasks.set(context, task)
  return task
}
