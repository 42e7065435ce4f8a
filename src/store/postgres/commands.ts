/**
 * Commands between instances on PostgreSQL: a request for the instance running a task (cancel, a
 * follow-up message, a push-config change) is a row for that instance and a NOTIFY; its answer comes back
 * in the same row. Each instance says it is alive in `instances` (renewed every third of a lease): a sender
 * waits for an answer while its target is alive, and withdraws a command only if nobody took it, in one
 * conditional delete. A target that took a command always answers it, so no command is ever both run
 * and reported unanswered.
 */
import { Duration, Effect, Schedule } from "effect"
import type { Scope } from "effect"
import { CommandUnanswered } from "../../runtime/task-store.ts"
import type { CommandBody, SharedHandlers, TaskStoreFailure } from "../../runtime/task-store.ts"
import type { Wakeups } from "./notifications.ts"
import { json, nowMs } from "./store-db.ts"
import type { StoreDb } from "./store-db.ts"

export interface Commands {
  readonly send: (instance: string, taskId: string, command: CommandBody) => Effect.Effect<CommandBody, TaskStoreFailure | CommandUnanswered>
  readonly serve: (handlers: SharedHandlers) => Effect.Effect<void, never, Scope.Scope>
  /** Takes and answers the commands waiting for this instance (on NOTIFY, and on every heartbeat). */
  readonly take: Effect.Effect<void>
  /** Tells the other instances that this one is alive, for one more lease. */
  readonly heartbeat: Effect.Effect<void, TaskStoreFailure>
  /** Says this instance is gone: senders waiting for it give up at once. */
  readonly leave: Effect.Effect<void, TaskStoreFailure>
  /** The handlers registered with `serve`, if any. */
  readonly handlers: () => SharedHandlers | undefined
}

