/**
 * Agent output is checked where it enters: an action carrying something that is not valid A2A 0.3.0 is
 * refused with TaskActionRefused (reason "invalid-output") and changes nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, Stream } from "effect"
import type { Message, Part, Task } from "../../schemas/index.ts"
import { StreamResult } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import type { MessageInput } from "../agent/messages.ts"
import type { TaskContext } from "../agent/task-context.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { TaskRuntime } from "./task-runtime.ts"

const alice = as("alice")

const asTask = (r: Task | Message): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}

const badPart = { kind: "text", text: 42 } as unknown as Part
const badMessage = [badPart] as unknown as MessageInput

/** Every TaskContext action, given something invalid. */
const invalidActions = (ctx: TaskContext): Record<string, Effect.Effect<unknown, { readonly _tag: string; readonly reason: string; readonly message: string }>> => ({
  working: ctx.working(badMessage),
  artifactParts: ctx.artifact([badPart]),
  artifactMetadata: ctx.artifact("x", { metadata: { n: 1n } }),
  artifactFlag: ctx.artifact("x", { append: "yes" as unknown as boolean }),
  requestInput: ctx.requestInput(badMessage),
  requestAuth: ctx.requestAuth({ kind: "data", data: { f: () => 1 } } as unknown as Part),
  complete: ctx.complete([] as ReadonlyArray<Part>),
  fail: ctx.fail({ kind: "file", file: { bytes: "AAAA", uri: "https://x/y" } } as unknown as Part),
  reject: ctx.reject(badMessage)
})

describe("TaskRuntime, agent output that is not valid A2A", () => {
  it.effect("refuses every action carrying it, with a reason saying what is wrong, and changes nothing", () =>
    Effect.gen(function*() {
      const refusals: Record<string, string> = {}
      const runtime = yield* TaskRuntime.make(Agent.make({
        card: testCard(),
        execute: (ctx) =>
          Effect.gen(function*() {
            yield* ctx.working("started")
            for (const [name, action] of Object.entries(invalidActions(ctx))) {
              const refused = yield* Effect.flip(action)
              refusals[name] = `${refused._tag}/${refused.reason}: ${refused.message}`
            }
            yield* ctx.complete("done")
          })
      }))
      const events = yield* Stream.runCollect(yield* runtime.stream({ message: userMessage("go") }, alice))
      expect(Object.keys(refusals)).toHaveLength(9)
      for (const text of Object.values(refusals)) expect(text).toMatch(/^TaskActionRefused\/invalid-output: (message|artifact)/)
      expect(refusals["artifactMetadata"]).toContain("metadata.n: a bigint is not a JSON value")
      expect(refusals["artifactParts"]).toContain("parts[0].text")
      const task = yield* runtime.get({ id: (events[0]!.event as Task).id }, alice)
      expect(task.status.state).toBe("completed")
      expect(task.artifacts).toBeUndefined()
      expect(task.history?.map(messageText)).toEqual(["go", "started", "done"])
      // and what was streamed is valid: every event encodes with the wire schema
      for (const { event } of events) expect(() => Schema.encodeSync(StreamResult)(event)).not.toThrow()
    }))

  it.effect("fails the task with that reason when the agent does not handle the refusal", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(Agent.make({
        card: testCard(),
        execute: (ctx) => Effect.andThen(ctx.working(), ctx.artifact("x", { metadata: { when: new Date(0) } }))
      }))
      const task = asTask(yield* runtime.send({ message: userMessage("go") }, alice))
      expect(task.status.state).toBe("failed")
      expect(messageText(task.status.message!)).toBe(
        "The agent failed: artifact is not valid A2A: artifact.metadata.when: a Date object is not a JSON value"
      )
    }))

  it.effect("refuses an invalid reply and answers with a task instead", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(Agent.make({
        card: testCard(),
        execute: (ctx) => Effect.catchTag(ctx.reply([] as ReadonlyArray<Part>), "TaskActionRefused", (e) => ctx.complete(e.reason))
      }))
      const task = asTask(yield* runtime.send({ message: userMessage("go") }, alice))
      expect(messageText(task.status.message!)).toBe("invalid-output")
    }))
})
