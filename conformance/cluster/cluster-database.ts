/**
 * The PostgreSQL database the cluster tests run on: `A2A_TEST_DATABASE_URL` (`.ci/run` sets it),
 * with a schema of its own per test file, dropped afterwards. Without the variable the tests
 * register as skipped, saying why.
 */
import { Effect } from "effect"
import { dropSchema, randomSchema, testDatabaseUrl } from "../../testing/store/postgres.ts"

const url = testDatabaseUrl

/** Appended to a suite's name: empty when the database is there, the reason for skipping otherwise. */
export const databaseSkipReason = url === undefined
  ? " (skipped: A2A_TEST_DATABASE_URL is not set; .ci/run sets it to the local PostgreSQL)"
  : ""

/** The lease the tests' instances hold on a task they run: short, so a killed instance's tasks end soon. */
export const testLeaseMs = 2_000

/** The instances' variables for {@link testLeaseMs}. */
export const leaseEnv: Readonly<Record<string, string>> = { A2A_LEASE_MS: String(testLeaseMs) }

/** A schema for one test file. */
export interface ClusterDatabase {
  /** Picks a fresh schema name; returns the instances' variables naming the database and schema. */
  readonly create: () => Promise<Readonly<Record<string, string>>>
  /** Drops the schema and everything in it. */
  readonly drop: () => Promise<void>
}

/** The test database, or `undefined` when `A2A_TEST_DATABASE_URL` is not set. */
export const clusterDatabase = (): ClusterDatabase | undefined => {
  if (url === undefined) return undefined
  const schema = randomSchema()
  return {
    create: async () => ({ A2A_DATABASE_URL: url, A2A_DATABASE_SCHEMA: schema }),
    drop: () => Effect.runPromise(dropSchema(schema))
  }
}
