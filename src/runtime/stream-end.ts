import { Stream } from "effect"
import { isInterrupted, isTerminal } from "../../machines/task.ts"
import type { StreamResult, Task } from "../../schemas/index.ts"
import type { Sequenced } from "./event-log.ts"

/**
 * Cuts a task's event stream where a client's stream ends: after a `final: true` status-update or a
 * direct Message (which is then the first and only element). A Task element ends it too when terminal, or when interrupted unless it is the first
 * element (a resynchronisation snapshot stands for the final event the reader missed; a first Task is
 * where a stream begins, e.g. before the answer to an input request).
 */
export const untilFinal = <E>(stream: Stream.Stream<Sequenced<StreamResult>, E>): Stream.Stream<Sequenced<StreamResult>, E> =>
  Stream.suspend(() => {
    let first = true
    return Stream.takeUntil(stream, ({ event }) => {
      const isFirst = first
      first = false
      switch (event.kind) {
        case "status-update":
          return event.final
        case "message":
          return isFirst
        case "task":
          return isTerminal(event.status.state) || (!isFirst && isInterrupted(event.status.state))
        default:
          return false
      }
    })
  })

/** The Task with at most the last `historyLength` messages (absent or 0: all of them). */
export const withHistoryLength = (task: Task, historyLength: number | undefined): Task => {
  if (historyLength === undefined || historyLength <= 0 || task.history === undefined) return task
  if (task.history.length <= historyLength) return task
  return { ...task, history: task.history.slice(-historyLength) }
}
