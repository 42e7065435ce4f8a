/**
 * `npm run bench -- --cluster` at a tiny size: every setup starts, every answer passes the load
 * client's checks (the cross-instance stream included), and each figure is a real one.
 */
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { dropSchema, randomSchema, testDatabaseUrl } from "../testing/store/postgres.ts"
import { clusterWorkloads, runClusterBench } from "./cluster.ts"

const schema = randomSchema()

describe.skipIf(testDatabaseUrl === undefined)(`bench --cluster${testDatabaseUrl === undefined ? " (skipped: A2A_TEST_DATABASE_URL is not set; .ci/run sets it)" : ""}`, () => {
  afterAll(() => Effect.runPromise(dropSchema(schema)), 30_000)

  it("measures tasks/s and stream events/s in memory, on PostgreSQL, and across three instances, every answer checked", async () => {
    const rows = await runClusterBench({
      sizes: { rounds: 1, concurrency: 4, throughputMs: 300, streamChunks: 20, streamsPerRound: 1 },
      database: { A2A_DATABASE_URL: testDatabaseUrl!, A2A_DATABASE_SCHEMA: schema },
      log: () => {}
    })
    expect(rows.map((r) => `${r.workload} ${r.setup}`)).toEqual(
      clusterWorkloads.flatMap((w) => ["memory x1", "postgres x1", "postgres x3"].map((s) => `${w} ${s}`))
    )
    for (const row of rows) {
      expect(row.error, `${row.workload} ${row.setup}`).toBeUndefined()
      expect(row.valid).toBe(true)
      expect(row.value).toBeGreaterThan(0)
    }
  }, 120_000)
})
