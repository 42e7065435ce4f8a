/**
 * What keeps the PostgreSQL store's tables bounded. Every statement here works on a batch (`LIMIT`, rows
 * locked with `SKIP LOCKED`), so it holds no lock for long and instances that run it at the same time
 * share the work instead of colliding; a round goes on batch after batch until nothing is left or it has
 * done {@link maxBatches}, and the next round goes on from there.
 *
 * - Finished tasks go, with their events, `terminalTtl` after their last write.
 * - A finished task's events go `finishedEventsTtl` after it ended (a resume by event id then gets the
 *   final Task); a running task keeps a window of them (see task-rows.ts).
 * - Contexts with no task left go `terminalTtl` after their last claim.
 * - Answers nobody read go after an hour, and so do commands whose target has stopped (a sender waits
 *   only for a live target, so a command waiting a long time for a live one keeps its row).
 * - Instances gone for an hour leave `instances`.
 */
import { Clock, Effect } from "effect"
import type { TaskStoreFailure } from "../../runtime/task-store.ts"
import { nowMs, terminalList } from "./store-db.ts"
import type { StoreDb } from "./store-db.ts"

/** Rows one statement works on. */
export const batchSize = 500
/** Batches of one kind a round does at most. */
export const maxBatches = 40

export interface HousekeepingOptions {
  readonly terminalTtlMs: number
  readonly finishedEventsTtlMs: number
}

/** One round of housekeeping; how many rows of each kind it removed. */
export const housekeeping = (db: StoreDb, options: HousekeepingOptions): Effect.Effect<Record<string, number>, TaskStoreFailure> => {
  const s = db.schema
  const { query } = db
  /** Runs a batch statement answering `n` (rows done) until it does less than a batch. */
  const batched = (what: string, text: string, params: ReadonlyArray<unknown>) =>
    Effect.gen(function*() {
      let total = 0
      for (let i = 0; i < maxBatches; i++) {
        const rows = yield* query<{ readonly n: string }>(what, text, [...params, batchSize])
        const n = Number(rows[0]?.n ?? 0)
        total += n
        if (n < batchSize) break
      }
      return total
    })
  return Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.gen(function*() {
      const tasks = yield* batched("expiring finished tasks", `WITH gone AS (
          DELETE FROM ${s}.tasks WHERE id IN (
            SELECT id FROM ${s}.tasks WHERE state IN ${terminalList} AND updated_at < $1::float8
            ORDER BY updated_at LIMIT $2::int FOR UPDATE SKIP LOCKED
          ) RETURNING 1
        ) SELECT count(*)::text AS n FROM gone`, [now - options.terminalTtlMs])
      const events = yield* batched("dropping the events of finished tasks", `WITH done AS (
          SELECT id FROM ${s}.tasks WHERE state IN ${terminalList} AND NOT events_compacted AND updated_at < $1::float8
          ORDER BY updated_at LIMIT $2::int FOR UPDATE SKIP LOCKED
        ), dropped AS (
          DELETE FROM ${s}.events e USING done WHERE e.task_id = done.id
        ), marked AS (
          UPDATE ${s}.tasks t SET events_compacted = true FROM done WHERE t.id = done.id RETURNING 1
        ) SELECT count(*)::text AS n FROM marked`, [now - options.finishedEventsTtlMs])
      const contexts = yield* batched("expiring contexts", `WITH gone AS (
          DELETE FROM ${s}.contexts WHERE id IN (
            SELECT c.id FROM ${s}.contexts c WHERE c.claimed_at < $1::float8
              AND NOT EXISTS (SELECT 1 FROM ${s}.tasks t WHERE t.context_id = c.id)
            LIMIT $2::int FOR UPDATE SKIP LOCKED
          ) RETURNING 1
        ) SELECT count(*)::text AS n FROM gone`, [now - options.terminalTtlMs])
      const commands = yield* batched("dropping old commands", `WITH gone AS (
          DELETE FROM ${s}.commands WHERE id IN (
            SELECT c.id FROM ${s}.commands c
            WHERE c.answered_at < now() - interval '1 hour'
              OR (c.created_at < now() - interval '1 hour'
                AND NOT EXISTS (SELECT 1 FROM ${s}.instances i WHERE i.id = c.target AND i.alive_until > ${nowMs}))
            LIMIT $1::int FOR UPDATE SKIP LOCKED
          ) RETURNING 1
        ) SELECT count(*)::text AS n FROM gone`, [])
      const instances = yield* batched("dropping stopped instances", `WITH gone AS (
          DELETE FROM ${s}.instances WHERE id IN (
            SELECT id FROM ${s}.instances WHERE alive_until < ${nowMs} - 3600000 LIMIT $1::int FOR UPDATE SKIP LOCKED
          ) RETURNING 1
        ) SELECT count(*)::text AS n FROM gone`, [])
      return { tasks, finishedEvents: events, contexts, commands, instances }
    }))
}
