/**
 * `a2a-actors/postgres`: tasks on PostgreSQL, shared by any number of instances. Needs the optional peer
 * `@effect/sql-pg`.
 *
 * @example
 * ```ts
 * import { postgresStore } from "a2a-actors/postgres"
 * const server = await A2AServer.make(agent, { runtime: { store: postgresStore({ url: "postgres://..." }) } })
 * ```
 */
import "../../../schemas/internal/effect-version.ts"
import "./sql-pg-version.ts"
import type { Effect, Scope } from "effect"
import type { TaskStore, TaskStoreFailure } from "../../runtime/task-store.ts"
import type * as PgTaskStore from "./pg-task-store.ts"
import type { PostgresTaskStoreOptions } from "./pg-task-store.ts"

export type { PostgresTaskStore, PostgresTaskStoreOptions } from "./pg-task-store.ts"
export { migrations } from "./migrations.ts"

// Loaded once sql-pg-version.ts has checked @effect/sql-pg: a static import of the store (which imports it)
// would fail while modules are linked, with a bare ERR_MODULE_NOT_FOUND, before the check could say what to install.
const store: typeof PgTaskStore = await import("./pg-task-store.ts")

/**
 * Opens (and migrates) the store; it lives as long as the Scope: its pool, its LISTEN connection and the fiber
 * renewing this instance's leases.
 */
export const makePostgresTaskStore: typeof PgTaskStore.makePostgresTaskStore = store.makePostgresTaskStore

/** The store as the runtime's `store` option takes it: opened with the runtime, closed with it. */
export const postgresStore = (options: PostgresTaskStoreOptions): Effect.Effect<TaskStore, TaskStoreFailure, Scope.Scope> =>
  makePostgresTaskStore(options)

/**
 * Options from the environment: `A2A_DATABASE_URL` (none: undefined, keep the in-memory store),
 * `A2A_DATABASE_SCHEMA` (default `a2a`), `A2A_LEASE_MS` (default 15000) and `A2A_INSTANCE_ID`.
 */
export const postgresOptionsFromEnv = (
  env: Readonly<Record<string, string | undefined>>
): PostgresTaskStoreOptions | undefined => {
  const url = env["A2A_DATABASE_URL"]
  if (url === undefined || url === "") return undefined
  const lease = env["A2A_LEASE_MS"]
  if (lease !== undefined && !(Number(lease) > 0)) throw new Error(`A2A_LEASE_MS must be a positive number of milliseconds, got ${JSON.stringify(lease)}`)
  return {
    url,
    ...(env["A2A_DATABASE_SCHEMA"] ? { schema: env["A2A_DATABASE_SCHEMA"] } : {}),
    ...(lease !== undefined ? { lease: Number(lease) } : {}),
    ...(env["A2A_INSTANCE_ID"] ? { instanceId: env["A2A_INSTANCE_ID"] } : {})
  }
}

