/**
 * Task rows of the PostgreSQL store: one row per task (the Task as JSON, owner, push configs, version,
 * last event's number, lease, the agent's saved state), written with the task's new stream events in one
 * statement. JSON goes in and out as text in `json` columns and is never expanded or cast to `jsonb` by
 * PostgreSQL, which refuses `\u0000` and lone surrogates there: what a client sent is what is kept.
 */
import { Clock, Effect, Option } from "effect"
import type { Task } from "../../../schemas/index.ts"
import { isTerminalTask, VersionConflict, WriteRefused } from "../../runtime/task-store.ts"
import type { TaskListFilter, TaskRecord, TaskRecordInput, TaskStoreFailure } from "../../runtime/task-store.ts"
import { defaultListLimit, statusTimestampOf } from "../../runtime/task-store.ts"
import { json, nowMs, terminalList, waitingList } from "./store-db.ts"
import type { StoreDb } from "./store-db.ts"

/** A row as read. */
export interface Row {
  readonly task: Task | string
  readonly owner: string
  readonly push_configs: TaskRecord["pushConfigs"] | string
  readonly version: number
  readonly updated_at: number
  readonly last_seq: number
  readonly lease_instance: string | null
  readonly lease_epoch: number
  readonly live: boolean | null
  readonly saved?: unknown
}

/** The columns of a record; `table` qualifies them where a statement names several tables. */
export const recordColumns = (table = "tasks", saved = true) =>
  `${table}.task, ${table}.owner, ${table}.push_configs, ${table}.version, ${table}.updated_at, ${table}.last_seq,
  ${table}.lease_instance, ${table}.lease_epoch, (${table}.lease_until > ${nowMs}) AS live${saved ? `, ${table}.saved` : ""}`

export const toRecord = (row: Row): TaskRecord => ({
  task: json(row.task),
  owner: row.owner,
  pushConfigs: json(row.push_configs),
  version: Number(row.version),
  updatedAt: Number(row.updated_at),
  lastSeq: Number(row.last_seq),
  leaseEpoch: Number(row.lease_epoch),
  ...(row.lease_instance === null
    ? {}
    : { lease: { instance: row.lease_instance, epoch: Number(row.lease_epoch), live: row.live === true } }),
  ...(row.saved === undefined || row.saved === null ? {} : { saved: json(row.saved) })
})

/** The parts of a store that read and write task rows. */
export interface TaskRows {
  readonly get: (taskId: string) => Effect.Effect<Option.Option<TaskRecord>, TaskStoreFailure>
  readonly put: (input: TaskRecordInput, expectedVersion: number) => Effect.Effect<TaskRecord, VersionConflict | WriteRefused | TaskStoreFailure>
  readonly list: (filter?: TaskListFilter) => Effect.Effect<ReadonlyArray<TaskRecord>, TaskStoreFailure>
  readonly delete: (taskId: string) => Effect.Effect<boolean, TaskStoreFailure>
  readonly claimContext: (contextId: string, owner: string) => Effect.Effect<string, TaskStoreFailure>
  readonly countWaiting: (owner: string) => Effect.Effect<number, TaskStoreFailure>
  readonly idleWaiting: (before: number, limit: number) => Effect.Effect<ReadonlyArray<string>, TaskStoreFailure>
}

/** Options of {@link makeTaskRows}. */
export interface TaskRowsOptions {
  /** Events kept per running task: once a write passes a multiple of 256, the older ones go. */
  readonly eventWindow: number
  /** Wakes the readers of a task's events (after its write, see notifications.ts). */
  readonly notifyEvents: (taskId: string, events: number) => Effect.Effect<void>
}

const lastSeqOf = (input: TaskRecordInput): number => {
  const events = input.events
  return events === undefined || events.length === 0 ? 0 : events[events.length - 1]!.seq
}

/**
 * Events at or below this number go with this write (0: none). Checked when a write's events pass a
 * multiple of 256, so a running task keeps between `window` and `window + 256` events, and most writes
 * delete nothing.
 */
const compactBelow = (input: TaskRecordInput, window: number): number => {
  const events = input.events
  if (events === undefined || events.length === 0) return 0
  const first = events[0]!.seq
  const last = events[events.length - 1]!.seq
  return last > window && Math.floor(last / 256) > Math.floor((first - 1) / 256) ? last - window : 0
}

/** The events of a write as two arrays, numbers and JSON texts, for `unnest` (never expanded as JSON). */
const eventColumns = (input: TaskRecordInput): [Array<number>, Array<string>] => {
  const events = input.events ?? []
  return [events.map((e) => e.seq), events.map((e) => JSON.stringify(e.event))]
}

