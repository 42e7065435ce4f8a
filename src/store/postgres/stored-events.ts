/**
 * A task's stream read from the events table, for readers on any instance: the events after a number, in
 * order and without gaps, then each new one as it is stored (woken by NOTIFY, polled as a fallback).
 * Where the events asked for are no longer kept (a running task keeps a window of them; a finished one
 * loses them after a while), the reader gets the Task as stored instead, numbered with the last event it
 * reflects, and goes on from there: as a reader of an in-memory log that fell behind its window.
 */
import { Cause, Duration, Effect, Schedule, Stream } from "effect"
import type { Array as Arr } from "effect"
import type { StreamResult, Task } from "../../../schemas/index.ts"
import type { Sequenced } from "../../runtime/event-log.ts"
import type { TaskStoreFailure } from "../../runtime/task-store.ts"
import type { Wakeups } from "./notifications.ts"
import { json } from "./store-db.ts"
import type { StoreDb } from "./store-db.ts"

interface EventRow {
  readonly last_seq: number
  readonly seq: number | null
  readonly event: StreamResult | string | null
}

export const makeStoredEvents = (db: StoreDb, wakeups: Wakeups) => {
  const s = db.schema
  // A reader outlives a brief outage (a dropped connection, a restarting server) without a gap.
  const retried = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.retry(effect, { times: 6, schedule: Schedule.exponential(Duration.millis(50)) })
  return (taskId: string, after: number): Stream.Stream<Sequenced<StreamResult>, TaskStoreFailure> =>
    Stream.unwrap(Effect.gen(function*() {
      const key = `e:${taskId}`
      const waiter = yield* Effect.acquireRelease(Effect.sync(() => wakeups.add(key)), (w) => Effect.sync(() => wakeups.remove(key, w)))
      let cursor = after
      type Pull = Effect.Effect<Arr.NonEmptyReadonlyArray<Sequenced<StreamResult>>, TaskStoreFailure | Cause.Done>
      const pull: Pull = Effect.suspend(() => {
        waiter.woken = false
        // The row and its events in one statement: one snapshot, so a missing event is one that was dropped.
        return Effect.flatMap(
          retried(db.query<EventRow>("reading events", `SELECT t.last_seq, e.seq, e.event FROM ${s}.tasks t
            LEFT JOIN LATERAL (SELECT seq, event FROM ${s}.events WHERE task_id = t.id AND seq > $2::int ORDER BY seq LIMIT 512) e ON true
            WHERE t.id = $1 ORDER BY e.seq`, [taskId, cursor])),
          (rows): Pull => {
            // The task is gone (deleted, or expired): nothing more will come.
            if (rows.length === 0) return Cause.done()
            const lastSeq = Number(rows[0]!.last_seq)
            const found = rows.filter((r) => r.seq !== null)
            if (found.length > 0 && Number(found[0]!.seq) === cursor + 1) {
              const out = found.map((r) => ({ seq: Number(r.seq), event: json(r.event!) }))
              cursor = out[out.length - 1]!.seq
              return Effect.succeed(out as unknown as Arr.NonEmptyReadonlyArray<Sequenced<StreamResult>>)
            }
            if (lastSeq > cursor) return resync
            return Effect.andThen(wakeups.wait(waiter), pull)
          }
        )
      })
      const resync: Pull = Effect.flatMap(
        retried(db.query<{ readonly last_seq: number; readonly task: Task | string }>(
          "reading a task", `SELECT last_seq, task FROM ${s}.tasks WHERE id = $1`, [taskId]
        )),
        (rows): Pull => {
          const row = rows[0]
          if (row === undefined) return Cause.done()
          cursor = Number(row.last_seq)
          return Effect.succeed([{ seq: cursor, event: json<Task>(row.task) as StreamResult }])
        }
      )
      return Stream.fromPull(Effect.succeed(pull))
    }))
}
