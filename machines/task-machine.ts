/**
 * The A2A 0.3.0 task lifecycle as an XState v5 statechart: the one authority on which event a task may
 * take in which state, what state that leads to, and what it does.
 *
 * The chart decides on facts, not content. Its events ({@link TaskChartEvent}) carry only a type and a
 * few finite facts that its guards read (is this artifact closed, is this its last chunk, who sent this
 * message, does it name another task); the host computes them from the task's data, which the chart never
 * holds. The chart says what an accepted event does by emitting abstract {@link TaskEffect}s (enter a
 * state, record the chunk, record the message) or one `refused`, and the host builds the wire objects
 * from the event's payload. The chart has no context.
 *
 * So what an event does depends only on the state and the event's facts, and is the same for every task.
 * That makes the chart compilable: `task.ts` runs XState's documented pure functions (`initialTransition`,
 * then `transition` for every event of the finite event space from every state reached) once per process,
 * on first use, and keeps the answers in a table with XState's own snapshot objects, shared by all the
 * tasks in that state. A task's step is then two lookups (0.1 to 0.5 µs of CPU with the host's work,
 * bench/machine-step.ts). Interpreting each event instead costs tens of microseconds (XState's `transition`
 * builds a throwaway actor per call, some 35 µs; a live actor per task took some 6 µs per event and 58 µs
 * to start), where a streamed event has a budget of about 2 µs in all. A live actor of this chart
 * (`createActor(taskMachine)`, its effects on `actor.on("*")`) answers exactly as the table does; the
 * tests hold the two together.
 *
 * @module
 */
import { emit, type MachineContext, type MetaObject, type NonReducibleUnknown, setup, type StateMachine } from "xstate"
import type { LifecycleState, RefusalReason, TaskChartEvent, TaskEffect } from "./task-types.ts"

const refuse = (reason: RefusalReason) => ({ actions: { type: "refuse", params: { reason } } }) as const
const enter = (state: LifecycleState) => ({ target: state, actions: { type: "enter", params: { state } } }) as const
const messageGuards = (role: "user" | "agent") => [
  { guard: role === "user" ? "notFromUser" : "notFromAgent", ...refuse(`not-${role}-message`) },
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
      { guard: "lastChunk", actions: { type: "recordArtifact", params: { close: true } } },
      { actions: { type: "recordArtifact", params: { close: false } } }
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
    // The answer joins the history; the status that resumes the work carries no message.
    resume: [...messageGuards("user"), { target: "working", actions: ["recordUserMessage", { type: "enter", params: { state: "working" } }] }],
    "*": refuse("interrupted")
  }
} as const

const roleOf = (event: TaskChartEvent) => event.type === "resume" || event.type === "agentMessage" ? event.role : undefined

/** The lifecycle chart's type, spelled out (JSR's fast check reads only explicit types of exports). */
type TaskMachine = StateMachine<
  MachineContext,
  TaskChartEvent,
  {},
  never,
  | { type: "refuse"; params: { reason: RefusalReason } }
  | { type: "enter"; params: { state: LifecycleState } }
  | { type: "recordArtifact"; params: { close: boolean } }
  | { type: "recordUserMessage"; params: NonReducibleUnknown }
  | { type: "recordAgentMessage"; params: NonReducibleUnknown },
  | { type: "lastChunk"; params: unknown }
  | { type: "closedArtifact"; params: unknown }
  | { type: "notFromUser"; params: unknown }
  | { type: "notFromAgent"; params: unknown }
  | { type: "foreignMessage"; params: unknown },
  never,
  "submitted" | "working" | "input-required" | "completed" | "canceled" | "failed" | "rejected" | "auth-required",
  string,
  NonReducibleUnknown,
  NonReducibleUnknown,
  TaskEffect,
  MetaObject,
  {
    id: "a2a-task"
    states: {
      readonly submitted: {}
      readonly working: {}
      readonly "input-required": {}
      readonly "auth-required": {}
      readonly completed: {}
      readonly canceled: {}
      readonly failed: {}
      readonly rejected: {}
    }
  },
  MetaObject
>

/**
 * The task lifecycle chart (see the module documentation). A refusal is a transition too: it emits
 * `refused` and changes nothing. Final states accept nothing (XState closes them); the host answers
 * those events.
 */
export const taskMachine: TaskMachine = setup({
  types: {
    events: {} as TaskChartEvent,
    emitted: {} as TaskEffect
  },
  guards: {
    closedArtifact: ({ event }) => event.type === "artifact" && event.closed,
    lastChunk: ({ event }) => event.type === "artifact" && event.last,
    notFromUser: ({ event }) => roleOf(event) !== "user",
    notFromAgent: ({ event }) => roleOf(event) !== "agent",
    foreignMessage: ({ event }) => (event.type === "resume" || event.type === "agentMessage") && event.foreign
  },
  actions: {
    enter: emit((_, params: { state: LifecycleState }) => ({ type: "status", state: params.state }) as const),
    recordArtifact: emit((_, params: { close: boolean }) => ({ type: "artifact", close: params.close }) as const),
    recordUserMessage: emit({ type: "message", streamed: false } as const),
    recordAgentMessage: emit({ type: "message", streamed: true } as const),
    refuse: emit((_, params: { reason: RefusalReason }) => ({ type: "refused", reason: params.reason }) as const)
  }
}).createMachine({
  id: "a2a-task",
  initial: "submitted",
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
