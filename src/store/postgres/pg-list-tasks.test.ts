/**
 * ListTasks on PostgreSQL walks its index in order and stops at the page's LIMIT: no scan or sort of the
 * owner's tasks, however many there are.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { requirePostgres, testQuery, testStore } from "../../../testing/store/postgres.ts"
import { listTasksPageSql } from "./pg-list-tasks.ts"

describe("ListTasks on PostgreSQL", () => {
  requirePostgres()

  it.live("pages an owner's tasks through the index, with LIMIT", () =>
    Effect.gen(function*() {
      const store = yield* testStore()
      const s = store.schema
      // Many owners and tasks, written directly: the planner must find the index worth using.
      // (The status time goes in its column too, as every write of the store sets it.)
      yield* testQuery(`INSERT INTO ${s}.tasks (id, owner, context_id, state, version, task, push_configs, updated_at, status_at)
        SELECT 't' || g, 'owner-' || (g % 50), 'c', 'completed', 1,
          json_build_object('kind', 'task', 'id', 't' || g, 'contextId', 'c',
            'status', json_build_object('state', 'completed', 'timestamp', to_char(timestamp '2026-01-01' + g * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
          '[]'::json, g, to_char(timestamp '2026-01-01' + g * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        FROM generate_series(1, 20000) g`)
      yield* testQuery(`ANALYZE ${s}.tasks`)
      const sql = listTasksPageSql(s).replace(/\$(\d)(::\w+)?/g, (_, n: string) =>
        ({ "1": "'owner-7'", "2": "NULL::text", "3": "NULL::text", "4": "NULL::text", "5": "NULL::text", "6": "NULL::text", "7": "11" })[n]!)
      const plan = (yield* testQuery<{ readonly "QUERY PLAN": string }>(`EXPLAIN ${sql}`)).map((r) => r["QUERY PLAN"]).join("\n")
      expect(plan).toContain("tasks_owner_status_at")
      expect(plan).toMatch(/Limit/)
      expect(plan).not.toMatch(/Sort\b/)
      const page = yield* store.listTasks({ owner: "owner-7", limit: 10 })
      expect(page.tasks).toHaveLength(10)
      expect(page.total).toBe(400)
      const stamps = page.tasks.map((t) => t.status.timestamp!)
      expect([...stamps].sort().reverse()).toEqual(stamps)
      const next = yield* store.listTasks({ owner: "owner-7", limit: 10, after: page.next! })
      expect(next.tasks[0]!.status.timestamp! < stamps.at(-1)!).toBe(true)
    }))
})
