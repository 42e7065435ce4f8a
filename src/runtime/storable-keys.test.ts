/**
 * A context id a store could not keep as a key (U+0000, a lone surrogate) is refused before any task
 * exists, on every store alike (this is the in-memory one; payloads.test.ts runs PostgreSQL); a task id
 * that holds one names no task. The content of a message keeps them.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { TaskRuntime } from "./task-runtime.ts"

const echo = Agent.make({ card: testCard(), execute: (ctx) => ctx.complete(messageText(ctx.message)) })

describe("keys a store cannot keep", () => {
  it.effect("are refused as a context id and name no task; in text they are kept", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(echo)
      const alice = as("alice")
      for (const bad of ["c\u0000", "c\ud800", "\udfffc"]) {
        const refused = yield* Effect.flip(runtime.send({ message: userMessage("hi", { contextId: bad }) }, alice))
        expect(refused._tag).toBe("InvalidParams")
        expect(refused.message).toBe("Invalid params: message.contextId may not contain U+0000 or a lone surrogate")
        expect((yield* Effect.flip(runtime.get({ id: bad }, alice)))._tag).toBe("TaskNotFound")
      }
      const kept = (yield* runtime.send({ message: userMessage("a\u0000b\ud800") }, alice)) as Task | Message
      expect(kept.kind === "task" && kept.status.message?.parts[0]).toEqual({ kind: "text", text: "a\u0000b\ud800" })
    }))
})
