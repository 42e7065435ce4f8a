/**
 * The task store the environment names, for the example servers: PostgreSQL when `A2A_DATABASE_URL` is
 * set (schema `A2A_DATABASE_SCHEMA`, default `a2a`; lease `A2A_LEASE_MS`, default 15000), otherwise none,
 * which keeps the embedded in-memory store.
 */
import type { TaskRuntimeOptions } from "../src/runtime/task-runtime.ts"
import { postgresOptionsFromEnv, postgresStore } from "../src/store/postgres/index.ts"

/** `runtime` options for `A2AServer.make`: `{ store }` on PostgreSQL, `{}` in memory. */
export const runtimeFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): TaskRuntimeOptions => {
  const options = postgresOptionsFromEnv(env)
  return options === undefined ? {} : { store: postgresStore(options) }
}