export const makeTaskRows = (db: StoreDb, options: TaskRowsOptions): TaskRows => {
  const s = db.schema
  const { instanceId, leaseMs, query } = db

  const get = (taskId: string) =>
    Effect.map(
      query<Row>("reading a task", `SELECT ${recordColumns()} FROM ${s}.tasks WHERE id = $1`, [taskId]),
      (rows) => Option.map(Option.fromNullishOr(rows[0]), toRecord)
    )

  const conflictOf = (taskId: string, expected: number, found: Option.Option<TaskRecord>) =>
    new VersionConflict({ taskId, expected, actual: Option.match(found, { onNone: () => 0, onSome: (r) => r.version }) })

  const insert = (input: TaskRecordInput, now: number) => {
    const task = input.task
    const [seqs, events] = eventColumns(input)
    const terminal = isTerminalTask(task)
    const saved = input.saved === undefined || input.saved.value === undefined ? null : JSON.stringify(input.saved.value)
    return query<Row>("creating a task", `WITH ins AS (
        INSERT INTO ${s}.tasks (id, owner, context_id, state, version, task, push_configs, updated_at, last_seq,
          lease_instance, lease_epoch, lease_until, saved, status_at)
        VALUES ($1, $2, $3, $4, 1, $5::json, $6::json, $7::float8, $8::int,
          CASE WHEN $9::boolean THEN NULL ELSE $10 END, 1, CASE WHEN $9::boolean THEN NULL ELSE ${nowMs} + $11::float8 END,
          CASE WHEN $9::boolean THEN NULL ELSE $14::json END, $15)
        ON CONFLICT (id) DO NOTHING
        RETURNING ${recordColumns()}
      ), ctx AS (
        INSERT INTO ${s}.contexts (id, owner, claimed_at) SELECT $3, $2, $7::float8 WHERE EXISTS (SELECT 1 FROM ins)
        ON CONFLICT (id) DO NOTHING
      ), ev AS (
        INSERT INTO ${s}.events (task_id, seq, event)
        SELECT $1, x.seq, x.event::json FROM unnest($12::int[], $13::text[]) AS x(seq, event) WHERE EXISTS (SELECT 1 FROM ins)
        ON CONFLICT DO NOTHING
      )
      SELECT ins.* FROM ins`, [
      task.id, input.owner, task.contextId, task.status.state, JSON.stringify(task), JSON.stringify(input.pushConfigs),
      now, lastSeqOf(input), terminal, instanceId, leaseMs, seqs, events, saved, statusTimestampOf(task)
    ]).pipe(Effect.flatMap((rows) => {
      const row = rows[0]
      if (row === undefined) return Effect.flatMap(get(task.id), (r) => Effect.fail(conflictOf(task.id, 0, r)))
      return Effect.as(options.notifyEvents(task.id, seqs.length), toRecord(row))
    }))
  }

  const update = (input: TaskRecordInput, expectedVersion: number, now: number) => {
    const task = input.task
    const [seqs, events] = eventColumns(input)
    const terminal = isTerminalTask(task)
    const epoch = input.leaseEpoch ?? 0
    const taskJson = JSON.stringify(task)
    const savedChanged = input.saved !== undefined
    const saved = input.saved === undefined || input.saved.value === undefined ? null : JSON.stringify(input.saved.value)
    return query<Row>("writing a task", `WITH upd AS (
        UPDATE ${s}.tasks SET owner = $2, context_id = $3, state = $4, version = version + 1, task = $5::json,
          push_configs = $6::json, updated_at = $7::float8, last_seq = GREATEST(last_seq, $8::int),
          lease_instance = CASE WHEN $9::boolean THEN NULL ELSE lease_instance END,
          lease_until = CASE WHEN $9::boolean THEN NULL ELSE lease_until END,
          saved = CASE WHEN $9::boolean THEN NULL WHEN $15::boolean THEN $16::json ELSE saved END,
          status_at = $18
        WHERE id = $1 AND version = $13::int
          AND (state NOT IN ${terminalList} OR task::text = $5)
          AND (CASE WHEN $14::int > 0 THEN lease_instance IS NOT DISTINCT FROM $10 AND lease_epoch = $14::int
            ELSE lease_instance IS NULL OR lease_until < ${nowMs} OR lease_instance = $10 END)
        RETURNING ${recordColumns()}
      ), ev AS (
        INSERT INTO ${s}.events (task_id, seq, event)
        SELECT $1, x.seq, x.event::json FROM unnest($12::int[], $17::text[]) AS x(seq, event) WHERE EXISTS (SELECT 1 FROM upd)
        -- Events a write that took effect but whose answer was lost stored already (its retry re-sends them).
        ON CONFLICT DO NOTHING
      ), old AS (
        DELETE FROM ${s}.events WHERE task_id = $1 AND seq <= $11::int AND $11::int > 0 AND EXISTS (SELECT 1 FROM upd)
      )
      SELECT upd.* FROM upd`, [
      task.id, input.owner, task.contextId, task.status.state, taskJson, JSON.stringify(input.pushConfigs),
      now, lastSeqOf(input), terminal, instanceId, compactBelow(input, options.eventWindow), seqs, expectedVersion, epoch,
      savedChanged, saved, events, statusTimestampOf(task)
    ]).pipe(Effect.flatMap((rows) => {
      const row = rows[0]
      if (row !== undefined) return Effect.as(options.notifyEvents(task.id, seqs.length), toRecord(row))
      // Refused: say why, from what is stored now.
      return Effect.flatMap(get(task.id), (found): Effect.Effect<never, VersionConflict | WriteRefused> => {
        if (Option.isNone(found)) return Effect.fail(conflictOf(task.id, expectedVersion, found))
        const stored = found.value
        if (epoch > 0 && (stored.lease?.instance !== instanceId || stored.lease.epoch !== epoch)) {
          return Effect.fail(new WriteRefused({
            taskId: task.id,
            reason: isTerminalTask(stored.task) ? "terminal" : "lease",
            message: `task ${task.id}: this instance no longer holds its lease (now ${stored.task.status.state}${stored.lease === undefined ? "" : `, held by ${stored.lease.instance}`})`
          }))
        }
        if (isTerminalTask(stored.task) && JSON.stringify(stored.task) !== taskJson) {
          return Effect.fail(new WriteRefused({ taskId: task.id, reason: "terminal", message: `task ${task.id} is ${stored.task.status.state}: a terminal task does not change` }))
        }
        if (stored.version !== expectedVersion) return Effect.fail(conflictOf(task.id, expectedVersion, found))
        return Effect.fail(new WriteRefused({
          taskId: task.id,
          reason: "lease",
          message: `task ${task.id} runs on instance ${stored.lease?.instance ?? "?"}: only it writes the task`
        }))
      })
    }))
  }

  return {
    get,
    put: (input, expectedVersion) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => expectedVersion === 0 ? insert(input, now) : update(input, expectedVersion, now)),
    list: (filter) =>
      Effect.map(
        query<Row>("listing tasks", `SELECT ${recordColumns("tasks", false)} FROM ${s}.tasks
          WHERE ($1::text IS NULL OR owner = $1) AND ($2::text IS NULL OR context_id = $2) ORDER BY updated_at, id LIMIT $3::int`,
        [filter?.owner ?? null, filter?.contextId ?? null, Math.max(0, Math.min(filter?.limit ?? defaultListLimit, defaultListLimit))]),
        (rows) => rows.map(toRecord)
      ),
    delete: (taskId) =>
      Effect.map(query<{ readonly id: string }>("deleting a task", `DELETE FROM ${s}.tasks WHERE id = $1 RETURNING id`, [taskId]), (rows) =>
        rows.length > 0),
    claimContext: (contextId, owner) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.map(
          // DO UPDATE (to the same owner) rather than DO NOTHING: it waits for a concurrent claim and returns its winner.
          query<{ readonly owner: string }>("claiming a context", `INSERT INTO ${s}.contexts (id, owner, claimed_at) VALUES ($1, $2, $3::float8)
            ON CONFLICT (id) DO UPDATE SET claimed_at = GREATEST(${s}.contexts.claimed_at, EXCLUDED.claimed_at) RETURNING owner`,
          [contextId, owner, now]),
          (rows) => rows[0]!.owner
        )),
    countWaiting: (owner) =>
      Effect.map(
        query<{ readonly n: string }>("counting tasks waiting for input", `SELECT count(*)::text AS n FROM ${s}.tasks
          WHERE owner = $1 AND state IN ${waitingList}`, [owner]),
        (rows) => Number(rows[0]?.n ?? 0)
      ),
    idleWaiting: (before, limit) =>
      Effect.map(
        query<{ readonly id: string }>("finding idle tasks waiting for input", `SELECT id FROM ${s}.tasks
          WHERE state IN ${waitingList} AND updated_at < $1::float8 ORDER BY updated_at LIMIT $2::int`, [before, limit]),
        (rows) => rows.map((r) => r.id)
      )
  }
}
