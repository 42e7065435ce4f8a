/**
 * A task's telemetry, from the runtime's change feed (so the task path itself carries no hook): its
 * `a2a.task` span, opened in the request that made the task and ended when the task ends, with each
 * transition as a span event; and the task metrics (created, transitions, unfinished tasks by state).
 *
 * @module
 */
import { Context, type Effect, Exit, Option, type Scope, type Tracer } from "effect"
import { currentSpan } from "./trace-context.ts"
import { isTerminal } from "../../machines/task-types.ts"
import type { TaskRuntime } from "../runtime/task-runtime.ts"
import type { Telemetry } from "./telemetry.ts"

const nowNanos = (): bigint => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6))


/**
 * The span of task `taskId`, opened now if it is not open yet: in the span the running fiber is in (the
 * request that made the task, or the one that started its agent's run).
 */
export const openTaskSpan = (telemetry: Telemetry, taskId: string, principal: string, at: bigint = nowNanos()): Tracer.Span => {
  const open = telemetry.taskSpans.get(taskId)
  if (open !== undefined || telemetry.tracer === undefined) return open!
  const parent = currentSpan()
  const span = telemetry.tracer.span({
    name: "a2a.task",
    parent: parent === undefined ? Option.none() : Option.some(parent),
    annotations: Context.empty(),
    links: [],
    startTime: at,
    kind: "internal",
    root: false,
    sampled: parent === undefined ? true : parent.sampled
  })
  span.attribute("a2a.task.id", taskId)
  span.attribute("a2a.principal", principal)
  telemetry.taskSpans.set(taskId, span)
  return span
}

/**
 * Watches `runtime`'s tasks for as long as the Scope lives. Register it after every other listener that
 * reads a task's span (the push service links its deliveries to it), so a task's last change still finds
 * its span open.
 */
export const watchTasks = (runtime: TaskRuntime, telemetry: Telemetry): Effect.Effect<void, never, Scope.Scope> => {
  const states = new Map<string, string>()
  const { tracer, instruments, taskSpans } = telemetry
  return runtime.onTaskChange((change) => {
    const id = change.task.id
    const state = change.task.status.state
    const terminal = isTerminal(state)
    const known = states.get(id)
    if (known !== state) {
      if (known === undefined && change.previous === undefined) instruments?.taskCreated()
      instruments?.taskState(known, state, terminal)
      if (terminal) states.delete(id)
      else states.set(id, state)
    }
    if (tracer === undefined) return
    const at = nowNanos()
    let span = taskSpans.get(id)
    if (span === undefined) {
      // A change of a task this instance does not run (a cancel of a stored task) opens no span.
      if (terminal && known === undefined && change.previous !== undefined) return
      span = openTaskSpan(telemetry, id, change.owner, at)
    }
    if (known === undefined) span.attribute("a2a.context.id", change.task.contextId)
    span.event("a2a.task.transition", at, { "a2a.task.state": state, ...(change.previous !== undefined ? { "a2a.task.previous_state": change.previous } : {}) })
    if (terminal) {
      span.attribute("a2a.task.state", state)
      span.end(at, state === "failed" ? Exit.fail(new Error("the task failed")) : Exit.void)
      taskSpans.delete(id)
    }
  })
}
