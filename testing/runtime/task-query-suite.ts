import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Scope } from "effect"
import type { Task } from "../../schemas/index.ts"
import type { TaskPage, TaskQuery, TaskStore } from "../../src/runtime/task-store.ts"
import { sampleTask } from "./task-store-suite.ts"

const at = (id: string, minute: number, state: Task["status"]["state"] = "working", contextId = "c1"): Task => ({
  ...sampleTask(id, state, contextId),
  status: { state, timestamp: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString() }
})

/**
 * `TaskStore.listTasks` (A2A 1.0 ListTasks): every store pages an owner's tasks the same way. Run it beside
 * `runTaskStoreSuite`; `makeStore` must return an empty store.
 */
export const runTaskQuerySuite = (
  name: string,
  makeStore: () => Effect.Effect<TaskStore, unknown, Scope.Scope>
): void => {
  const withStore = <A, E>(f: (store: TaskStore) => Effect.Effect<A, E>) => Effect.flatMap(Effect.orDie(makeStore()), f)
  const ids = (page: TaskPage) => page.tasks.map((t) => t.id)
  const fill = (store: TaskStore) =>
    Effect.forEach([
      { task: at("a1", 1), owner: "alice" },
      { task: at("a2", 5, "completed"), owner: "alice" },
      { task: at("a3", 3, "working", "c2"), owner: "alice" },
      { task: at("a4", 5), owner: "alice" },
      { task: at("b1", 9), owner: "bob" }
    ], ({ task, owner }) => store.put({ task, owner, pushConfigs: [] }, 0), { discard: true })

  describe(`TaskStore.listTasks: ${name}`, () => {
    it.effect("lists only the owner's tasks, newest status first, ties by id descending, with the total", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* fill(store)
          const page = yield* store.listTasks({ owner: "alice", limit: 10 })
          expect(ids(page)).toEqual(["a4", "a2", "a3", "a1"])
          expect(page.total).toBe(4)
          expect(page.next).toBeUndefined()
          expect(ids(yield* store.listTasks({ owner: "carol", limit: 10 }))).toEqual([])
        })
      ))

    it.effect("pages with a cursor: every task once, in order, and no next cursor on the last page", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* fill(store)
          const seen: Array<string> = []
          let query: TaskQuery = { owner: "alice", limit: 3 }
          for (let pages = 0; pages < 5; pages++) {
            const page = yield* store.listTasks(query)
            expect(page.total).toBe(4)
            seen.push(...ids(page))
            if (page.next === undefined) break
            query = { ...query, after: page.next }
          }
          expect(seen).toEqual(["a4", "a2", "a3", "a1"])
        })
      ))

    it.effect("filters by context, state and status time (at or after)", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* fill(store)
          expect(ids(yield* store.listTasks({ owner: "alice", contextId: "c2", limit: 10 }))).toEqual(["a3"])
          const working = yield* store.listTasks({ owner: "alice", state: "working", limit: 10 })
          expect([ids(working), working.total]).toEqual([["a4", "a3", "a1"], 3])
          const since = new Date(Date.UTC(2026, 0, 1, 0, 3)).toISOString()
          expect(ids(yield* store.listTasks({ owner: "alice", statusAfter: since, limit: 10 }))).toEqual(["a4", "a2", "a3"])
        })
      ))

    it.effect("orders by the task's latest status", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* fill(store)
          yield* store.put({ task: at("a1", 30, "completed"), owner: "alice", pushConfigs: [] }, 1)
          expect(ids(yield* store.listTasks({ owner: "alice", limit: 2 }))).toEqual(["a1", "a4"])
        })
      ))
  })
}
