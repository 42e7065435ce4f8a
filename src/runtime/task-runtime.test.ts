import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import type { Message, Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import type { TaskContext } from "../agent/task-context.ts"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { TaskRuntime } from "./task-runtime.ts"
import type { SequencedEvent } from "./task-runtime.ts"

const alice = as("alice")
const runtimeFor = (execute: (ctx: TaskContext) => Effect.Effect<void, unknown>, inputModes?: ReadonlyArray<string>) =>
  TaskRuntime.make(Agent.make({ card: testCard(inputModes), execute }))

const asTask = (r: Task | Message): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}
const kinds = (events: ReadonlyArray<SequencedEvent>) =>
  events.map(({ event }) => (event.kind === "status-update" ? `status:${event.status.state}` : event.kind))

describe("TaskRuntime lifecycle", () => {
  it.effect("streams Task, working, artifact and the final completed status, numbered from 1", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) =>
        Effect.gen(function*() {
          yield* ctx.working("on it")
          yield* ctx.artifact("result", { name: "answer" })
          yield* ctx.complete("done")
        })
      )
      const stream = yield* runtime.stream({ message: userMessage("hi") }, alice)
      const events = yield* Stream.runCollect(stream)
      expect(kinds(events)).toEqual(["task", "status:working", "artifact-update", "status:completed"])
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4])
      const last = events[3]!.event
      expect(last.kind === "status-update" && last.final).toBe(true)
      const taskId = (events[0]!.event as Task).id
      const stored = Option.getOrThrow(yield* runtime.store.get(taskId))
      expect(stored.task.status.state).toBe("completed")
      expect(stored.task.artifacts?.[0]?.parts).toEqual([{ kind: "text", text: "result" }])
      expect(stored.owner).toBe("alice")
      expect(yield* runtime.get({ id: taskId }, alice)).toEqual(stored.task)
    }))

  it.effect("blocking send waits for the terminal state; non-blocking answers at once", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const runtime = yield* runtimeFor((ctx) =>
        Effect.gen(function*() {
          yield* ctx.working()
          yield* Deferred.await(gate)
          yield* ctx.complete()
        })
      )
      const early = asTask(yield* runtime.send({ message: userMessage("a"), configuration: { blocking: false } }, alice))
      expect(early.status.state).toBe("working")
      const blocked = yield* Effect.forkChild(runtime.send({ message: userMessage("b") }, alice))
      yield* Deferred.succeed(gate, undefined)
      expect(asTask(yield* Fiber.join(blocked)).status.state).toBe("completed")
      expect((yield* runtime.get({ id: early.id }, alice)).status.state).toBe("completed")
    }))

  it.effect("a blocking send runs the agent's first turn at once; a stream or non-blocking send starts it after the caller goes on", () =>
    Effect.gen(function*() {
      // A fiber forked just before the send: whether the agent's first step sees it run tells whether the
      // agent started at once (before it) or on the scheduler's next turn (after it, in order).
      const firstSteps: Array<{ readonly text: string; readonly otherRan: boolean }> = []
      let otherRan = false
      const runtime = yield* runtimeFor((ctx) =>
        Effect.andThen(Effect.sync(() => firstSteps.push({ text: messageText(ctx.message), otherRan })), ctx.complete())
      )
      const send = (text: string, mode: "blocking" | "non-blocking" | "stream") =>
        Effect.gen(function*() {
          otherRan = false
          const other = yield* Effect.forkChild(Effect.sync(() => {
            otherRan = true
          }))
          const message = userMessage(text)
          if (mode === "stream") {
            const events = yield* runtime.stream({ message }, alice)
            // the caller holds its stream before the agent took a step
            expect(firstSteps.map((s) => s.text)).not.toContain(text)
            yield* Stream.runDrain(events)
          } else {
            yield* runtime.send({ message, configuration: { blocking: mode === "blocking" } }, alice)
          }
          yield* Fiber.join(other)
        })
      yield* send("blocking", "blocking")
      yield* send("non-blocking", "non-blocking")
      yield* send("stream", "stream")
      expect(firstSteps).toEqual([
        { text: "blocking", otherRan: false },
        { text: "non-blocking", otherRan: true },
        { text: "stream", otherRan: true }
      ])
    }))

  it.effect("honours historyLength: absent or 0 is everything, n is the last n", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) =>
        Effect.gen(function*() {
          yield* ctx.working("one")
          yield* ctx.working("two")
          yield* ctx.complete("three")
        })
      )
      const all = asTask(yield* runtime.send({ message: userMessage("q") }, alice))
      expect(all.history?.map(messageText)).toEqual(["q", "one", "two", "three"])
      const two = asTask(yield* runtime.send({ message: userMessage("q"), configuration: { historyLength: 2 } }, alice))
      expect(two.history?.map(messageText)).toEqual(["two", "three"])
      expect((yield* runtime.get({ id: all.id, historyLength: 0 }, alice)).history).toHaveLength(4)
      expect((yield* runtime.get({ id: all.id, historyLength: 1 }, alice)).history?.map(messageText)).toEqual(["three"])
    }))

  it.effect("requestInput suspends the agent until the user's next message on the task", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) =>
        Effect.gen(function*() {
          const answer = yield* ctx.requestInput("Which city?")
          yield* ctx.complete(`Weather in ${messageText(answer)}: sunny`)
        })
      )
      const asked = asTask(yield* runtime.send({ message: userMessage("weather?") }, alice))
      expect(asked.status.state).toBe("input-required")
      expect(messageText(asked.status.message!)).toBe("Which city?")
      const done = asTask(yield* runtime.send({ message: userMessage("Paris", { taskId: asked.id }) }, alice))
      expect(done.status.state).toBe("completed")
      expect(messageText(done.status.message!)).toBe("Weather in Paris: sunny")
      expect(done.history?.map(messageText)).toEqual(["weather?", "Which city?", "Paris", "Weather in Paris: sunny"])
      expect(done.history?.every((m) => m.taskId === asked.id && m.contextId === asked.contextId)).toBe(true)
    }))

  it.effect("streams the continuation of an interrupted task: Task first, then events to the final one", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) =>
        Effect.gen(function*() {
          const answer = yield* ctx.requestInput("name?")
          yield* ctx.artifact(`hello ${messageText(answer)}`)
          yield* ctx.complete()
        })
      )
      const asked = asTask(yield* runtime.send({ message: userMessage("greet") }, alice))
      const stream = yield* runtime.stream({ message: userMessage("Ada", { taskId: asked.id }) }, alice)
      const events = yield* Stream.runCollect(stream)
      expect(kinds(events)).toEqual(["task", "status:working", "artifact-update", "status:completed"])
      expect((events[0]!.event as Task).status.state).toBe("input-required")
      const seqs = events.map((e) => e.seq)
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    }))

  it.effect("a reply answers with one Message and creates no task", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) => ctx.reply(`echo: ${messageText(ctx.message)}`))
      const result = yield* runtime.send({ message: userMessage("hi") }, alice)
      expect(result.kind).toBe("message")
      expect(messageText(result as Message)).toBe("echo: hi")
      const events = yield* Stream.runCollect(yield* runtime.stream({ message: userMessage("yo") }, alice))
      expect(kinds(events)).toEqual(["message"])
      expect(yield* runtime.store.list()).toEqual([])
    }))

  it.effect("refuses reply after the task exists, as a typed error to the agent", () =>
    Effect.gen(function*() {
      const seen = yield* Deferred.make<string>()
      const runtime = yield* runtimeFor((ctx) =>
        Effect.gen(function*() {
          yield* ctx.working()
          const error = yield* Effect.flip(ctx.reply("too late"))
          yield* Deferred.succeed(seen, error._tag)
          yield* ctx.complete()
        })
      )
      expect(asTask(yield* runtime.send({ message: userMessage("x") }, alice)).status.state).toBe("completed")
      expect(yield* Deferred.await(seen)).toBe("TaskActionRefused")
    }))
})

