/**
 * The PostgreSQL {@link TaskStore}: tasks, their stream events and the commands between instances in one
 * schema, through `@effect/sql-pg`. Several instances (processes, any mix of Node, Bun and Deno) may share
 * it: each task's agent runs on the instance holding the task's lease, every write of that instance is
 * fenced by the lease's epoch, a terminal task never changes again, readers on any instance tail the
 * events table (woken by NOTIFY), and commands reach the lease holder through a table and NOTIFY.
 * PostgreSQL's row locks and conditional updates decide every race; the instances never talk directly.
 */
import { Clock, Duration, Effect, Option, Queue, Redacted, Schedule, Scope, Stream } from "effect"
import type { Cause } from "effect"
import type { Array as Arr } from "effect"
import { Reactivity } from "effect/reactivity"
import type { SqlError } from "effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import type { StreamResult, Task } from "../../../schemas/index.ts"
import type { Sequenced } from "../../runtime/event-log.ts"
import { CommandUnanswered, isTerminalTask, TaskStoreFailure, VersionConflict, WriteRefused } from "../../runtime/task-store.ts"
import type { CommandBody, SharedTasks, TaskListFilter, TaskRecord, TaskRecordInput, TaskStore } from "../../runtime/task-store.ts"
import { makeListTasks } from "./pg-list-tasks.ts"
import { checkSchemaName, migrate } from "./migrations.ts"

/** Options of {@link makePostgresTaskStore}. */
export interface PostgresTaskStoreOptions {
  /** Connection URL, e.g. `postgres://user:password@host:5432/db`. */
  readonly url: string
  /** Schema holding the tables (created when absent). Default `a2a`. */
  readonly schema?: string
  /** This instance's id among those sharing the schema. Default: a random UUID per start. */
  readonly instanceId?: string
  /**
   * How long a task's lease outlives its holder's last renewal (renewed every third of it). After that
   * another instance ends the task `failed`, or runs it again when the agent is `retrySafe`. Default 15 s.
   */
  readonly lease?: Duration.Input
  /** How long terminal tasks (with their events) stay after their last write. Default 7 days. */
  readonly terminalTtl?: Duration.Input
  /** Most connections of this instance's pool, one of them held for LISTEN. Default 10. */
  readonly maxConnections?: number
}

/** A store several instances share, with its PostgreSQL schema. */
export interface PostgresTaskStore extends TaskStore {
  readonly shared: SharedTasks
  readonly schema: string
}

const terminalList = `('completed', 'canceled', 'failed', 'rejected')`
/** Lease times come from the database clock, so instances never compare clocks of their own. */
const nowMs = `(extract(epoch from clock_timestamp()) * 1000)`

interface Row {
  readonly task: Task | string
  readonly owner: string
  readonly push_configs: TaskRecord["pushConfigs"] | string
  readonly version: number
  readonly updated_at: number
  readonly last_seq: number
  readonly lease_instance: string | null
  readonly lease_epoch: number
  readonly live: boolean | null
}

const recordColumns = `task, owner, push_configs, version, updated_at, last_seq, lease_instance, lease_epoch,
  (lease_until > ${nowMs}) AS live`

const json = <A>(value: A | string): A => (typeof value === "string" ? JSON.parse(value) as A : value)

const toRecord = (row: Row): TaskRecord => ({
  task: json(row.task),
  owner: row.owner,
  pushConfigs: json(row.push_configs),
  version: Number(row.version),
  updatedAt: Number(row.updated_at),
  lastSeq: Number(row.last_seq),
  ...(row.lease_instance === null
    ? {}
    : { lease: { instance: row.lease_instance, epoch: Number(row.lease_epoch), live: row.live === true } })
})

const failure = (what: string) => (cause: SqlError) =>
  new TaskStoreFailure({ message: `PostgreSQL task store: ${what} failed: ${cause.message}`, cause })

/** Wake-ups by key, set by NOTIFY: a waiter never misses one that came between its read and its wait. */
interface Waiter {
  woken: boolean
  wake: (() => void) | undefined
}

/**
 * Opens (and migrates) the store; it lives as long as the Scope: its pool, its LISTEN connection and
 * the fiber renewing this instance's leases.
 */
