/**
 * Commands between instances on PostgreSQL, at the store's level: the sender of a command gets the
 * answer of the instance that took it, however that instance's lease on the task changes meanwhile, and
 * gives up only on a command that provably no instance took.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { sampleTask } from "../../../testing/runtime/task-store-suite.ts"
import { databaseUrl, requirePostgres, testQuery, testSchema, testStore } from "../../../testing/store/postgres.ts"

/** Polls `check` until it holds (every 10 ms, for at most `ms`). */
const until = (check: Effect.Effect<boolean, unknown>, ms = 5_000): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    while (!(yield* check)) {
      if (Date.now() > deadline) return yield* Effect.fail(new Error(`not within ${ms} ms`))
      yield* Effect.sleep("10 millis")
    }
  })

describe("commands on PostgreSQL", () => {
  requirePostgres()

  it.live("the sender gets the answer of a command taken while it looked at the holder's lease, though the command ended the task", () =>
    Effect.gen(function*() {
      const schema = yield* testSchema
      // The holder is alive (its store runs) and holds the task's lease; the sender sends it a cancel.
      const holder = yield* testStore({ schema, instanceId: "holder", lease: "10 seconds" })
      const sender = yield* testStore({ schema, instanceId: "sender", lease: "10 seconds" })
      const id = `cmd-${crypto.randomUUID()}`
      yield* holder.put({ task: sampleTask(id), owner: "a", pushConfigs: [] }, 0)

      // A session of the test's own holds the tables that say whether the holder still runs the task, so
      // the sender's look at them waits. Meanwhile, in that session, the holder takes the command, cancels
      // the task (which drops its lease, as every terminal write does) and answers; then the session ends.
      const sql = yield* Effect.provide(PgClient.make({ url: Redacted.make(databaseUrl()), maxConnections: 1 }), Reactivity.layer)
      const answer = yield* sql.withTransaction(Effect.gen(function*() {
        const tables = yield* sql.unsafe<{ readonly name: string }>(
          `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_name IN ('tasks', 'instances')`,
          [schema]
        )
        yield* sql.unsafe(`LOCK TABLE ${tables.map((t) => `${schema}.${t.name}`).join(", ")} IN ACCESS EXCLUSIVE MODE`)
        // Nothing serves commands on the holder's store (no handler): the session plays its part.
        const sending = yield* Effect.forkChild(sender.shared.send("holder", id, { kind: "cancel" }))
        // The sender has sent the command and its look (a read: its other statements write) waits for the lock.
        yield* until(Effect.map(
          testQuery<{ readonly n: string }>(`SELECT count(*)::text AS n FROM pg_stat_activity
            WHERE application_name = 'a2a-actors sender' AND wait_event_type = 'Lock' AND ltrim(query) ILIKE 'select%'`),
          (rows) => Number(rows[0]!.n) > 0
        ))
        const taken = yield* sql.unsafe<{ readonly id: string }>(
          `UPDATE ${schema}.commands SET taken_at = now(), answer = '{"task":"canceled"}'::json, answered_at = now()
            WHERE target = 'holder' RETURNING id::text`
        )
        expect(taken).toHaveLength(1)
        yield* sql.unsafe(`UPDATE ${schema}.tasks SET state = 'canceled', lease_instance = NULL, lease_until = NULL WHERE id = $1`, [id])
        return sending
      })).pipe(Effect.flatMap(Fiber.join))
      expect(answer).toEqual({ task: "canceled" })
    }), 30_000)
})
