import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { runTaskStoreSuite, sampleTask } from "../../../testing/runtime/task-store-suite.ts"
import { requirePostgres, testQuery, testSchema, testStore } from "../../../testing/store/postgres.ts"
import { migrations } from "./migrations.ts"

describe("PostgreSQL task store", () => {
  requirePostgres()
  runTaskStoreSuite("postgres", () => testStore())

  it.live("migrates once when several instances start together", () =>
    Effect.gen(function*() {
      const schema = yield* testSchema
      const stores = yield* Effect.all(Array.from({ length: 4 }, () => testStore({ schema })), { concurrency: "unbounded" })
      yield* stores[0]!.put({ task: sampleTask("t1"), owner: "a", pushConfigs: [] }, 0)
      expect(Option.isSome(yield* stores[3]!.get("t1"))).toBe(true)
      const applied = yield* testQuery<{ readonly id: number }>(`SELECT id FROM ${schema}.a2a_migrations ORDER BY id`)
      expect(applied.map((r) => Number(r.id))).toEqual(migrations.map((m) => m.id))
    }))
})
