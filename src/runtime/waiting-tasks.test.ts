/**
 * Tasks that wait for their user are bounded: per principal (asking beyond the bound is refused and the
 * task ends `failed`, saying why), and in time (a task left waiting past `idleTtl` ends `failed` and leaves
 * memory). The time runs on the Effect Clock.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Message, Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import { TaskRuntime } from "./task-runtime.ts"

const asking = Agent.make({
  card: testCard(),
  execute: (ctx) =>
    Effect.gen(function*() {
      const answer = ctx.resumed ? ctx.message : yield* ctx.requestInput("name?")
      yield* ctx.complete(`hello ${messageText(answer)}`)
    })
})

const asTask = (r: Task | Message): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}
const statusText = (t: Task) => (t.status.message === undefined ? "" : messageText(t.status.message))

describe("tasks waiting for input", () => {
  it.effect("one principal may have at most `perPrincipal` waiting; asking for one more ends that task failed, saying why", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore()
      const runtime = yield* TaskRuntime.make(asking, { store, waitingTasks: { perPrincipal: 3 } })
      const alice = as("alice")
      const waiting: Array<Task> = []
      for (let i = 0; i < 3; i++) waiting.push(asTask(yield* runtime.send({ message: userMessage("hi") }, alice)))
      expect(waiting.map((t) => t.status.state)).toEqual(["input-required", "input-required", "input-required"])
      expect(yield* store.countWaiting("alice")).toBe(3)

      const over = asTask(yield* runtime.send({ message: userMessage("hi") }, alice))
      expect(over.status.state).toBe("failed")
      expect(statusText(over)).toMatch(/alice already has 3 tasks waiting for input, the most one may have \(3\); answer or cancel one of them/)
      // Another principal is not bounded by alice's tasks.
      expect(asTask(yield* runtime.send({ message: userMessage("hi") }, as("bob"))).status.state).toBe("input-required")

      // Answering one frees a place.
      const answered = asTask(yield* runtime.send({ message: userMessage("Ada", { taskId: waiting[0]!.id }) }, alice))
      expect(answered.status.state).toBe("completed")
      expect(asTask(yield* runtime.send({ message: userMessage("hi") }, alice)).status.state).toBe("input-required")
    }))

  it.effect("a task left waiting longer than `idleTtl` ends failed and leaves memory; an answered one does not", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(asking, { waitingTasks: { idleTtl: "1 hour" } })
      const alice = as("alice")
      const left = asTask(yield* runtime.send({ message: userMessage("hi") }, alice))
      yield* TestClock.adjust("40 minutes")
      const answeredLater = asTask(yield* runtime.send({ message: userMessage("hi") }, alice))
      expect(runtime.hosted()).toBe(2)
      yield* TestClock.adjust("30 minutes")
      const ended = yield* runtime.get({ id: left.id }, alice)
      expect(ended.status.state).toBe("failed")
      expect(statusText(ended)).toBe("No answer came within 1 hour, the longest a task waits for input; it was ended as failed.")
      expect(runtime.hosted()).toBe(1)
      // The younger one still waits, and runs on when answered.
      const done = asTask(yield* runtime.send({ message: userMessage("Bob", { taskId: answeredLater.id }) }, alice))
      expect(statusText(done)).toBe("hello Bob")
      expect(runtime.hosted()).toBe(0)
    }))

  it.effect("refuses bounds that are not positive", () =>
    Effect.gen(function*() {
      const bad = yield* Effect.exit(TaskRuntime.make(asking, { waitingTasks: { perPrincipal: 0 } }))
      expect(bad._tag).toBe("Failure")
    }))
})
