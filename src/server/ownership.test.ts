/**
 * Tasks belong to the principal that created them. Every task method called by another principal
 * answers TaskNotFound (-32001) exactly as for an id that never existed, and changes nothing.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { A2AServer, type A2AServerHandle } from "./a2a-server.ts"
import { testAgent } from "../../testing/server/test-agent.ts"
import { textMessage, wireCall, type WireAnswer } from "../../testing/server/wire-call.ts"

const alice = { "x-api-key": "key-of-alice" }
const bob = { "x-api-key": "key-of-bob" }
const hook = "http://127.0.0.1:9/alice-hook"

let server: A2AServerHandle
const delivered: Array<string> = []

beforeAll(async () => {
  server = await A2AServer.make(
    testAgent({
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
      security: [{ key: [] }]
    }),
    {
      authentication: {
        authenticators: { key: apiKeyAuthenticator({ keys: { "key-of-alice": { id: "alice" }, "key-of-bob": { id: "bob" } } }) }
      },
      push: {
        allow: ["127.0.0.1"],
        transport: async (request) => {
          delivered.push(request.url)
          return { status: 200 }
        }
      }
    }
  )
})
afterAll(() => server.dispose({ graceMs: 0 }))

const call = (method: string, params: unknown, headers: Record<string, string>) =>
  wireCall(server.handler, method, params, { headers, id: 7 })

/** The error of a JSON or SSE answer (an SSE error is one event, then the stream ends). */
const errorOf = (answer: WireAnswer) => {
  expect(answer.status).toBe(200)
  if (answer.events.length > 0) {
    expect(answer.events).toHaveLength(1)
    return answer.events[0].error
  }
  return answer.body.error
}

