import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import { runTaskQuerySuite } from "../../testing/runtime/task-query-suite.ts"
import { runTaskStoreSuite, sampleTask } from "../../testing/runtime/task-store-suite.ts"

runTaskStoreSuite("memory", () => makeMemoryTaskStore())
runTaskQuerySuite("memory", () => makeMemoryTaskStore())

describe("memory task store bounds", () => {
  it.effect("drops terminal tasks after their time to live, keeps running ones", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore({ terminalTtl: "10 seconds" })
      yield* store.put({ task: sampleTask("done", "completed"), owner: "a", pushConfigs: [] }, 0)
      yield* store.put({ task: sampleTask("busy", "working"), owner: "a", pushConfigs: [] }, 0)
      yield* TestClock.adjust("9 seconds")
      expect(Option.isSome(yield* store.get("done"))).toBe(true)
      yield* TestClock.adjust("2 seconds")
      // the sweeper fiber dropped it without anyone reading the store
      expect(store.size()).toBe(1)
      expect(Option.isNone(yield* store.get("done"))).toBe(true)
      yield* TestClock.adjust("5 minutes")
      expect(Option.isSome(yield* store.get("busy"))).toBe(true)
    }))

  it.effect("evicts the oldest terminal tasks beyond the bound and never a running one", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore({ maxTerminalTasks: 2 })
      yield* store.put({ task: sampleTask("run"), owner: "a", pushConfigs: [] }, 0)
      for (const id of ["d1", "d2", "d3"]) {
        yield* TestClock.adjust("1 second")
        yield* store.put({ task: sampleTask(id, "completed"), owner: "a", pushConfigs: [] }, 0)
      }
      const ids = (yield* store.list()).map((r) => r.task.id).sort()
      expect(ids).toEqual(["d2", "d3", "run"])
    }))

  it.effect("restarts the time to live of a terminal task that is written again", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore({ terminalTtl: "10 seconds" })
      yield* store.put({ task: sampleTask("a", "completed"), owner: "a", pushConfigs: [] }, 0)
      yield* store.put({ task: sampleTask("b", "completed"), owner: "a", pushConfigs: [] }, 0)
      yield* TestClock.adjust("6 seconds")
      yield* store.put({ task: sampleTask("a", "completed"), owner: "a", pushConfigs: [] }, 1)
      yield* TestClock.adjust("6 seconds")
      expect(Option.isSome(yield* store.get("a"))).toBe(true)
      expect(Option.isNone(yield* store.get("b"))).toBe(true)
    }))

  it.effect("keeps a context owned while it has tasks, then for the time to live", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore({ terminalTtl: "10 seconds" })
      yield* store.put({ task: sampleTask("t", "completed", "ctx-a"), owner: "alice", pushConfigs: [] }, 0)
      expect(yield* store.claimContext("only-claimed", "alice")).toBe("alice")
      yield* TestClock.adjust("9 seconds")
      expect(yield* store.claimContext("ctx-a", "bob")).toBe("alice")
      expect(yield* store.claimContext("only-claimed", "bob")).toBe("alice")
      // the task expires at 10 s; its context stays owned for another 10 s
      yield* TestClock.adjust("2 seconds")
      expect(Option.isNone(yield* store.get("t"))).toBe(true)
      expect(yield* store.claimContext("ctx-a", "bob")).toBe("alice")
      yield* TestClock.adjust("10 seconds")
      expect(yield* store.claimContext("ctx-a", "bob")).toBe("bob")
      expect(yield* store.claimContext("only-claimed", "bob")).toBe("bob")
    }))

  it.effect("keeps the contexts of running tasks however old, and bounds idle ones", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore({ terminalTtl: "10 seconds", maxTerminalTasks: 2 })
      yield* store.put({ task: sampleTask("run", "working", "ctx-run"), owner: "alice", pushConfigs: [] }, 0)
      for (const c of ["i1", "i2", "i3"]) {
        yield* TestClock.adjust("1 second")
        yield* store.claimContext(c, "alice")
      }
      // beyond two idle contexts the oldest went
      expect(yield* store.claimContext("i1", "bob")).toBe("bob")
      expect(yield* store.claimContext("i3", "bob")).toBe("alice")
      yield* TestClock.adjust("1 hour")
      expect(yield* store.claimContext("ctx-run", "bob")).toBe("alice")
    }))
})
