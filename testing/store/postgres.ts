/**
 * PostgreSQL for tests: `A2A_TEST_DATABASE_URL` names the server (`.ci/run` sets it); without it every
 * test that needs one is registered and skipped with the reason. Each store a test opens lives in a fresh
 * schema of a random name, dropped when the test's Scope closes.
 */
import { beforeEach } from "vitest"
import { Effect, Redacted } from "effect"
import type { Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { makePostgresTaskStore } from "../../src/store/postgres/pg-task-store.ts"
import type { PostgresTaskStore, PostgresTaskStoreOptions } from "../../src/store/postgres/pg-task-store.ts"

/** The test server's URL, or undefined when tests that need one are skipped. */
export const testDatabaseUrl: string | undefined = process.env["A2A_TEST_DATABASE_URL"] || undefined

const reason = "A2A_TEST_DATABASE_URL is not set: no PostgreSQL to test against (.ci/run sets it)"

/** Call at the top of a `describe` whose tests need PostgreSQL: without it each of them is skipped with the reason. */
export const requirePostgres = (): void => {
  if (testDatabaseUrl !== undefined) return
  beforeEach((context) => context.skip(reason))
}

/** The URL, for bodies of tests guarded by {@link requirePostgres}. */
export const databaseUrl = (): string => {
  if (testDatabaseUrl === undefined) throw new Error(reason)
  return testDatabaseUrl
}

/** A fresh schema name. */
export const randomSchema = (): string => `a2a_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`

/** Runs one statement on the test server with a connection of its own (for checks a store does not offer). */
export const testQuery = <A extends object>(text: string, params: ReadonlyArray<unknown> = []): Effect.Effect<ReadonlyArray<A>, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    const sql = yield* Effect.provide(PgClient.make({ url: Redacted.make(databaseUrl()), maxConnections: 1 }), Reactivity.layer)
    return yield* sql.unsafe<A>(text, params)
  }))

/** Drops `schema` and everything in it. */
export const dropSchema = (schema: string): Effect.Effect<void> =>
  Effect.scoped(Effect.gen(function*() {
    const sql = yield* Effect.provide(PgClient.make({ url: Redacted.make(databaseUrl()), maxConnections: 1 }), Reactivity.layer)
    yield* sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  })).pipe(Effect.catch((e) => Effect.logWarning(`test schema ${schema} could not be dropped`, e)))

/** A schema for this test, dropped when the Scope closes. */
export const testSchema: Effect.Effect<string, never, Scope.Scope> = Effect.suspend(() => {
  const schema = randomSchema()
  return Effect.as(Effect.addFinalizer(() => dropSchema(schema)), schema)
})

/** A store in a fresh schema (or in `schema`, to share one between several stores of a test). */
export const testStore = (
  options: Partial<PostgresTaskStoreOptions> = {}
): Effect.Effect<PostgresTaskStore, unknown, Scope.Scope> =>
  Effect.gen(function*() {
    const schema = options.schema ?? (yield* testSchema)
    return yield* makePostgresTaskStore({ url: databaseUrl(), ...options, schema })
  })