/** Alice's task that stays `working`, with one push config. */
const aliceTask = async () => {
  const created = await call("message/send", textMessage("hold"), alice)
  const task = created.body.result
  expect(task).toMatchObject({ kind: "task", status: { state: "working" } })
  const set = await call("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: { id: "cfg-1", url: hook } }, alice)
  expect(set.body.result).toEqual({ taskId: task.id, pushNotificationConfig: { id: "cfg-1", url: hook } })
  return task as { id: string; contextId: string }
}

/** Every task method, aimed at task `id`. */
const probes = (id: string): ReadonlyArray<readonly [string, unknown]> => [
  ["tasks/get", { id }],
  ["tasks/cancel", { id }],
  ["tasks/resubscribe", { id }],
  ["message/send", textMessage("let me in", { taskId: id })],
  ["message/stream", textMessage("let me in", { taskId: id })],
  ["tasks/pushNotificationConfig/set", { taskId: id, pushNotificationConfig: { url: "http://127.0.0.1:9/bob-hook" } }],
  ["tasks/pushNotificationConfig/get", { id, pushNotificationConfigId: "cfg-1" }],
  ["tasks/pushNotificationConfig/list", { id }],
  ["tasks/pushNotificationConfig/delete", { id, pushNotificationConfigId: "cfg-1" }]
]

describe("task ownership", () => {
  it.each(probes("ID").map(([method]) => method))(
    "%s on another principal's task answers TaskNotFound, word for word as for an unknown id",
    async (method) => {
      const task = await aliceTask()
      const unknownId = crypto.randomUUID()
      const [, params] = probes(task.id).find(([m]) => m === method)!
      const [, unknownParams] = probes(unknownId).find(([m]) => m === method)!
      const foreign = errorOf(await call(method, params, bob))
      const unknown = errorOf(await call(method, unknownParams, bob))
      expect(foreign.code).toBe(-32001)
      expect(JSON.stringify(foreign).replaceAll(task.id, "ID")).toBe(JSON.stringify(unknown).replaceAll(unknownId, "ID"))
    }
  )

  it("another principal's calls change nothing: state, history and push configs stay as the owner left them", async () => {
    const task = await aliceTask()
    for (const [method, params] of probes(task.id)) expect(errorOf(await call(method, params, bob)).code).toBe(-32001)
    const seen = (await call("tasks/get", { id: task.id }, alice)).body.result
    expect(seen.status.state).toBe("working")
    expect(seen.history).toHaveLength(1)
    expect((await call("tasks/pushNotificationConfig/list", { id: task.id }, alice)).body.result).toEqual([
      { taskId: task.id, pushNotificationConfig: { id: "cfg-1", url: hook } }
    ])
    const record = await Effect.runPromise(server.runtime.store.get(task.id))
    expect(record._tag === "Some" && record.value.owner).toBe("alice")
  })

  it("the owner can do everything the other principal was refused", async () => {
    const task = await aliceTask()
    expect((await call("tasks/get", { id: task.id }, alice)).body.result.id).toBe(task.id)
    expect((await call("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: "cfg-1" }, alice)).body.result)
      .toEqual({ taskId: task.id, pushNotificationConfig: { id: "cfg-1", url: hook } })
    const resubscribed = await wireCall(server.handler, "tasks/resubscribe", { id: task.id }, { headers: alice, maxEvents: 1 })
    expect(resubscribed.events[0].result).toMatchObject({ kind: "task", id: task.id })
    const continued = await call("message/send", textMessage("hold", { taskId: task.id }), alice)
    expect(continued.body.result.history).toHaveLength(2)
    expect((await call("tasks/pushNotificationConfig/delete", { id: task.id, pushNotificationConfigId: "cfg-1" }, alice)).body)
      .toEqual({ jsonrpc: "2.0", id: 7, result: null })
    expect((await call("tasks/cancel", { id: task.id }, alice)).body.result.status.state).toBe("canceled")
  })

  it("a finished task of another principal is still not found: no -32002 or -32602 that would reveal its state", async () => {
    const done = (await call("message/send", textMessage("finish"), alice)).body.result
    expect(done.status.state).toBe("completed")
    expect(errorOf(await call("tasks/cancel", { id: done.id }, bob)).code).toBe(-32001)
    expect(errorOf(await call("message/send", textMessage("more", { taskId: done.id }), bob)).code).toBe(-32001)
    expect(errorOf(await call("tasks/cancel", { id: done.id }, alice)).code).toBe(-32002)
    expect(errorOf(await call("message/send", textMessage("more", { taskId: done.id }), alice)).code).toBe(-32602)
  })

  it("a task created by one principal in a context lets no other principal into that task via the contextId", async () => {
    const task = await aliceTask()
    const answer = await call("message/send", textMessage("finish", { contextId: task.contextId }), bob)
    const bobs = answer.body.result
    expect(bobs.id).not.toBe(task.id)
    expect(bobs.history.every((m: { taskId?: string }) => m.taskId !== task.id)).toBe(true)
    expect((await call("tasks/get", { id: task.id }, alice)).body.result.history).toHaveLength(1)
  })
})

describe("referenceTaskIds", () => {
  const seen: Array<ReadonlyArray<string> | undefined> = []
  let recording: A2AServerHandle
  beforeAll(async () => {
    const card = testAgent({
      securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
      security: [{ key: [] }]
    }).card
    recording = await A2AServer.make(
      Agent.make({
        card,
        onReturn: "keep",
        execute: (ctx) => Effect.sync(() => seen.push(ctx.message.referenceTaskIds)).pipe(Effect.andThen(ctx.working()))
      }),
      { authentication: { authenticators: { key: apiKeyAuthenticator({ keys: { "key-of-alice": { id: "alice" }, "key-of-bob": { id: "bob" } } }) } } }
    )
  })
  afterAll(() => recording.dispose({ graceMs: 0 }))

  const send = (referenceTaskIds: ReadonlyArray<string>, headers: Record<string, string>) =>
    wireCall(recording.handler, "message/send", { message: { ...textMessage("hi").message, referenceTaskIds } }, { headers, id: 7 })
  const rest = (referenceTaskIds: ReadonlyArray<string>, headers: Record<string, string>) =>
    recording.handler(new Request("http://127.0.0.1/v1/message:send", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", content: [{ text: "hi" }], referenceTaskIds } })
    }))

  it("another principal's task ids are refused with -32602 (REST 400), word for word as unknown ids, before any task exists", async () => {
    const own = (await send([], alice)).body.result.id as string
    const agentRuns = seen.length
    const tasks = (await Effect.runPromise(recording.runtime.store.list())).length
    const unknownId = crypto.randomUUID()
    const foreign = (await send([own], bob)).body.error
    const unknown = (await send([unknownId], bob)).body.error
    expect(foreign.code).toBe(-32602)
    expect(foreign.message).toContain("referenceTaskIds[0]")
    expect(JSON.stringify(foreign).replaceAll(own, "ID")).toBe(JSON.stringify(unknown).replaceAll(unknownId, "ID"))
    const overRest = await rest([own], bob)
    expect(overRest.status).toBe(400)
    expect(((await overRest.json()) as { code: number }).code).toBe(-32602)
    expect(seen.length).toBe(agentRuns)
    expect((await Effect.runPromise(recording.runtime.store.list())).length).toBe(tasks)
  })

  it("the sender's own task ids reach the agent as sent", async () => {
    const first = (await send([], alice)).body.result.id as string
    const second = (await send([first], alice)).body.result
    expect(second.status.state).toBe("working")
    expect(seen.at(-1)).toEqual([first])
    expect((await rest([first, second.id], alice)).status).toBe(200)
    expect(seen.at(-1)).toEqual([first, second.id])
  })

  it("a message names at most 64 of them", async () => {
    const own = (await send([], alice)).body.result.id as string
    expect((await send(Array.from({ length: 64 }, () => own), alice)).body.result.kind).toBe("task")
    const over = (await send(Array.from({ length: 65 }, () => own), alice)).body.error
    expect(over.code).toBe(-32602)
    expect(over.message).toContain("at most 64")
  })
})
