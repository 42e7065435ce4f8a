/**
 * The PostgreSQL database the cluster tests run on: `A2A_TEST_DATABASE_URL` (`.ci/run` sets it),
 * with a schema of its own per test file, dropped afterwards. Without the variable the tests
 * register as skipped, saying why. With `A2A_TABLE_SIZES_FILE` set (as `npm run chaos` does), the
 * size of each table is appended to that file, as one JSON line, before the schema is dropped.
 */
import { appendFile } from "node:fs/promises"
import { Effect } from "effect"
import { dropSchema, randomSchema, testDatabaseUrl, testQuery } from "../../testing/store/postgres.ts"

const url = testDatabaseUrl

/** Appended to a suite's name: empty when the database is there, the reason for skipping otherwise. */
export const databaseSkipReason = url === undefined
  ? " (skipped: A2A_TEST_DATABASE_URL is not set; .ci/run sets it to the local PostgreSQL)"
  : ""

/** The lease the tests' instances hold on a task they run: short, so a killed instance's tasks end soon. */
export const testLeaseMs = 2_000

/** The instances' variables for {@link testLeaseMs}. */
export const leaseEnv: Readonly<Record<string, string>> = { A2A_LEASE_MS: String(testLeaseMs) }

/** One table of a schema: its rows and its size on disk with indexes and TOAST. */
export interface TableSize {
  readonly table: string
  readonly rows: number
  readonly bytes: number
}

/** A schema for one test file. */
export interface ClusterDatabase {
  /** The schema's name. */
  readonly schema: string
  /** Picks a fresh schema name; returns the instances' variables naming the database and schema. */
  readonly create: () => Promise<Readonly<Record<string, string>>>
  /** Runs one statement on the test database. */
  readonly query: <A extends object>(text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<A>>
  /** The schema's tables, their rows and sizes. */
  readonly sizes: () => Promise<ReadonlyArray<TableSize>>
  /** Drops the schema and everything in it. */
  readonly drop: () => Promise<void>
}

/** The test database, or `undefined` when `A2A_TEST_DATABASE_URL` is not set. */
export const clusterDatabase = (file?: string): ClusterDatabase | undefined => {
  if (url === undefined) return undefined
  const schema = randomSchema()
  const query = <A extends object>(text: string, params: ReadonlyArray<unknown> = []) =>
    Effect.runPromise(testQuery<A>(text, params))
  const sizes = async (): Promise<ReadonlyArray<TableSize>> => {
    const tables = await query<{ readonly table: string; readonly bytes: string }>(
      `SELECT c.relname AS table, pg_total_relation_size(c.oid)::text AS bytes FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY c.relname`,
      [schema]
    )
    return Promise.all(tables.map(async (t) => ({
      table: t.table,
      bytes: Number(t.bytes),
      rows: Number((await query<{ readonly n: string }>(`SELECT count(*)::text AS n FROM ${schema}.${t.table}`))[0]!.n)
    })))
  }
  return {
    schema,
    create: async () => ({ A2A_DATABASE_URL: url, A2A_DATABASE_SCHEMA: schema }),
    query,
    sizes,
    drop: async () => {
      const report = process.env["A2A_TABLE_SIZES_FILE"]
      if (report !== undefined && report !== "") {
        const measured = await sizes().catch(() => [])
        if (measured.length > 0) await appendFile(report, `${JSON.stringify({ file: file ?? schema, tables: measured })}\n`)
      }
      await Effect.runPromise(dropSchema(schema))
    }
  }
}
