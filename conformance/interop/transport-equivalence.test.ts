/**
 * One conversation, held over JSON-RPC and over REST, in A2A 1.0 and in 0.3, by our client against one
 * server (the demo agent, push on): the tasks, histories, artifacts, stream events, push configs and
 * errors must be the same once server-made ids and timestamps are normalised, whichever the binding and
 * whichever the version (one model, two codecs), but for the one error the versions define differently.
 */
import { Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { StreamResult, Task } from "../../schemas/index.ts"
import type { Listening } from "../../src/adapters/listening.ts"
import { serveNode } from "../../src/adapters/node.ts"
import { A2AClient, type ProtocolVersion, type TransportProtocol, userText } from "../../src/client/index.ts"
import { A2AServer } from "../../src/server/a2a-server.ts"
import { demoAgent } from "../../examples/agents/demo.ts"

const webhook = "http://127.0.0.1:9/hook"

let server: Listening

beforeAll(async () => {
  const agent = { ...demoAgent, card: { ...demoAgent.card, capabilities: { ...demoAgent.card.capabilities, pushNotifications: true } } }
  // The webhook is a closed loopback port, allowlisted: configs are accepted, deliveries fail quietly.
  server = await serveNode(await A2AServer.make(agent, { push: { allow: ["127.0.0.1"] } }))
})
afterAll(() => server.close({ graceMs: 0 }))

const asTask = (r: StreamResult): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}

/** What the conversation produced, step by step: results, stream events, and errors by tag and code. */
type Transcript = Array<readonly [string, unknown]>

const converse = (transport: TransportProtocol, protocolVersion: ProtocolVersion): Promise<Transcript> =>
  Effect.runPromise(Effect.gen(function*() {
    const client = yield* A2AClient.make({ url: server.url }, { transport, protocolVersion, timeoutMs: 10_000, retries: 0 })
    expect([client.transport, client.protocolVersion]).toEqual([transport, protocolVersion])
    const out: Transcript = []
    const note = (step: string, value: unknown) => void out.push([step, value])
    const error = <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>) =>
      Effect.map(Effect.flip(effect), (e) => ({ tag: e._tag, code: (e as { code?: number }).code }))

    const echoed = asTask(yield* client.sendMessage(userText("hello over both bindings")))
    note("send", echoed)
    note("reply", yield* client.sendMessage(userText("reply with a message")))

    const events = [...(yield* Stream.runCollect(client.streamMessage(userText("streamed in four chunks"))))]
    note("stream", events)
    const streamed = asTask(events[0]!)
    note("artifacts after the stream", (yield* client.getTask({ id: streamed.id })).artifacts)

    const asked = asTask(yield* client.sendMessage(userText("greet")))
    note("input required", asked)
    const config = { taskId: asked.id, pushNotificationConfig: { id: "cfg-1", url: webhook, token: "tok-1" } }
    note("push set", yield* client.setPushConfig(config))
    note("push get", yield* client.getPushConfig({ id: asked.id, pushNotificationConfigId: "cfg-1" }))
    note("push list", yield* client.listPushConfigs({ id: asked.id }))
    note("push delete", yield* client.deletePushConfig({ id: asked.id, pushNotificationConfigId: "cfg-1" }))
    note("push list after delete", yield* client.listPushConfigs({ id: asked.id }))
    note("follow-up", yield* client.sendMessage(userText("Ada", { taskId: asked.id, contextId: asked.contextId })))
    note("get", yield* client.getTask({ id: asked.id }))
    note("get historyLength 1", yield* client.getTask({ id: asked.id, historyLength: 1 }))
    note("message to a finished task", yield* error(client.sendMessage(userText("again", { taskId: asked.id }))))

    const other = asTask(yield* client.sendMessage(userText("greet")))
    note("cancel", yield* client.cancelTask({ id: other.id }))
    note("second cancel", yield* error(client.cancelTask({ id: other.id })))
    note("unknown task", yield* error(client.getTask({ id: "no-such-task" })))
    note("resubscribe to a finished task", [...(yield* Stream.runCollect(client.resubscribe({ id: other.id })))])
    return out
  }))