export const makeCommands = (db: StoreDb, wakeups: Wakeups): Commands => {
  const s = db.schema
  const { channel, instanceId, leaseMs, query } = db
  let handlers: SharedHandlers | undefined
  let taking = false
  let takeAgain = false
  // Commands being served here: a take passes them over, and takes every other unanswered one.
  const serving = new Set<string>()

  const answer = (id: string, body: CommandBody) =>
    query("answering a command", `WITH u AS (UPDATE ${s}.commands SET answer = $2::json, answered_at = now() WHERE id = $1::bigint RETURNING id)
      SELECT pg_notify($3, 'a:' || id) FROM u`, [id, JSON.stringify(body), channel])

  const take: Effect.Effect<void> = Effect.suspend(() => {
    const serve = handlers?.command
    if (serve === undefined) return Effect.void
    if (taking) {
      takeAgain = true
      return Effect.void
    }
    taking = true
    takeAgain = false
    return query<{ readonly id: string; readonly task_id: string; readonly body: CommandBody | string }>(
      "taking commands",
      `UPDATE ${s}.commands SET taken_at = coalesce(taken_at, now())
        WHERE target = $1 AND answered_at IS NULL AND NOT (id::text = ANY($2::text[])) RETURNING id::text, task_id, body`,
      [instanceId, [...serving]]
    ).pipe(
      Effect.flatMap((rows) =>
        Effect.forEach(rows, (row) => {
          if (serving.has(row.id)) return Effect.void
          serving.add(row.id)
          return Effect.forkIn(
            // Once taken, a command is answered: the sender waits for this answer for as long as this instance lives.
            Effect.flatMap(serve(row.task_id, json(row.body)), (body) => answer(row.id, body)).pipe(
              Effect.retry({ times: 5, schedule: Schedule.exponential(Duration.millis(50)) }),
              Effect.catch((e) => Effect.logError(`task ${row.task_id}: the answer to command ${row.id} could not be stored; it is taken again`, e)),
              Effect.ensuring(Effect.sync(() => serving.delete(row.id)))
            ),
            db.scope
          )
        }, { discard: true })
      ),
      Effect.catch((e) => Effect.logWarning("could not take commands", e)),
      Effect.ensuring(Effect.suspend(() => {
        taking = false
        return takeAgain ? take : Effect.void
      }))
    )
  })

  const alive = (instance: string) =>
    Effect.map(
      query<{ readonly alive: boolean }>("checking an instance", `SELECT alive_until > ${nowMs} AS alive FROM ${s}.instances WHERE id = $1`, [instance]),
      (rows) => rows[0]?.alive === true
    )

  const unanswered = (instance: string, taskId: string, taken: boolean) =>
    new CommandUnanswered({ taskId, taken, message: `instance ${instance} stopped before answering a command about task ${taskId}` })

  const send = (instance: string, taskId: string, command: CommandBody) =>
    Effect.gen(function*() {
      // Keyed, so that the insert run again after it took effect (its answer lost) sends nothing twice.
      const key = crypto.randomUUID()
      const rows = yield* query<{ readonly id: string }>("sending a command", `WITH c AS (
          INSERT INTO ${s}.commands (target, task_id, body, request_key) VALUES ($1, $2, $3::json, $5)
          ON CONFLICT (request_key) DO NOTHING RETURNING id
        ), sent AS (
          SELECT id FROM c UNION ALL SELECT id FROM ${s}.commands WHERE request_key = $5 AND NOT EXISTS (SELECT 1 FROM c)
        ) SELECT id::text, pg_notify($4, 'c:' || $1) FROM sent`, [instance, taskId, JSON.stringify(command), channel, key])
      const id = rows[0]!.id
      const answerKey = `a:${id}`
      const waiter = wakeups.add(answerKey)
      const drop = query("dropping a command", `DELETE FROM ${s}.commands WHERE id = $1::bigint`, [id])
      return yield* Effect.gen(function*() {
        while (true) {
          waiter.woken = false
          const found = yield* query<{ readonly answer: CommandBody | string | null; readonly taken: boolean }>(
            "reading an answer",
            `SELECT answer, taken_at IS NOT NULL AS taken FROM ${s}.commands WHERE id = $1::bigint`,
            [id]
          )
          const row = found[0]
          if (row === undefined) return yield* Effect.fail(unanswered(instance, taskId, true))
          if (row.answer !== null) {
            yield* drop
            return json<CommandBody>(row.answer)
          }
          if (!(yield* alive(instance))) {
            // The target is gone. Withdraw the command if nobody took it: then nobody ever will.
            const withdrawn = yield* query("withdrawing a command", `DELETE FROM ${s}.commands WHERE id = $1::bigint AND taken_at IS NULL RETURNING id`, [id])
            if (withdrawn.length > 0) return yield* Effect.fail(unanswered(instance, taskId, false))
            // Taken: read once more, for an answer written just before the target went.
            const last = yield* query<{ readonly answer: CommandBody | string | null }>("reading an answer", `SELECT answer FROM ${s}.commands WHERE id = $1::bigint`, [id])
            yield* drop
            const late = last[0]?.answer
            if (late !== undefined && late !== null) return json<CommandBody>(late)
            return yield* Effect.fail(unanswered(instance, taskId, true))
          }
          yield* wakeups.wait(waiter)
        }
      }).pipe(Effect.ensuring(Effect.sync(() => wakeups.remove(answerKey, waiter))))
    })

  return {
    send,
    take,
    handlers: () => handlers,
    serve: (h) =>
      Effect.acquireRelease(
        Effect.andThen(Effect.sync(() => {
          handlers = h
        }), Effect.forkIn(take, db.scope)),
        () => Effect.sync(() => {
          handlers = undefined
        })
      ).pipe(Effect.asVoid),
    heartbeat: Effect.asVoid(query("saying this instance is alive", `INSERT INTO ${s}.instances (id, alive_until) VALUES ($1, ${nowMs} + $2::float8)
      ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until`, [instanceId, leaseMs])),
    leave: Effect.asVoid(query("saying this instance is gone", `DELETE FROM ${s}.instances WHERE id = $1`, [instanceId]))
  }
}
