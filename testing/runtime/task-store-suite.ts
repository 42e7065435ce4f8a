import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import type { Scope } from "effect"
import type { Task } from "../../schemas/index.ts"
import type { TaskStore } from "../../src/runtime/task-store.ts"

/** A Task value for store tests. */
export const sampleTask = (id: string, state: Task["status"]["state"] = "working", contextId = "ctx-1"): Task => ({
  kind: "task",
  id,
  contextId,
  status: { state, timestamp: "2025-01-01T00:00:00.000Z" },
  history: [{ kind: "message", messageId: `m-${id}`, role: "user", parts: [{ kind: "text", text: "hi" }] }]
})

/**
 * The behaviour every {@link TaskStore} must have. A durable store runs it as-is:
 * `runTaskStoreSuite("postgres", () => makePgStore(...))`. `makeStore` must return an empty store.
 */
export const runTaskStoreSuite = (
  name: string,
  makeStore: () => Effect.Effect<TaskStore, unknown, Scope.Scope>
): void => {
  const withStore = <A, E>(f: (store: TaskStore) => Effect.Effect<A, E>) =>
    Effect.flatMap(Effect.orDie(makeStore()), f)

  describe(`TaskStore behaviour: ${name}`, () => {
    it.effect("returns none for an unknown task", () =>
      withStore((store) =>
        Effect.gen(function*() {
          expect(Option.isNone(yield* store.get("nope"))).toBe(true)
        })
      ))

    it.effect("creates with expected version 0 and reads back the same record", () =>
      withStore((store) =>
        Effect.gen(function*() {
          const task = sampleTask("t1")
          const pushConfigs = [{ id: "p1", url: "https://example.com/hook", token: "tok" }]
          const written = yield* store.put({ task, owner: "alice", pushConfigs }, 0)
          expect(written.version).toBe(1)
          const read = Option.getOrThrow(yield* store.get("t1"))
          expect(read.task).toEqual(task)
          expect(read.owner).toBe("alice")
          expect(read.pushConfigs).toEqual(pushConfigs)
          expect(read.version).toBe(1)
        })
      ))

    it.effect("stamps writes with the Clock's time", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* TestClock.setTime(5_000)
          const written = yield* store.put({ task: sampleTask("t1"), owner: "a", pushConfigs: [] }, 0)
          expect(written.updatedAt).toBe(5_000)
        })
      ))

    it.effect("increments the version on each write and refuses a stale version", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* store.put({ task: sampleTask("t1"), owner: "a", pushConfigs: [] }, 0)
          const v2 = yield* store.put({ task: sampleTask("t1", "input-required"), owner: "a", pushConfigs: [] }, 1)
          expect(v2.version).toBe(2)
          const stale = yield* Effect.flip(store.put({ task: sampleTask("t1", "completed"), owner: "a", pushConfigs: [] }, 1))
          expect(stale._tag).toBe("VersionConflict")
          if (stale._tag === "VersionConflict") expect(stale.actual).toBe(2)
          const read = Option.getOrThrow(yield* store.get("t1"))
          expect(read.task.status.state).toBe("input-required")
        })
      ))

    it.effect("refuses to create a task that exists, and to update one that does not", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* store.put({ task: sampleTask("t1"), owner: "a", pushConfigs: [] }, 0)
          const again = yield* Effect.flip(store.put({ task: sampleTask("t1"), owner: "b", pushConfigs: [] }, 0))
          expect(again._tag).toBe("VersionConflict")
          const missing = yield* Effect.flip(store.put({ task: sampleTask("t2"), owner: "a", pushConfigs: [] }, 3))
          expect(missing._tag).toBe("VersionConflict")
          expect(Option.getOrThrow(yield* store.get("t1")).owner).toBe("a")
        })
      ))

    it.effect("lets exactly one of two concurrent writers with the same version win", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* store.put({ task: sampleTask("t1"), owner: "a", pushConfigs: [] }, 0)
          const results = yield* Effect.all(
            [
              Effect.result(store.put({ task: sampleTask("t1", "completed"), owner: "a", pushConfigs: [] }, 1)),
              Effect.result(store.put({ task: sampleTask("t1", "canceled"), owner: "a", pushConfigs: [] }, 1))
            ],
            { concurrency: "unbounded" }
          )
          expect(results.filter((r) => r._tag === "Success")).toHaveLength(1)
        })
      ))

    it.effect("never lets a terminal task change again, but lets its push configs change", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* store.put({ task: sampleTask("t1"), owner: "a", pushConfigs: [] }, 0)
          const done = sampleTask("t1", "canceled")
          yield* store.put({ task: done, owner: "a", pushConfigs: [] }, 1)
          const late = yield* Effect.flip(store.put({ task: sampleTask("t1", "completed"), owner: "a", pushConfigs: [] }, 2))
          expect(late._tag).toBe("WriteRefused")
          const configs = [{ id: "p1", url: "https://example.com/hook" }]
          const v3 = yield* store.put({ task: structuredClone(done), owner: "a", pushConfigs: configs }, 2)
          expect(v3.version).toBe(3)
          const read = Option.getOrThrow(yield* store.get("t1"))
          expect(read.task.status.state).toBe("canceled")
          expect(read.pushConfigs).toEqual(configs)
        })
      ))

    it.effect("lists by owner and by context", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* store.put({ task: sampleTask("t1", "working", "c1"), owner: "alice", pushConfigs: [] }, 0)
          yield* store.put({ task: sampleTask("t2", "working", "c2"), owner: "bob", pushConfigs: [] }, 0)
          yield* store.put({ task: sampleTask("t3", "completed", "c1"), owner: "alice", pushConfigs: [] }, 0)
          const ids = (rs: ReadonlyArray<{ readonly task: Task }>) => rs.map((r) => r.task.id).sort()
          expect(ids(yield* store.list())).toEqual(["t1", "t2", "t3"])
          expect(ids(yield* store.list({ owner: "alice" }))).toEqual(["t1", "t3"])
          expect(ids(yield* store.list({ contextId: "c2" }))).toEqual(["t2"])
        })
      ))

    it.effect("gives a context to its first claimant only", () =>
      withStore((store) =>
        Effect.gen(function*() {
          expect(yield* store.claimContext("c1", "alice")).toBe("alice")
          expect(yield* store.claimContext("c1", "bob")).toBe("alice")
          expect(yield* store.claimContext("c1", "alice")).toBe("alice")
          expect(yield* store.claimContext("c2", "bob")).toBe("bob")
          const racing = yield* Effect.all(
            ["carol", "dave", "erin"].map((who) => store.claimContext("c3", who)),
            { concurrency: "unbounded" }
          )
          expect(new Set(racing).size).toBe(1)
        })
      ))

    it.effect("gives a stored task's context to the task's owner", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* store.put({ task: sampleTask("t1", "working", "c9"), owner: "alice", pushConfigs: [] }, 0)
          expect(yield* store.claimContext("c9", "bob")).toBe("alice")
          yield* store.put({ task: sampleTask("t1", "completed", "c9"), owner: "alice", pushConfigs: [] }, 1)
          expect(yield* store.claimContext("c9", "bob")).toBe("alice")
          // a context claimed first stays its claimant's even if another's task is stored in it
          expect(yield* store.claimContext("c10", "bob")).toBe("bob")
          yield* store.put({ task: sampleTask("t2", "working", "c10"), owner: "alice", pushConfigs: [] }, 0)
          expect(yield* store.claimContext("c10", "alice")).toBe("bob")
        })
      ))

    it.effect("deletes, and says whether something was deleted", () =>
      withStore((store) =>
        Effect.gen(function*() {
          yield* store.put({ task: sampleTask("t1"), owner: "a", pushConfigs: [] }, 0)
          expect(yield* store.delete("t1")).toBe(true)
          expect(yield* store.delete("t1")).toBe(false)
          expect(Option.isNone(yield* store.get("t1"))).toBe(true)
          // a deleted task can be created again from version 0
          expect((yield* store.put({ task: sampleTask("t1"), owner: "a", pushConfigs: [] }, 0)).version).toBe(1)
        })
      ))
  })
}