export const makePostgresTaskStore = (
  options: PostgresTaskStoreOptions
): Effect.Effect<PostgresTaskStore, TaskStoreFailure, Scope.Scope> =>
  Effect.gen(function*() {
    const schema = checkSchemaName(options.schema ?? "a2a")
    const s = schema
    const instanceId = options.instanceId ?? crypto.randomUUID()
    const leaseMs = Math.max(100, Duration.toMillis(Duration.fromInputUnsafe(options.lease ?? Duration.seconds(15))))
    const ttlMs = Duration.toMillis(Duration.fromInputUnsafe(options.terminalTtl ?? Duration.days(7)))
    const pollMs = Math.max(50, Math.min(1_000, Math.floor(leaseMs / 3)))
    const channel = `a2a_${schema}`
    const scope = yield* Effect.scope

    const sql = yield* PgClient.make({
      url: Redacted.make(options.url),
      maxConnections: options.maxConnections ?? 10,
      applicationName: `a2a-actors ${instanceId}`
    }).pipe(
      Effect.provide(Reactivity.layer),
      Effect.mapError(failure("connecting"))
    )
    yield* Effect.mapError(migrate(sql, schema), failure("migrating"))

    const query = <A extends object>(what: string, text: string, params: ReadonlyArray<unknown> = []) =>
      Effect.mapError(sql.unsafe<A>(text, params), failure(what))

    const waiters = new Map<string, Set<Waiter>>()
    const wakeKey = (key: string) => {
      const ws = waiters.get(key)
      if (ws === undefined) return
      for (const w of ws) {
        w.woken = true
        const wake = w.wake
        w.wake = undefined
        wake?.()
      }
    }
    const addWaiter = (key: string): Waiter => {
      const w: Waiter = { woken: false, wake: undefined }
      let ws = waiters.get(key)
      if (ws === undefined) waiters.set(key, ws = new Set())
      ws.add(w)
      return w
    }
    const removeWaiter = (key: string, w: Waiter) => {
      const ws = waiters.get(key)
      ws?.delete(w)
      if (ws?.size === 0) waiters.delete(key)
    }
    /** Waits until the waiter is woken or `pollMs` passed (the poll covers a notification lost with its connection). */
    const waitFor = (w: Waiter): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (w.woken) return Effect.void
        return Effect.asVoid(Effect.timeoutOption(
          Effect.callback<void>((resume) => {
            w.wake = () => resume(Effect.void)
            return Effect.sync(() => {
              w.wake = undefined
            })
          }),
          Duration.millis(pollMs)
        ))
      })

    // --- commands -------------------------------------------------------------------------------
    let handler: ((taskId: string, command: CommandBody) => Effect.Effect<CommandBody>) | undefined
    let taking = false
    let takeAgain = false
    const answer = (id: string, body: CommandBody) =>
      query("answering a command", `WITH u AS (UPDATE ${s}.commands SET answer = $2::json, answered_at = now() WHERE id = $1::bigint RETURNING id)
        SELECT pg_notify($3, 'a:' || id) FROM u`, [id, JSON.stringify(body), channel])
    /** Takes the commands waiting for this instance and answers each in a fiber of its own. */
    const takeCommands: Effect.Effect<void> = Effect.suspend(() => {
      const serve = handler
      if (serve === undefined) return Effect.void
      if (taking) {
        takeAgain = true
        return Effect.void
      }
      taking = true
      takeAgain = false
      return query<{ readonly id: string; readonly task_id: string; readonly body: CommandBody | string }>(
        "taking commands",
        `UPDATE ${s}.commands SET taken_at = now() WHERE target = $1 AND taken_at IS NULL RETURNING id::text, task_id, body`,
        [instanceId]
      ).pipe(
        Effect.flatMap((rows) =>
          Effect.forEach(rows, (row) =>
            Effect.forkIn(
              Effect.flatMap(serve(row.task_id, json(row.body)), (body) => answer(row.id, body)).pipe(
                Effect.catch((e) => Effect.logError(`command ${row.id} for task ${row.task_id} could not be answered`, e))
              ),
              scope
            ), { discard: true })
        ),
        Effect.catch((e) => Effect.logWarning("could not take commands", e)),
        Effect.ensuring(Effect.suspend(() => {
          taking = false
          return takeAgain ? takeCommands : Effect.void
        }))
      )
    })

    // --- LISTEN: one connection, one channel; payloads `e:<task>`, `c:<instance>`, `a:<command>` ----
    const onNotification = (payload: string) => {
      if (payload.startsWith("c:")) {
        if (payload.slice(2) === instanceId) Effect.runFork(takeCommands)
      } else if (payload.startsWith("e:")) {
        for (const id of payload.slice(2).split(",")) wakeKey(`e:${id}`)
      } else wakeKey(payload)
    }
    const listenOnce = Effect.scoped(Effect.gen(function*() {
      const queue = yield* sql.listen(channel)
      // Whatever happened while not listening: wake every waiter once, take waiting commands.
      for (const key of waiters.keys()) wakeKey(key)
      yield* Effect.forkScoped(takeCommands)
      while (true) {
        const n = yield* Queue.take(queue)
        onNotification(n.payload)
      }
    }))
    yield* Effect.forkIn(
      listenOnce.pipe(
        Effect.catch((e) => Effect.logWarning("PostgreSQL LISTEN connection lost; listening again", e)),
        Effect.repeat(Schedule.spaced(Duration.millis(pollMs)))
      ),
      scope
    )

    // --- lease renewal, command polling and expiry of old terminal tasks ----------------------------
    const renew = query<{ readonly id: string }>(
      "renewing leases",
      `UPDATE ${s}.tasks SET lease_until = ${nowMs} + $2::float8
        WHERE lease_instance = $1 AND state NOT IN ${terminalList} RETURNING id`,
      [instanceId, leaseMs]
    )
    const expire = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.andThen(
        query("expiring terminal tasks", `DELETE FROM ${s}.tasks WHERE state IN ${terminalList} AND updated_at < $1::float8`, [now - ttlMs]),
        query("expiring contexts", `DELETE FROM ${s}.contexts c WHERE claimed_at < $1::float8
          AND NOT EXISTS (SELECT 1 FROM ${s}.tasks t WHERE t.context_id = c.id)`, [now - ttlMs])
      ))
    const oldCommands = query("dropping old commands", `DELETE FROM ${s}.commands WHERE created_at < now() - interval '1 hour'`)
    // Expired tasks go at least every minute, and as often as they expire when the time to live is shorter.
    const housekeepEveryMs = Math.max(1, Math.min(ttlMs, 60_000))
    let lastHousekeeping = Number.NEGATIVE_INFINITY
    yield* Effect.forkIn(
      Effect.repeat(
        Effect.suspend(() => {
          const now = Date.now()
          const due = now - lastHousekeeping >= housekeepEveryMs
          if (due) lastHousekeeping = now
          const housekeeping = due ? Effect.andThen(expire, oldCommands) : Effect.void
          return Effect.all([renew, takeCommands, housekeeping], { discard: true }).pipe(
            Effect.catch((e) => Effect.logWarning("PostgreSQL task store: lease renewal failed", e))
          )
        }),
        Schedule.spaced(Duration.millis(Math.max(30, Math.floor(leaseMs / 3))))
      ),
      scope
    )

    // --- the TaskStore ----------------------------------------------------------------------------
    const get = (taskId: string) =>
      Effect.map(
        query<Row>("reading a task", `SELECT ${recordColumns} FROM ${s}.tasks WHERE id = $1`, [taskId]),
        (rows) => Option.map(Option.fromNullishOr(rows[0]), toRecord)
      )

    /**
     * Wakes the readers of a task's events on every instance. Sent after the write, in a statement of its
     * own: PostgreSQL serialises the commits of transactions that NOTIFY (a database-wide lock held through
     * the commit's WAL flush), so a NOTIFY inside each write would cap writes at one flush at a time.
     */
    // Tasks with new events, sent as one NOTIFY (`e:<id>,<id>,...`) per round trip: under load the ids of
    // many writes go out together.
    const toNotify = new Set<string>()
    let notifying = false
    const sendNotifications: Effect.Effect<void> = Effect.suspend(() => {
      if (toNotify.size === 0) {
        notifying = false
        return Effect.void
      }
      const payloads: Array<string> = []
      let payload = ""
      for (const id of toNotify) {
        // NOTIFY payloads are bounded (8000 bytes): a long list goes in several.
        if (payload !== "" && payload.length + id.length > 7_000) {
          payloads.push(payload)
          payload = ""
        }
        payload = payload === "" ? `e:${id}` : `${payload},${id}`
      }
      payloads.push(payload)
      toNotify.clear()
      return Effect.forEach(payloads, (p) => query("notifying readers", `SELECT pg_notify($1, $2)`, [channel, p]), { discard: true }).pipe(
        // Readers also poll: a lost wake-up only delays them.
        Effect.catch((e) => Effect.logWarning("could not notify readers of new events", e)),
        Effect.andThen(sendNotifications)
      )
    })
    const notifyEvents = (taskId: string, events: ReadonlyArray<unknown>) =>
      Effect.suspend(() => {
        if (events.length === 0) return Effect.void
        toNotify.add(taskId)
        if (notifying) return Effect.void
        notifying = true
        return Effect.asVoid(Effect.forkIn(sendNotifications, scope))
      })

    const insert = (input: TaskRecordInput, now: number) => {
      const task = input.task
      const events = input.events ?? []
      const terminal = isTerminalTask(task)
      return query<Row>("creating a task", `WITH ins AS (
          INSERT INTO ${s}.tasks (id, owner, context_id, state, version, task, push_configs, updated_at, last_seq,
            lease_instance, lease_epoch, lease_until)
          VALUES ($1, $2, $3, $4, 1, $5::json, $6::json, $7::float8, $8::int,
            CASE WHEN $9::boolean THEN NULL ELSE $10 END, 1, CASE WHEN $9::boolean THEN NULL ELSE ${nowMs} + $11::float8 END)
          ON CONFLICT (id) DO NOTHING
          RETURNING ${recordColumns}
        ), ctx AS (
          INSERT INTO ${s}.contexts (id, owner, claimed_at) SELECT $3, $2, $7::float8 WHERE EXISTS (SELECT 1 FROM ins)
          ON CONFLICT (id) DO NOTHING
        ), ev AS (
          INSERT INTO ${s}.events (task_id, seq, event)
          SELECT $1, (e->>'seq')::int, e->'event' FROM json_array_elements($12::json) e WHERE EXISTS (SELECT 1 FROM ins)
        )
        SELECT ins.* FROM ins`, [
        task.id, input.owner, task.contextId, task.status.state, JSON.stringify(task), JSON.stringify(input.pushConfigs),
        now, lastSeqOf(input), terminal, instanceId, leaseMs, JSON.stringify(events)
      ]).pipe(Effect.flatMap((rows) => {
        const row = rows[0]
        if (row === undefined) return Effect.flatMap(get(task.id), (r) => Effect.fail(conflictOf(task.id, 0, r)))
        return Effect.as(notifyEvents(task.id, events), toRecord(row))
      }))
    }

    const conflictOf = (taskId: string, expected: number, found: Option.Option<TaskRecord>) =>
      new VersionConflict({ taskId, expected, actual: Option.match(found, { onNone: () => 0, onSome: (r) => r.version }) })

    const update = (input: TaskRecordInput, expectedVersion: number, now: number) => {
      const task = input.task
      const events = input.events ?? []
      const terminal = isTerminalTask(task)
      const epoch = input.leaseEpoch ?? 0
      const taskJson = JSON.stringify(task)
      return query<Row>("writing a task", `WITH upd AS (
          UPDATE ${s}.tasks SET owner = $2, context_id = $3, state = $4, version = version + 1, task = $5::json,
            push_configs = $6::json, updated_at = $7::float8, last_seq = GREATEST(last_seq, $8::int),
            lease_instance = CASE WHEN $9::boolean THEN NULL ELSE lease_instance END,
            lease_until = CASE WHEN $9::boolean THEN NULL ELSE lease_until END
          WHERE id = $1 AND version = $13::int
            AND (state NOT IN ${terminalList} OR task::jsonb = $5::jsonb)
            AND (CASE WHEN $14::int > 0 THEN lease_instance IS NOT DISTINCT FROM $10 AND lease_epoch = $14::int
              ELSE lease_instance IS NULL OR lease_until < ${nowMs} OR lease_instance = $10 END)
          RETURNING ${recordColumns.replace("(lease_until", "(tasks.lease_until")}
        ), ev AS (
          INSERT INTO ${s}.events (task_id, seq, event)
          SELECT $1, (e->>'seq')::int, e->'event' FROM json_array_elements($12::json) e WHERE EXISTS (SELECT 1 FROM upd)
        )
        SELECT upd.* FROM upd`, [
        task.id, input.owner, task.contextId, task.status.state, taskJson, JSON.stringify(input.pushConfigs),
        now, lastSeqOf(input), terminal, instanceId, leaseMs, JSON.stringify(events), expectedVersion, epoch
      ]).pipe(Effect.flatMap((rows) => {
        const row = rows[0]
        if (row !== undefined) {
          return Effect.as(notifyEvents(task.id, events), toRecord(row))
        }
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

    const put = (input: TaskRecordInput, expectedVersion: number): Effect.Effect<TaskRecord, VersionConflict | WriteRefused | TaskStoreFailure> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        expectedVersion === 0 ? insert(input, now) : update(input, expectedVersion, now))

    const list = (filter?: TaskListFilter) =>
      Effect.map(
        query<Row>("listing tasks", `SELECT ${recordColumns} FROM ${s}.tasks
          WHERE ($1::text IS NULL OR owner = $1) AND ($2::text IS NULL OR context_id = $2) ORDER BY updated_at, id`,
        [filter?.owner ?? null, filter?.contextId ?? null]),
        (rows) => rows.map(toRecord)
      )

    const remove = (taskId: string) =>
      Effect.map(query<{ readonly id: string }>("deleting a task", `DELETE FROM ${s}.tasks WHERE id = $1 RETURNING id`, [taskId]), (rows) =>
        rows.length > 0)

    const claimContext = (contextId: string, owner: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.map(
          // DO UPDATE (to the same owner) rather than DO NOTHING: it waits for a concurrent claim and returns its winner.
          query<{ readonly owner: string }>("claiming a context", `INSERT INTO ${s}.contexts (id, owner, claimed_at) VALUES ($1, $2, $3::float8)
            ON CONFLICT (id) DO UPDATE SET claimed_at = GREATEST(${s}.contexts.claimed_at, EXCLUDED.claimed_at) RETURNING owner`,
          [contextId, owner, now]),
          (rows) => rows[0]!.owner
        ))

    // --- shared: leases, events, commands -----------------------------------------------------
    const takeOver = (taskId: string) =>
      Effect.map(
        query<Row>("taking a task over", `UPDATE ${s}.tasks SET lease_instance = $2, lease_epoch = lease_epoch + 1,
            lease_until = ${nowMs} + $3::float8
          WHERE id = $1 AND state NOT IN ${terminalList} AND (lease_instance IS NULL OR lease_until < ${nowMs} OR lease_instance = $2)
          RETURNING ${recordColumns}`, [taskId, instanceId, leaseMs]),
        (rows) => {
          const row = rows[0]
          return row === undefined ? Option.none<TaskRecord>() : Option.some(toRecord(row))
        }
      )

    const expiredLeases = Effect.map(
      query<{ readonly id: string }>("finding expired leases", `SELECT id FROM ${s}.tasks
        WHERE state NOT IN ${terminalList} AND lease_instance IS NOT NULL AND lease_until < ${nowMs} ORDER BY updated_at LIMIT 100`),
      (rows) => rows.map((r) => r.id)
    )

    const releaseLease = (taskId: string, epoch: number) =>
      Effect.asVoid(query("releasing a lease", `UPDATE ${s}.tasks SET lease_instance = NULL, lease_until = NULL
        WHERE id = $1 AND lease_instance = $2 AND lease_epoch = $3::int`, [taskId, instanceId, epoch]))

    const events = (taskId: string, after: number): Stream.Stream<Sequenced<StreamResult>, TaskStoreFailure> =>
      Stream.unwrap(Effect.gen(function*() {
        const key = `e:${taskId}`
        const waiter = yield* Effect.acquireRelease(Effect.sync(() => addWaiter(key)), (w) => Effect.sync(() => removeWaiter(key, w)))
        let cursor = after
        const pull: Effect.Effect<Arr.NonEmptyReadonlyArray<Sequenced<StreamResult>>, TaskStoreFailure | Cause.Done> = Effect.suspend(() => {
          waiter.woken = false
          return Effect.flatMap(
            query<{ readonly seq: number; readonly event: StreamResult | string }>(
              "reading events",
              `SELECT seq, event FROM ${s}.events WHERE task_id = $1 AND seq > $2::int ORDER BY seq LIMIT 512`,
              [taskId, cursor]
            ).pipe(
              // A reader outlives a brief outage (a dropped connection, a restarting server) without a gap.
              Effect.retry({ times: 6, schedule: Schedule.exponential(Duration.millis(50)) })
            ),
            (rows) => {
              if (rows.length === 0) return Effect.andThen(waitFor(waiter), pull)
              const out = rows.map((r) => ({ seq: Number(r.seq), event: json(r.event) }))
              cursor = out[out.length - 1]!.seq
              return Effect.succeed(out as unknown as Arr.NonEmptyReadonlyArray<Sequenced<StreamResult>>)
            }
          )
        })
        return Stream.fromPull(Effect.succeed(pull))
      }))

    const leaseLive = (instance: string, taskId: string) =>
      Effect.map(
        query<{ readonly live: boolean }>("checking a lease", `SELECT (lease_until > ${nowMs}) AS live FROM ${s}.tasks
          WHERE id = $1 AND lease_instance = $2`, [taskId, instance]),
        (rows) => rows[0]?.live === true
      )

    const send = (instance: string, taskId: string, command: CommandBody) =>
      Effect.gen(function*() {
        const rows = yield* query<{ readonly id: string }>("sending a command", `WITH c AS (
            INSERT INTO ${s}.commands (target, task_id, body) VALUES ($1, $2, $3::json) RETURNING id
          ) SELECT id::text, pg_notify($4, 'c:' || $1) FROM c`, [instance, taskId, JSON.stringify(command), channel])
        const id = rows[0]!.id
        const key = `a:${id}`
        const waiter = addWaiter(key)
        return yield* Effect.gen(function*() {
          // When the holder's lease ended after it took the command (the task just became terminal, which drops
          // the lease), its answer is on the way: wait for it up to one more lease, not for ever.
          let goneSince: number | undefined
          const readAnswer = Effect.map(
            query<{ readonly answer: CommandBody | string | null; readonly taken: boolean }>(
              "reading an answer",
              `SELECT answer, taken_at IS NOT NULL AS taken FROM ${s}.commands WHERE id = $1::bigint`,
              [id]
            ),
            (found) => found[0]
          )
          while (true) {
            waiter.woken = false
            let row = yield* readAnswer
            if (row !== undefined && row.answer !== null) {
              yield* query("dropping an answered command", `DELETE FROM ${s}.commands WHERE id = $1::bigint`, [id])
              return json<CommandBody>(row.answer)
            }
            const live = yield* leaseLive(instance, taskId)
            // A lease that ended since the answer was read may have ended with the answer (a command that made
            // the task terminal drops its lease): read it again before taking the holder for gone.
            if (!live) {
              row = yield* readAnswer
              if (row !== undefined && row.answer !== null) {
                yield* query("dropping an answered command", `DELETE FROM ${s}.commands WHERE id = $1::bigint`, [id])
                return json<CommandBody>(row.answer)
              }
            }
            const now = Date.now()
            if (live) goneSince = undefined
            else goneSince ??= now
            if (!live && (row === undefined || !row.taken || now - (goneSince ?? now) >= leaseMs)) {
              // The holder stopped or let go: it will not answer any more (a late answer is ignored).
              yield* query("dropping an unanswered command", `DELETE FROM ${s}.commands WHERE id = $1::bigint`, [id])
              return yield* Effect.fail(new CommandUnanswered({
                taskId,
                message: `instance ${instance} no longer runs task ${taskId} and did not answer`
              }))
            }
            yield* waitFor(waiter)
          }
        }).pipe(Effect.ensuring(Effect.sync(() => removeWaiter(key, waiter))))
      })

    const serve = (f: (taskId: string, command: CommandBody) => Effect.Effect<CommandBody>) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          handler = f
          Effect.runFork(takeCommands)
        }),
        () => Effect.sync(() => {
          handler = undefined
        })
      )

    const shared: SharedTasks = { instanceId, leaseMs, takeOver, expiredLeases, releaseLease, events, send, serve }
    return { get, put, list, listTasks: makeListTasks(query, s), delete: remove, claimContext, shared, schema }
  })

const lastSeqOf = (input: TaskRecordInput): number => {
  const events = input.events
  return events === undefined || events.length === 0 ? 0 : events[events.length - 1]!.seq
}
