/**
 * What every part of the PostgreSQL store shares: the client, the schema, this instance's id and lease,
 * and one way to run a statement (its failure a {@link TaskStoreFailure} naming what was being done).
 */
import { Duration, Effect, Schedule } from "effect"
import type { Scope } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import type * as PgClient from "@effect/sql-pg/PgClient"
import { TaskStoreFailure } from "../../runtime/task-store.ts"

/** The states after which a task never changes, as an SQL list. */
export const terminalList = `('completed', 'canceled', 'failed', 'rejected')`
/** The states of a task waiting for its user, as an SQL list. */
export const waitingList = `('input-required', 'auth-required')`
/** Lease times come from the database clock, so instances never compare clocks of their own. */
export const nowMs = `(extract(epoch from clock_timestamp()) * 1000)`

/** A JSON column as the client hands it over: parsed already, or as text. */
export const json = <A>(value: A | string): A => (typeof value === "string" ? JSON.parse(value) as A : value)

/** The store's connection and identity, shared by its parts. */
export interface StoreDb {
  readonly sql: PgClient.PgClient
  readonly schema: string
  /** NOTIFY channel of this schema. */
  readonly channel: string
  readonly instanceId: string
  readonly leaseMs: number
  /** How often a waiter looks again when no notification came (a notification can be lost with its connection). */
  readonly pollMs: number
  /** The store's Scope: background fibers belong to it. */
  readonly scope: Scope.Scope
  /** Runs one statement; `what` names it in the failure. */
  readonly query: <A extends object>(what: string, text: string, params?: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, TaskStoreFailure>
}

/** A failure of the store, naming what it was doing; the SQL error stays in `cause` (and in logs), never on the wire. */
export const storeFailure = (what: string) => (cause: SqlError) =>
  new TaskStoreFailure({ message: `PostgreSQL task store: ${what} failed: ${cause.message}`, cause })

/**
 * Whether a statement failed because its connection did (dropped, or ended by the server, as an
 * administrator's `pg_terminate_backend` or a restart does) or lost a race PostgreSQL itself resolves
 * (deadlock, serialization): the same statement may succeed on another connection.
 */
export const isTransient = (error: SqlError): boolean => {
  if (error.isRetryable) return true
  const code = (error.reason.cause as { readonly code?: unknown } | undefined)?.code
  // 57P01-57P03: the server ended the connection (admin shutdown, crash shutdown, cannot connect now).
  return typeof code === "string" && (code.startsWith("08") || code.startsWith("57P"))
}

/**
 * How a statement that failed with its connection is retried: five more times, from 20 ms doubling (about
 * 600 ms in all), long enough for the pool to open a new connection, short enough for a request to wait.
 * Every statement of the store may run twice: each one is written so that running it again after it
 * took effect changes nothing more (see task-rows.ts, leases.ts and commands.ts).
 */
const transientRetry = { times: 5, schedule: Schedule.exponential(Duration.millis(20)), while: isTransient } as const

/** The {@link StoreDb} of a client. */
export const makeStoreDb = (
  sql: PgClient.PgClient,
  fields: Omit<StoreDb, "sql" | "query" | "channel">
): StoreDb => ({
  ...fields,
  sql,
  channel: `a2a_${fields.schema}`,
  query: <A extends object>(what: string, text: string, params: ReadonlyArray<unknown> = []) =>
    sql.unsafe<A>(text, params).pipe(Effect.retry(transientRetry), Effect.mapError(storeFailure(what)))
})