describe("TaskRuntime when execute ends without a terminal state", () => {
  it.effect("completes a task whose execute returns while submitted or working", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) => ctx.artifact("partial"))
      const task = asTask(yield* runtime.send({ message: userMessage("go") }, alice))
      expect(task.status.state).toBe("completed")
      expect(task.artifacts).toHaveLength(1)
    }))

  it.effect("leaves an interrupted task waiting; the next message starts a new run of execute", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) =>
        ctx.history.length === 1
          ? Effect.gen(function*() {
            // the question is asked by a detached fiber; this run returns once the task waits
            yield* Effect.forkDetach(ctx.requestInput("more?"))
            yield* Effect.yieldNow.pipe(Effect.repeat({ until: () => ctx.task.status.state === "input-required" }))
          })
          : ctx.complete(`got ${messageText(ctx.message)}`)
      )
      // the run returns right after moving to input-required: the task keeps waiting
      const first = asTask(yield* runtime.send({ message: userMessage("start") }, alice))
      expect(first.status.state).toBe("input-required")
      const done = asTask(yield* runtime.send({ message: userMessage("yes", { taskId: first.id }) }, alice))
      expect(done.status.state).toBe("completed")
      expect(messageText(done.status.message!)).toBe("got yes")
    }))
})

describe("TaskRuntime with onReturn: keep (turn by turn)", () => {
  it.effect("answers a blocking send when the run returns, keeps the task working, runs again per message", () =>
    Effect.gen(function*() {
      const runs: Array<string> = []
      const runtime = yield* TaskRuntime.make(Agent.make({
        card: testCard(),
        onReturn: "keep",
        execute: (ctx) =>
          Effect.suspend(() => {
            runs.push(messageText(ctx.message))
            return ctx.working(`seen ${ctx.history.length}`)
          })
      }))
      const task = asTask(yield* runtime.send({ message: userMessage("one") }, alice))
      expect(task.status.state).toBe("working")
      const again = asTask(yield* runtime.send({ message: userMessage("two", { taskId: task.id }) }, alice))
      expect(again.status.state).toBe("working")
      expect(runs).toEqual(["one", "two"])
      expect(again.history?.map(messageText)).toEqual(["one", "seen 1", "two", "seen 3"])
      expect((yield* runtime.cancel({ id: task.id }, alice)).status.state).toBe("canceled")
    }))
})

