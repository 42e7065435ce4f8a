/**
 * A conversation context belongs to the principal that started it. Another principal naming it gets a
 * task in a fresh context of its own, so an agent that keys its memory by `ctx.contextId` (as most do)
 * never shows one principal's conversation to another.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { TaskRuntime } from "./task-runtime.ts"
import type { TaskStore } from "./task-store.ts"

const alice = as("alice")
const bob = as("bob")

/** What one run of the agent saw. */
interface Seen {
  readonly principal: string
  readonly contextId: string
  readonly history: ReadonlyArray<string>
  readonly memory: ReadonlyArray<string>
}

/**
 * An agent with conversation memory keyed by `ctx.contextId`, the way agents commonly keep it; it
 * completes (or, for text starting with "reply", answers with a Message) and records what it saw.
 */
const rememberingAgent = () => {
  const memory = new Map<string, Array<string>>()
  const seen: Array<Seen> = []
  const agent = Agent.make({
    card: testCard(),
    execute: (ctx) =>
      Effect.suspend(() => {
        const remembered = memory.get(ctx.contextId) ?? []
        seen.push({
          principal: ctx.principal.id,
          contextId: ctx.contextId,
          history: ctx.history.map(messageText),
          memory: [...remembered]
        })
        memory.set(ctx.contextId, [...remembered, messageText(ctx.message)])
        return messageText(ctx.message).startsWith("reply") ? ctx.reply("noted") : ctx.complete("noted")
      })
  })
  return { agent, seen }
}

const runtimeWith = (store?: TaskStore) =>
  Effect.gen(function*() {
    const { agent, seen } = rememberingAgent()
    const runtime = yield* TaskRuntime.make(agent, store === undefined ? {} : { store })
    return { runtime, seen }
  })

const contextOf = (r: Task | Message): string => {
  if (r.contextId === undefined) throw new Error("answer without contextId")
  return r.contextId
}

describe("TaskRuntime conversation contexts", () => {
  it.effect("starts another principal's message naming a context in a fresh context of its own", () =>
    Effect.gen(function*() {
      const { runtime, seen } = yield* runtimeWith()
      const first = yield* runtime.send({ message: userMessage("my secret", { contextId: "shared" }) }, alice)
      expect(contextOf(first)).toBe("shared")
      const intruder = yield* runtime.send({ message: userMessage("what was said?", { contextId: "shared" }) }, bob)
      expect(contextOf(intruder)).not.toBe("shared")
      expect(seen[1]).toEqual({ principal: "bob", contextId: contextOf(intruder), history: ["what was said?"], memory: [] })
      // the owner continues her own context, memory intact
      const again = yield* runtime.send({ message: userMessage("more", { contextId: "shared" }) }, alice)
      expect(contextOf(again)).toBe("shared")
      expect(seen[2]?.memory).toEqual(["my secret"])
      // and the intruder's context is his own from now on
      const back = yield* runtime.send({ message: userMessage("again", { contextId: contextOf(intruder) }) }, bob)
      expect(contextOf(back)).toBe(contextOf(intruder))
      expect(seen[3]?.memory).toEqual(["what was said?"])
    }))

  it.effect("protects contexts the server generated, for tasks and for direct replies", () =>
    Effect.gen(function*() {
      const { runtime, seen } = yield* runtimeWith()
      for (const text of ["task secret", "reply secret"]) {
        const owned = contextOf(yield* runtime.send({ message: userMessage(text) }, alice))
        const other = contextOf(yield* runtime.send({ message: userMessage("peek", { contextId: owned }) }, bob))
        expect(other).not.toBe(owned)
        expect(seen.at(-1)).toMatchObject({ principal: "bob", contextId: other, memory: [] })
        expect(contextOf(yield* runtime.send({ message: userMessage("mine", { contextId: owned }) }, alice))).toBe(owned)
        expect(seen.at(-1)).toMatchObject({ principal: "alice", contextId: owned, memory: [text] })
      }
    }))

  it.effect("keeps a context its owner's once the task is finished and the runtime that ran it is gone", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore()
      const before = yield* runtimeWith(store)
      const owned = contextOf(yield* before.runtime.send({ message: userMessage("secret") }, alice))
      yield* before.runtime.shutdown()
      const after = yield* runtimeWith(store)
      expect(contextOf(yield* after.runtime.send({ message: userMessage("peek", { contextId: owned }) }, bob))).not.toBe(owned)
      expect(contextOf(yield* after.runtime.send({ message: userMessage("mine", { contextId: owned }) }, alice))).toBe(owned)
    }))

  it.effect("keeps a client-chosen context nobody owns, for the client that named it", () =>
    Effect.gen(function*() {
      const { runtime } = yield* runtimeWith()
      expect(contextOf(yield* runtime.send({ message: userMessage("x", { contextId: "ctx-mine" }) }, bob))).toBe("ctx-mine")
      expect(contextOf(yield* runtime.send({ message: userMessage("y", { contextId: "ctx-mine" }) }, bob))).toBe("ctx-mine")
    }))
})
