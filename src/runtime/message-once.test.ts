/**
 * A message is taken once: sent again with the same `messageId` (a client's retry after a lost answer),
 * it is answered with the task as it is, never applied a second time.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
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

describe("a message sent twice", () => {
  it.effect("is answered with the task the first one made, and held once", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(asking)
      const alice = as("alice")
      const asked = asTask(yield* runtime.send({ message: userMessage("hi") }, alice))
      const answer = userMessage("Ada", { taskId: asked.id })
      const first = asTask(yield* runtime.send({ message: answer }, alice))
      expect(first.status.state).toBe("completed")
      const again = asTask(yield* runtime.send({ message: answer }, alice))
      expect(again).toEqual(first)
      const streamed = yield* Stream.runCollect(yield* runtime.stream({ message: answer }, alice))
      expect(streamed.map((e) => e.event)).toEqual([first])
      const held = (yield* runtime.get({ id: asked.id }, alice)).history!.filter((m) => m.messageId === answer.messageId)
      expect(held).toHaveLength(1)
    }))
})