describe("TaskRuntime failures", () => {
  const failing: Record<string, Effect.Effect<never, unknown>> = {
    "fails with an Error": Effect.fail(new Error("boom\n    at secret (file.ts:1:1)")),
    "fails with a tagged error": Effect.fail({ _tag: "DbDown", message: "database unreachable" }),
    "dies with a defect": Effect.die(new TypeError("x is undefined\n    at f (a.ts:2:3)"))
  }
  for (const [name, effect] of Object.entries(failing)) {
    it.effect(`ends the task failed with an explanation when execute ${name}`, () =>
      Effect.gen(function*() {
        const runtime = yield* runtimeFor((ctx) => Effect.andThen(ctx.working(), effect))
        const task = asTask(yield* runtime.send({ message: userMessage("x") }, alice))
        expect(task.status.state).toBe("failed")
        const text = messageText(task.status.message!)
        expect(text).toMatch(/^The agent (failed: |crashed; )/)
        expect(text).not.toContain(" at ")
        // a defect's own text may carry internals: it goes to the log, not to the client
        expect(text).not.toContain("x is undefined")
        expect(task.status.message!.role).toBe("agent")
      }))
  }

  it.effect("fails the task of an async agent that throws", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(
        Agent.fromAsync({
          card: testCard(),
          execute: async (ctx) => {
            await ctx.working()
            throw new Error("async boom")
          }
        })
      )
      const task = asTask(yield* runtime.send({ message: userMessage("x") }, alice))
      expect(task.status.state).toBe("failed")
      expect(messageText(task.status.message!)).toBe("The agent failed: async boom")
    }))
})

