import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { runTaskQuerySuite } from "../../../testing/runtime/task-query-suite.ts"
import { runTaskStoreSuite, sampleTask } from "../../../testing/runtime/task-store-suite.ts"
import { requirePostgres, testQuery, testSchema, testStore } from "../../../testing/store/postgres.ts"
import { migrations } from "./migrations.ts"

describe("PostgreSQL task store", () => {
  requirePostgres()
  runTaskStoreSuite("postgres", () => testStore())
  runTaskQuerySuite("postgres", () => testStore())

  it.live("drops terminal tasks (and their events) after their time to live, never running ones", () =>
    Effect.gen(function*() {
      const store = yield* testStore({ terminalTtl: "300 millis", lease: "300 millis" })
      yield* store.put({ task: sampleTask("done", "completed"), owner: "a", pushConfigs: [], events: [{ seq: 1, event: sampleTask("done", "completed") }] }, 0)
      yield* store.put({ task: sampleTask("busy"), owner: "a", pushConfigs: [] }, 0)
      const gone = (id: string) => Effect.map(store.get(id), Option.isNone)
      let waited = 0
      while (!(yield* gone("done")) && waited < 3_000) {
        yield* Effect.sleep("50 millis")
        waited += 50
      }
      expect(yield* gone("done")).toBe(true)
      expect(yield* gone("busy")).toBe(false)
      const events = yield* testQuery(`SELECT 1 FROM ${store.schema}.events WHERE task_id = 'done'`)
      expect(events).toHaveLength(0)
    }))

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
