/**
 * What every part of the PostgreSQL store shares: the client, the schema, this instance's id and lease,
 * and one way to run a statement (its failure a {@link TaskStoreFailure} naming what was being done).
 */
import { Effect } from "effect"
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

/** The {@link StoreDb} of a client. */
export const makeStoreDb = (
  sql: PgClient.PgClient,
  fields: Omit<StoreDb, "sql" | "query" | "channel">
): StoreDb => ({
  ...fields,
  sql,
  channel: `a2a_${fields.schema}`,
  query: <A extends object>(what: string, text: string, params: ReadonlyArray<unknown> = []) =>
    Effect.mapError(sql.unsafe<A>(text, params), storeFailure(what))
})