describe("TaskRuntime cancel", () => {
  it.effect("interrupts a working agent, runs its finalizers and records canceled in log and store", () =>
    Effect.gen(function*() {
      const finalized = yield* Deferred.make<void>()
      const runtime = yield* runtimeFor((ctx) =>
        Effect.andThen(ctx.working(), Effect.never).pipe(Effect.ensuring(Deferred.succeed(finalized, undefined)))
      )
      const task = asTask(yield* runtime.send({ message: userMessage("x"), configuration: { blocking: false } }, alice))
      const watching = yield* Effect.forkChild(Stream.runCollect(yield* runtime.resubscribe({ id: task.id }, alice, 0)))
      const canceled = yield* runtime.cancel({ id: task.id }, alice)
      expect(canceled.status.state).toBe("canceled")
      expect(yield* Deferred.isDone(finalized)).toBe(true)
      const seen = yield* Fiber.join(watching)
      expect(kinds(seen).at(-1)).toBe("status:canceled")
      expect(Option.getOrThrow(yield* runtime.store.get(task.id)).task.status.state).toBe("canceled")
      const again = yield* Effect.flip(runtime.cancel({ id: task.id }, alice))
      expect(again._tag).toBe("TaskNotCancelable")
      const late = yield* Effect.flip(runtime.send({ message: userMessage("more", { taskId: task.id }) }, alice))
      expect(late._tag).toBe("InvalidParams")
    }))

  it.effect("cancels a task waiting for input", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) => Effect.asVoid(ctx.requestInput("?")))
      const task = asTask(yield* runtime.send({ message: userMessage("x") }, alice))
      expect(task.status.state).toBe("input-required")
      expect((yield* runtime.cancel({ id: task.id }, alice)).status.state).toBe("canceled")
      expect((yield* runtime.get({ id: task.id }, alice)).status.state).toBe("canceled")
    }))

  it.effect("lets exactly one terminal state win when cancel races completion; log and store agree", () =>
    Effect.gen(function*() {
      let gate = yield* Deferred.make<void>()
      const runtime = yield* runtimeFor((ctx) =>
        Effect.gen(function*() {
          const mine = gate
          yield* ctx.working()
          yield* Deferred.await(mine)
          yield* ctx.complete()
        }).pipe(Effect.catchTag("TaskActionRefused", () => Effect.void))
      )
      const outcomes = new Set<string>()
      for (let i = 0; i < 100; i++) {
        gate = yield* Deferred.make<void>()
        const task = asTask(yield* runtime.send({ message: userMessage("race"), configuration: { blocking: false } }, alice))
        const log = yield* Effect.forkChild(Stream.runCollect(yield* runtime.resubscribe({ id: task.id }, alice, 0)))
        // vary which side gets ahead so that both outcomes occur
        const pause = (n: number) => Effect.repeat(Effect.yieldNow, { times: n })
        const [cancel] = yield* Effect.all([
          Effect.andThen(pause(i % 6), Effect.result(runtime.cancel({ id: task.id }, alice))),
          Effect.andThen(pause((i * 5) % 7), Deferred.succeed(gate, undefined))
        ], { concurrency: "unbounded" })
        const final = (yield* runtime.send({ message: userMessage("?", { taskId: task.id }) }, alice).pipe(Effect.flip))
        expect(final._tag).toBe("InvalidParams")
        const events = yield* Fiber.join(log)
        const terminals = kinds(events).filter((k) => k === "status:completed" || k === "status:canceled")
        expect(terminals).toHaveLength(1)
        const stored = Option.getOrThrow(yield* runtime.store.get(task.id)).task.status.state
        expect(`status:${stored}`).toBe(terminals[0])
        expect(cancel._tag === "Success" ? "canceled" : "completed").toBe(stored)
        outcomes.add(stored)
      }
      expect([...outcomes].sort()).toEqual(["canceled", "completed"])
    }))
})

