/**
 * Over a real socket, an agent that hands its context something that is not JSON (a bigint, a Date)
 * never breaks the wire: the action is refused where it enters, the task fails with a message that says
 * why, and every event sent is valid A2A 0.3.0.
 */
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { GetTaskSuccessResponse, SendMessageSuccessResponse, SendStreamingMessageSuccessResponse } from "../../schemas/index.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { serveNode } from "../adapters/node.ts"
import type { Listening } from "../adapters/listening.ts"
import { A2AServer } from "./a2a-server.ts"
import { openStream, rpc, userMessage } from "../../testing/server/rpc.ts"
import { testCard } from "../../testing/server/test-agent.ts"

/** Streams a good chunk, then one whose metadata holds what the text names. */
const agent = Agent.make({
  card: testCard(),
  execute: (ctx) =>
    Effect.gen(function*() {
      yield* ctx.artifact("fine", { artifactId: "a" })
      const bad = messageText(ctx.message) === "bigint" ? 10n : new Date(0)
      yield* ctx.artifact("broken", { artifactId: "b", metadata: { bad } })
      yield* ctx.complete("unreachable")
    })
})

let listening: Listening
let url: string
beforeAll(async () => {
  listening = await serveNode(await A2AServer.make(agent, { heartbeatMs: 0 }))
  url = `${listening.url}/`
})
afterAll(() => listening.close({ graceMs: 0 }))

const decodes = (schema: Schema.Codec<any, any>, json: unknown) => {
  expect(() => Schema.decodeUnknownSync(schema, { onExcessProperty: "error" })(json)).not.toThrow()
}

describe("agent output that is not JSON, over the wire", () => {
  it.each(["bigint", "date"])("message/stream with a %s in artifact metadata: valid events, then failed with the reason", async (kind) => {
    const stream = await openStream(url, "message/stream", { message: userMessage(kind) })
    expect(await stream.waitForEnd()).toBe(true)
    for (const event of stream.received) decodes(SendStreamingMessageSuccessResponse, event.json)
    const results = stream.received.map((e) => (e.json as { result: any }).result)
    expect(results.map((r) => r.kind)).toEqual(["task", "artifact-update", "status-update"])
    expect(results[1].artifact).toEqual({ artifactId: "a", parts: [{ kind: "text", text: "fine" }] })
    const last = results[2]
    expect(last).toMatchObject({ final: true, status: { state: "failed" } })
    expect(last.status.message.parts[0].text).toMatch(/^The agent failed: artifact is not valid A2A: artifact\.metadata\.bad: a (bigint|Date object) is not a JSON value$/)
  })

  it("message/send and tasks/get answer the failed task, valid and without the refused chunk", async () => {
    const sent = await rpc(url, "message/send", { message: userMessage("bigint") })
    decodes(SendMessageSuccessResponse, sent.body)
    expect(sent.body.result.status.state).toBe("failed")
    const got = await rpc(url, "tasks/get", { id: sent.body.result.id })
    decodes(GetTaskSuccessResponse, got.body)
    expect(got.body.result.artifacts.map((a: { artifactId: string }) => a.artifactId)).toEqual(["a"])
  })
})
