/**
 * Leases of the PostgreSQL store: which instance runs a task, fenced by the lease's epoch. Every change
 * of hands is one conditional update, so PostgreSQL's row locks decide races between instances, and
 * between requests of one instance: a lease is taken only at the epoch the taker read.
 */
import { Effect, Option } from "effect"
import type { TaskRecord, TaskStoreFailure } from "../../runtime/task-store.ts"
import type { HeldLease, LeaseToTake } from "../../runtime/task-store.ts"
import { notifyList } from "./notifications.ts"
import { nowMs, terminalList } from "./store-db.ts"
import type { StoreDb } from "./store-db.ts"
import { recordColumns, toRecord } from "./task-rows.ts"
import type { Row } from "./task-rows.ts"

export interface Leases {
  readonly renew: (held: ReadonlyArray<HeldLease>) => Effect.Effect<ReadonlySet<string>, TaskStoreFailure>
  readonly takeOver: (taskId: string, epoch: number) => Effect.Effect<Option.Option<TaskRecord>, TaskStoreFailure>
  readonly expired: Effect.Effect<ReadonlyArray<LeaseToTake>, TaskStoreFailure>
  readonly release: (taskId: string, epoch: number, handOver: boolean) => Effect.Effect<void, TaskStoreFailure>
}

export const makeLeases = (db: StoreDb): Leases => {
  const s = db.schema
  const { instanceId, leaseMs, query } = db
  return {
    renew: (held) =>
      held.length === 0
        ? Effect.succeed(new Set<string>())
        : Effect.map(
          query<{ readonly id: string }>("renewing leases", `UPDATE ${s}.tasks t SET lease_until = ${nowMs} + $2::float8
            FROM unnest($3::text[], $4::int[]) AS h(id, epoch)
            WHERE t.id = h.id AND t.lease_epoch = h.epoch AND t.lease_instance = $1 AND t.state NOT IN ${terminalList}
            RETURNING t.id`, [instanceId, leaseMs, held.map((h) => h.taskId), held.map((h) => h.epoch)]),
          (rows) => new Set(rows.map((r) => r.id))
        ),
    takeOver: (taskId, epoch) =>
      Effect.map(
        // The second case is this very statement run again after it took effect (its answer was lost):
        // only one taker per task runs at a time in an instance, so this instance's lease one epoch on is its own.
        query<Row>("taking a task over", `UPDATE ${s}.tasks SET lease_instance = $2, lease_epoch = $4::int + 1,
            lease_until = ${nowMs} + $3::float8
          WHERE id = $1 AND state NOT IN ${terminalList}
            AND ((lease_epoch = $4::int AND (lease_instance IS NULL OR lease_until < ${nowMs} OR lease_instance = $2))
              OR (lease_epoch = $4::int + 1 AND lease_instance = $2))
          RETURNING ${recordColumns()}`, [taskId, instanceId, leaseMs, epoch]),
        (rows) => Option.map(Option.fromNullishOr(rows[0]), toRecord)
      ),
    expired: Effect.map(
      query<{ readonly id: string; readonly lease_epoch: number }>("finding expired leases", `SELECT id, lease_epoch FROM ${s}.tasks
        WHERE state NOT IN ${terminalList} AND lease_instance IS NOT NULL AND lease_until < ${nowMs} ORDER BY lease_until LIMIT 100`),
      (rows) => rows.map((r) => ({ taskId: r.id, epoch: Number(r.lease_epoch) }))
    ),
    release: (taskId, epoch, handOver) =>
      Effect.andThen(
        // Handed over: the lease stays this instance's but has expired, so any instance takes the task over now.
        query("releasing a lease", `UPDATE ${s}.tasks SET lease_instance = CASE WHEN $4::boolean THEN lease_instance END,
            lease_until = CASE WHEN $4::boolean THEN 0 END
          WHERE id = $1 AND lease_instance = $2 AND lease_epoch = $3::int`, [taskId, instanceId, epoch, handOver]),
        // Named after this instance, which does not take its own tasks back.
        handOver ? notifyList(db, `h:${instanceId}:`, [taskId]) : Effect.void
      )
  }
}