/**
 * Replaces every server- or client-made id (task, context, message, push-config name) with its order of
 * first appearance, and drops timestamps: what is left must not depend on the binding. A chunk's `append`
 * and `lastChunk` flags left out mean false (1.0 writes no false flag; 0.3 writes them).
 */
const normalise = (transcript: Transcript): unknown => {
  const ids = new Map<string, string>()
  const alias = (value: string) => {
    if (!ids.has(value)) ids.set(value, `#${ids.size + 1}`)
    return ids.get(value)!
  }
  const walk = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v))
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k, v]) => k !== "timestamp" && !((k === "append" || k === "lastChunk") && v === false))
          .map(([k, v]) => [k, walk(v, k)])
      )
    }
    if (typeof value === "string" && (key === "id" || key === "taskId" || key === "contextId" || key === "messageId")) return alias(value)
    return value
  }
  return walk(transcript)
}

/** Steps whose result the versions define differently (a message to a finished task: spec 1.0 §3.1.1). */
const versionSpecific: ReadonlySet<string> = new Set(["message to a finished task"])

const same = (a: Transcript, b: Transcript, except: ReadonlySet<string> = new Set()) => {
  expect(a.map(([step]) => step)).toEqual(b.map(([step]) => step))
  const kept = (t: Transcript) => t.filter(([step]) => !except.has(step))
  for (const [i, [step]] of kept(b).entries()) expect(normalise([kept(a)[i]!]), step).toEqual(normalise([kept(b)[i]!]))
  expect(normalise(kept(a))).toEqual(normalise(kept(b)))
}

describe.each(["1.0", "0.3"] as const)("the same conversation over JSON-RPC and REST in A2A %s", (version) => {
  it("yields the same tasks, histories, artifacts, events, push configs and errors", async () => {
    same(await converse("HTTP+JSON", version), await converse("JSONRPC", version))
  }, 60_000)

  it("the conversation says what it should (so equal transcripts are not equally empty)", async () => {
    const transcript = new Map(await converse("HTTP+JSON", version))
    expect(transcript.get("send")).toMatchObject({ status: { state: "completed" }, artifacts: [{ artifactId: "echo" }] })
    expect(transcript.get("reply")).toMatchObject({ kind: "message", parts: [{ text: "You said: reply with a message" }] })
    const stream = transcript.get("stream") as Array<StreamResult>
    expect(stream.filter((e) => e.kind === "artifact-update").length).toBeGreaterThanOrEqual(3)
    expect(stream.at(-1)).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } })
    expect(transcript.get("input required")).toMatchObject({ status: { state: "input-required" } })
    expect(transcript.get("push list")).toEqual([expect.objectContaining({ pushNotificationConfig: { id: "cfg-1", url: webhook, token: "tok-1" } })])
    expect(transcript.get("push list after delete")).toEqual([])
    expect(transcript.get("follow-up")).toMatchObject({ status: { state: "completed", message: { parts: [{ text: "Hello, Ada!" }] } } })
    const full = transcript.get("get") as Task
    expect(full.history?.length).toBeGreaterThanOrEqual(3)
    expect((transcript.get("get historyLength 1") as Task).history).toEqual(full.history?.slice(-1))
    expect(transcript.get("message to a finished task")).toEqual(
      version === "1.0" ? { tag: "UnsupportedOperation", code: -32004 } : { tag: "InvalidParams", code: -32602 }
    )
    expect(transcript.get("cancel")).toMatchObject({ status: { state: "canceled" } })
    expect(transcript.get("second cancel")).toEqual({ tag: "TaskNotCancelable", code: -32002 })
    expect(transcript.get("unknown task")).toEqual({ tag: "TaskNotFound", code: -32001 })
    expect(transcript.get("resubscribe to a finished task")).toMatchObject([{ kind: "task", status: { state: "canceled" } }])
  }, 60_000)
})

describe("the same conversation in A2A 1.0 and 0.3", () => {
  it("yields the same model results in both versions, but for a message to a finished task", async () => {
    for (const transport of ["JSONRPC", "HTTP+JSON"] as const) same(await converse(transport, "1.0"), await converse(transport, "0.3"), versionSpecific)
  }, 60_000)
})
