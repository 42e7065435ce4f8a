/**
 * Conversation contexts belong to their principal, over a real socket with API keys: a message naming
 * another principal's contextId starts a task in a fresh context of its own, and the agent (whose memory
 * is keyed by contextId) never sees the other principal's history or memory.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { serveNode } from "../adapters/node.ts"
import type { Listening } from "../adapters/listening.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { A2AServer } from "./a2a-server.ts"
import { openStream, rpc, userMessage } from "../../testing/server/rpc.ts"
import { testCard } from "../../testing/server/test-agent.ts"

const alice = { "x-api-key": "key-of-alice" }
const bob = { "x-api-key": "key-of-bob" }

/** Conversation memory as agents commonly keep it: by contextId. */
const memory = new Map<string, Array<string>>()

/** Completes with what it saw: the context, the task's history and the memory of the context. */
const agent = Agent.make({
  card: testCard({
    securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
    security: [{ key: [] }]
  }),
  execute: (ctx) =>
    Effect.suspend(() => {
      const remembered = memory.get(ctx.contextId) ?? []
      memory.set(ctx.contextId, [...remembered, messageText(ctx.message)])
      const saw = { principal: ctx.principal.id, contextId: ctx.contextId, history: ctx.history.map(messageText), memory: remembered }
      return ctx.complete(JSON.stringify(saw))
    })
})

let listening: Listening
let url: string

beforeAll(async () => {
  listening = await serveNode(await A2AServer.make(agent, {
    heartbeatMs: 0,
    authentication: {
      authenticators: { key: apiKeyAuthenticator({ keys: { "key-of-alice": { id: "alice" }, "key-of-bob": { id: "bob" } } }) }
    }
  }))
  url = `${listening.url}/`
})
afterAll(() => listening.close({ graceMs: 0 }))

/** What the agent saw, from the completed task's status message. */
const sawOf = (task: { status: { state: string; message: { parts: Array<{ text: string }> } } }) => {
  expect(task.status.state).toBe("completed")
  return JSON.parse(task.status.message.parts[0]!.text) as { contextId: string; history: Array<string>; memory: Array<string> }
}

const send = async (text: string, headers: Record<string, string>, contextId?: string) => {
  const answer = await rpc(url, "message/send", { message: userMessage(text, contextId === undefined ? {} : { contextId }) }, headers)
  expect(answer.body.error).toBeUndefined()
  return answer.body.result
}

describe("conversation contexts over HTTP with two principals", () => {
  it("message/send naming another principal's context starts a task in a fresh context of the sender", async () => {
    const owned = await send("alice's secret", alice)
    const context: string = owned.contextId
    const intruder = await send("what did alice say?", bob, context)
    expect(intruder.contextId).not.toBe(context)
    expect(sawOf(intruder)).toEqual({ principal: "bob", contextId: intruder.contextId, history: ["what did alice say?"], memory: [] })
    // the task history on the wire is the sender's own too
    expect(intruder.history.map((m: { contextId: string }) => m.contextId)).toEqual(intruder.history.map(() => intruder.contextId))
    const back = await send("and now?", alice, context)
    expect(back.contextId).toBe(context)
    expect(sawOf(back).memory).toEqual(["alice's secret"])
  })

  it("message/stream naming another principal's context streams a task in a fresh context", async () => {
    const context: string = (await send("alice's plan", alice, `ctx-${crypto.randomUUID()}`)).contextId
    const stream = await openStream(url, "message/stream", { message: userMessage("tell me", { contextId: context }) }, bob)
    expect(await stream.waitForEnd()).toBe(true)
    const results = stream.received.map((e) => (e.json as { result: any }).result)
    expect(results[0].kind).toBe("task")
    expect(new Set(results.map((r) => r.contextId))).toEqual(new Set([results[0].contextId]))
    expect(results[0].contextId).not.toBe(context)
    const last = results.at(-1)
    expect(last).toMatchObject({ kind: "status-update", final: true })
    expect(JSON.parse(last.status.message.parts[0].text)).toMatchObject({ history: ["tell me"], memory: [] })
  })
})