describe("TaskRuntime requests", () => {
  it.effect("keeps tasks private to their principal: others get TaskNotFound everywhere", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) => Effect.asVoid(ctx.requestInput("?")))
      const task = asTask(yield* runtime.send({ message: userMessage("x") }, alice))
      const bob = as("bob")
      const errors = yield* Effect.all([
        Effect.flip(runtime.get({ id: task.id }, bob)),
        Effect.flip(runtime.cancel({ id: task.id }, bob)),
        Effect.flip(runtime.resubscribe({ id: task.id }, bob)),
        Effect.flip(runtime.send({ message: userMessage("y", { taskId: task.id }) }, bob)),
        Effect.flip(runtime.listPushConfigs({ id: task.id }, bob)),
        Effect.flip(runtime.setPushConfig({ taskId: task.id, pushNotificationConfig: { url: "https://x.example/" } }, bob))
      ])
      expect(errors.map((e) => e._tag)).toEqual(Array(6).fill("TaskNotFound"))
      expect((yield* runtime.get({ id: task.id }, alice)).status.state).toBe("input-required")
    }))

  it.effect("validates task and context ids of a message", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) => Effect.asVoid(ctx.requestInput("?")))
      expect((yield* Effect.flip(runtime.send({ message: userMessage("x", { taskId: "nope" }) }, alice)))._tag).toBe("TaskNotFound")
      const inContext = asTask(yield* runtime.send({ message: userMessage("x", { contextId: "ctx-7" }) }, alice))
      expect(inContext.contextId).toBe("ctx-7")
      const other = asTask(yield* runtime.send({ message: userMessage("x") }, alice))
      expect(other.contextId).not.toBe(other.id)
      const mismatch = yield* Effect.flip(runtime.send({ message: userMessage("x", { taskId: inContext.id, contextId: "ctx-8" }) }, alice))
      expect(mismatch._tag).toBe("InvalidParams")
    }))

  it.effect("refuses parts outside the card's input modes, unless the card accepts */*", () =>
    Effect.gen(function*() {
      const png = [{ kind: "file" as const, file: { mimeType: "image/png", bytes: "AAAA" } }]
      const strict = yield* runtimeFor((ctx) => ctx.complete(), ["text/plain"])
      const refused = yield* Effect.flip(strict.send({ message: userMessage("", {}, png) }, alice))
      expect(refused._tag).toBe("ContentTypeNotSupported")
      expect(asTask(yield* strict.send({ message: userMessage("text is fine") }, alice)).status.state).toBe("completed")
      const images = yield* runtimeFor((ctx) => ctx.complete(), ["text/plain", "image/*"])
      expect(asTask(yield* images.send({ message: userMessage("", {}, png) }, alice)).status.state).toBe("completed")
      const open = yield* runtimeFor((ctx) => ctx.complete(), ["*/*"])
      expect(asTask(yield* open.send({ message: userMessage("", {}, png) }, alice)).status.state).toBe("completed")
    }))

  it.effect("stores push configs with server ids, the first reachable as default", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) => Effect.asVoid(ctx.requestInput("?")))
      const task = asTask(yield* runtime.send({
        message: userMessage("x"),
        configuration: { pushNotificationConfig: { url: "https://a.example/hook", token: "t1" } }
      }, alice))
      const first = yield* runtime.getPushConfig({ id: task.id, pushNotificationConfigId: "default" }, alice)
      expect(first.pushNotificationConfig.url).toBe("https://a.example/hook")
      expect(first.pushNotificationConfig.id).toBeTypeOf("string")
      const second = yield* runtime.setPushConfig({ taskId: task.id, pushNotificationConfig: { url: "https://b.example/hook" } }, alice)
      const secondId = second.pushNotificationConfig.id!
      expect((yield* runtime.getPushConfig({ id: task.id, pushNotificationConfigId: secondId }, alice)).pushNotificationConfig.url)
        .toBe("https://b.example/hook")
      expect((yield* runtime.listPushConfigs({ id: task.id }, alice)).map((c) => c.pushNotificationConfig.url))
        .toEqual(["https://a.example/hook", "https://b.example/hook"])
      expect(Option.getOrThrow(yield* runtime.store.get(task.id)).pushConfigs).toHaveLength(2)
      yield* runtime.deletePushConfig({ id: task.id, pushNotificationConfigId: secondId }, alice)
      expect(yield* runtime.listPushConfigs({ id: task.id }, alice)).toHaveLength(1)
      const missing = yield* Effect.flip(runtime.getPushConfig({ id: task.id, pushNotificationConfigId: secondId }, alice))
      expect(missing._tag).toBe("TaskNotFound")
    }))

  it.effect("reports every state change to onTaskChange listeners", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) => Effect.andThen(ctx.working(), ctx.complete()))
      const states: Array<string> = []
      yield* runtime.onTaskChange((c) => states.push(c.task.status.state))
      yield* runtime.send({ message: userMessage("x") }, alice)
      expect(states).toEqual(["submitted", "working", "completed"])
    }))

  it.effect("continues a stored task that has no actor in this process", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore()
      const asking = Agent.make({ card: testCard(), execute: (ctx) => Effect.asVoid(ctx.requestInput("?")) })
      const first = yield* TaskRuntime.make(asking, { store })
      const task = asTask(yield* first.send({ message: userMessage("x") }, alice))
      // a second runtime (another process) sharing the store
      const second = yield* TaskRuntime.make(
        Agent.make({ card: testCard(), execute: (ctx) => ctx.complete(`resumed with ${messageText(ctx.message)}`) }),
        { store }
      )
      const done = asTask(yield* second.send({ message: userMessage("y", { taskId: task.id }) }, alice))
      expect(done.status.state).toBe("completed")
      expect(done.history?.map(messageText)).toEqual(["x", "?", "y", "resumed with y"])
      const other = asTask(yield* first.send({ message: userMessage("z") }, alice))
      expect((yield* second.cancel({ id: other.id }, alice)).status.state).toBe("canceled")
      expect(Option.getOrThrow(yield* store.get(other.id)).task.status.state).toBe("canceled")
    }))

  it.effect("shutdown refuses new tasks, waits for running ones, then cancels the rest", () =>
    Effect.gen(function*() {
      const runtime = yield* runtimeFor((ctx) =>
        messageText(ctx.message) === "wait" ? Effect.asVoid(ctx.requestInput("?")) : Effect.andThen(ctx.working(), Effect.never)
      )
      const waiting = asTask(yield* runtime.send({ message: userMessage("wait") }, alice))
      const stuck = asTask(yield* runtime.send({ message: userMessage("stuck"), configuration: { blocking: false } }, alice))
      const shutdown = yield* Effect.forkChild(runtime.shutdown({ grace: "5 seconds" }))
      yield* Effect.yieldNow
      expect((yield* Effect.flip(runtime.send({ message: userMessage("new") }, alice)))._tag).toBe("UnsupportedOperation")
      yield* TestClock.adjust("5 seconds")
      yield* Fiber.join(shutdown)
      expect((yield* runtime.get({ id: stuck.id }, alice)).status.state).toBe("canceled")
      expect((yield* runtime.get({ id: waiting.id }, alice)).status.state).toBe("canceled")
    }))
})
