/**
 * Streams read from the shared store: on an instance that does not run the task, and on the one that did
 * once it lost the task (its readers go on from the stored events, as any other instance's do). Every
 * event has the number it has on every instance, so `Last-Event-ID` resumes anywhere.
 */
import { Duration, Effect, Option, Stream } from "effect"
import type { ProtocolError, StreamResult, Task } from "../../../schemas/index.ts"
import type { Sequenced } from "../event-log.ts"
import { notFound, storeFailed, storeUnavailable } from "../hosting.ts"
import { untilFinal } from "../stream-end.ts"
import type { TaskHost } from "../task-host.ts"
import { isTerminalTask } from "../task-store.ts"
import type { SharedTasks, TaskRecord, TaskStore } from "../task-store.ts"

type Events = Stream.Stream<Sequenced<StreamResult>, ProtocolError>

export const makeStoredStreams = (store: TaskStore, shared: SharedTasks) => {
  /** A task's events as stored, from `after` on, raw (the caller cuts the stream at its end). */
  const tail = (taskId: string, after: number): Events =>
    Stream.catch(shared.events(taskId, after), (e) => Stream.fromEffect(storeFailed(taskId)(e)))

  /** A task's events as stored, from `after` on (after `first`, when given), up to the final one. */
  const storedEvents = (taskId: string, after: number, first?: Task): Events => {
    const events = tail(taskId, after)
    return untilFinal(first === undefined ? events : Stream.concat(Stream.succeed({ seq: after, event: first as StreamResult }), events))
  }

  /**
   * Resubscription on an instance that does not run the task: the stored events after the client's last
   * one, or the Task and then its events. A client may have seen an event that the running instance has
   * not stored yet: the read waits for it (up to one lease) rather than answer with a snapshot.
   */
  const resumeStored = (record: TaskRecord, lastEventId: number | undefined, waited = 0): Events => {
    const id = record.task.id
    const lastSeq = record.lastSeq ?? 0
    const terminal = isTerminalTask(record.task)
    if (lastEventId !== undefined && lastEventId >= 0) {
      if (lastEventId < lastSeq || (lastEventId === lastSeq && !terminal)) return storedEvents(id, lastEventId)
      if (!terminal && waited < shared.leaseMs) {
        return Stream.unwrap(Effect.andThen(
          Effect.sleep(Duration.millis(25)),
          Effect.map(Effect.catch(store.get(id), storeFailed(id)), (fresh) =>
            Option.isNone(fresh) ? Stream.fail(notFound(id)) : resumeStored(fresh.value, lastEventId, waited + 25))
        ))
      }
    }
    return terminal ? Stream.make<Array<Sequenced<StreamResult>>>({ seq: lastSeq, event: record.task }) : storedEvents(id, lastSeq, record.task)
  }

  /**
   * A host's log from `after` (after `first`, when given), up to the final event; should the host lose its
   * task meanwhile, its readers go on from the stored events after the last one they got.
   */
  const followHost = (host: TaskHost, after: number | undefined, first?: Task): Events =>
    Stream.suspend(() => {
      let last = after ?? 0
      const live: Events = Stream.map(host.log.subscribe(after === undefined ? {} : { after }), (e) => {
        last = e.seq
        return e
      })
      const then: Events = Stream.suspend(() => (host.lost() ? tail(host.taskId, last) : Stream.empty))
      const events = Stream.concat(live, then)
      return untilFinal(first === undefined ? events : Stream.concat(Stream.succeed({ seq: after ?? 0, event: first as StreamResult }), events))
    })

  return { storedEvents, resumeStored, followHost, unavailable: storeUnavailable }
}

export type StoredStreams = ReturnType<typeof makeStoredStreams>
