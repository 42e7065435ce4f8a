/**
 * The PostgreSQL store's tables, created and upgraded by the library itself. Migrations run in one
 * transaction under a transaction-level advisory lock keyed by the schema: instances that start together
 * wait for each other, and each migration runs exactly once.
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { listTasksIndex } from "./pg-list-tasks.ts"

/** One step of the schema, applied once in order; never edit a released one, add the next. */
interface Migration {
  readonly id: number
  readonly name: string
  readonly statements: (schema: string) => ReadonlyArray<string>
}

const terminal = `('completed', 'canceled', 'failed', 'rejected')`

export const migrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "tasks, contexts, events, commands",
    statements: (s) => [
      `CREATE TABLE ${s}.tasks (
        id text PRIMARY KEY,
        owner text NOT NULL,
        context_id text NOT NULL,
        state text NOT NULL,
        version integer NOT NULL,
        task jsonb NOT NULL,
        push_configs jsonb NOT NULL,
        updated_at double precision NOT NULL,
        last_seq integer NOT NULL DEFAULT 0,
        lease_instance text,
        lease_epoch integer NOT NULL DEFAULT 0,
        lease_until double precision
      )`,
      `CREATE INDEX tasks_owner ON ${s}.tasks (owner, updated_at)`,
      `CREATE INDEX tasks_context ON ${s}.tasks (context_id)`,
      `CREATE INDEX tasks_leased ON ${s}.tasks (lease_instance, lease_until) WHERE state NOT IN ${terminal}`,
      `CREATE INDEX tasks_terminal ON ${s}.tasks (updated_at) WHERE state IN ${terminal}`,
      `CREATE TABLE ${s}.contexts (id text PRIMARY KEY, owner text NOT NULL, claimed_at double precision NOT NULL)`,
      `CREATE TABLE ${s}.events (
        task_id text NOT NULL REFERENCES ${s}.tasks (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        event jsonb NOT NULL,
        PRIMARY KEY (task_id, seq)
      )`,
      `CREATE TABLE ${s}.commands (
        id bigserial PRIMARY KEY,
        target text NOT NULL,
        task_id text NOT NULL,
        body jsonb NOT NULL,
        answer jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        taken_at timestamptz,
        answered_at timestamptz
      )`,
      `CREATE INDEX commands_pending ON ${s}.commands (target) WHERE taken_at IS NULL`
    ]
  },
  {
    id: 2,
    name: "tasks and events kept as written (json, not jsonb: the key order a client saw stays)",
    statements: (s) => [
      `ALTER TABLE ${s}.tasks ALTER COLUMN task TYPE json USING task::json,
        ALTER COLUMN push_configs TYPE json USING push_configs::json`,
      `ALTER TABLE ${s}.events ALTER COLUMN event TYPE json USING event::json`
    ]
  },
  {
    id: 3,
    name: "commands and their answers kept as written (an answer is the Task a client gets)",
    statements: (s) => [
      `ALTER TABLE ${s}.commands ALTER COLUMN body TYPE json USING body::json,
        ALTER COLUMN answer TYPE json USING answer::json`
    ]
  },
  {
    id: 4,
    name: "an owner's tasks by status time, newest first (A2A 1.0 ListTasks pages through it)",
    // As released; migration 5 replaces this index (an expression over the stored JSON) with a column's.
    statements: (s) => [`CREATE INDEX tasks_owner_status_at ON ${s}.tasks (owner, (coalesce(task->'status'->>'timestamp', '')) DESC, id DESC)`]
  },
  {
    id: 5,
    name: "instances alive, agents' saved state, bounded events and housekeeping in batches",
    statements: (s) => [
      // Senders of commands wait for an answer while the target instance is alive.
      `CREATE TABLE ${s}.instances (id text PRIMARY KEY, alive_until double precision NOT NULL)`,
      // What an agent keeps to resume a task on any instance (a workflow's machine), never sent to clients.
      `ALTER TABLE ${s}.tasks ADD COLUMN saved json, ADD COLUMN events_compacted boolean NOT NULL DEFAULT false`,
      `CREATE INDEX tasks_events_kept ON ${s}.tasks (updated_at) WHERE state IN ${terminal} AND NOT events_compacted`,
      `CREATE INDEX tasks_waiting ON ${s}.tasks (owner, updated_at) WHERE state IN ('input-required', 'auth-required')`,
      `CREATE INDEX tasks_waiting_idle ON ${s}.tasks (updated_at) WHERE state IN ('input-required', 'auth-required')`,
      `CREATE INDEX commands_answered ON ${s}.commands (answered_at) WHERE answered_at IS NOT NULL`,
      `CREATE INDEX commands_created ON ${s}.commands (created_at)`,
      // A command is sent once even when its insert runs again after a lost answer; its target takes
      // every command it has not answered (a take whose answer was lost is taken again).
      `ALTER TABLE ${s}.commands ADD COLUMN request_key text`,
      `CREATE UNIQUE INDEX commands_request_key ON ${s}.commands (request_key)`,
      `CREATE INDEX commands_unanswered ON ${s}.commands (target) WHERE answered_at IS NULL`,
      // The status time ListTasks sorts by, as a column every write sets: an index over an expression of the
      // stored JSON made PostgreSQL expand it on every write, and refuse any Task holding U+0000 or a lone
      // surrogate (valid JSON, kept as sent here).
      `ALTER TABLE ${s}.tasks ADD COLUMN status_at text NOT NULL DEFAULT ''`,
      `UPDATE ${s}.tasks SET status_at = coalesce(task->'status'->>'timestamp', '')`,
      `DROP INDEX ${s}.tasks_owner_status_at`,
      listTasksIndex(s)
    ]
  }
]

/** A schema name the store accepts: a plain lower-case SQL identifier, so it needs no quoting anywhere. */
export const checkSchemaName = (schema: string): string => {
  if (!/^[a-z_][a-z0-9_]{0,39}$/.test(schema)) {
    throw new Error(`PostgreSQL schema name must be 1-40 characters of a-z, 0-9 and _, not starting with a digit, got ${JSON.stringify(schema)}`)
  }
  return schema
}

/** Creates the schema and applies the migrations it lacks; returns the ids applied now. */
export const migrate = (sql: SqlClient, schema: string): Effect.Effect<ReadonlyArray<number>, SqlError> =>
  sql.withTransaction(
    Effect.gen(function*() {
      yield* sql.unsafe(`SELECT pg_advisory_xact_lock(hashtext($1)::bigint)`, [`a2a-actors:${schema}`])
      yield* sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
      yield* sql.unsafe(`CREATE TABLE IF NOT EXISTS ${schema}.a2a_migrations (
        id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
      const rows = yield* sql.unsafe<{ readonly id: number }>(`SELECT id FROM ${schema}.a2a_migrations`)
      const done = new Set(rows.map((r) => Number(r.id)))
      const applied: Array<number> = []
      for (const m of migrations) {
        if (done.has(m.id)) continue
        for (const statement of m.statements(schema)) yield* sql.unsafe(statement)
        yield* sql.unsafe(`INSERT INTO ${schema}.a2a_migrations (id, name) VALUES ($1, $2)`, [m.id, m.name])
        applied.push(m.id)
      }
      return applied
    })
  )
