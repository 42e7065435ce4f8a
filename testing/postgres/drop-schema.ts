/**
 * Dropping a schema a test or bench run made for itself, with everything in it.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"

/** Drops `schema` (a plain identifier) and everything in it from the database at `url`; quiet when absent. */
export const dropSchema = (url: string, schema: string): Promise<void> => {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) return Promise.reject(new Error(`not a plain schema name: ${schema}`))
  return Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      yield* sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
  )
}
