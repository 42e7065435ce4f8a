/**
 * The official JS SDK 0.3.14's REST client (`ClientFactory` choosing `HTTP+JSON` from our card, and its
 * `RestTransport` directly) against our REST binding: what it sends must be accepted, what we answer
 * must parse into the right A2A values, and our errors must become its typed errors.
 */
import {
  AuthenticatedExtendedCardNotConfiguredError,
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  PushNotificationNotSupportedError,
  RestTransport,
  RestTransportFactory,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError
} from "@a2a-js/sdk/client"
import type { Message, MessageSendParams, Part, Task } from "@a2a-js/sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type OurRestServer, startOurRestServer } from "./sdk-rest/our-rest-server.ts"
import { restTestAgent } from "./sdk-rest/rest-test-agent.ts"
import { apiKey, extendedCard, keyAuthenticator, securedAgent } from "./sdk-rest/secured-agent.ts"

let server: OurRestServer
let bare: OurRestServer
let secured: OurRestServer
const requested: Array<string> = []

beforeAll(async () => {
  // Webhooks point at a closed loopback port, allowlisted: configs are accepted, deliveries fail quietly.
  server = await startOurRestServer(restTestAgent(), { push: { allow: ["127.0.0.1"] } })
  bare = await startOurRestServer(restTestAgent({ streaming: false, pushNotifications: false }))
  secured = await startOurRestServer(securedAgent(), {
    extendedCard,
    authentication: { authenticators: { key: keyAuthenticator } }
  })
})
afterAll(async () => {
  await Promise.all([server.close(), bare.close(), secured.close()])
})

const recordingFetch: typeof fetch = (input, init) => {
  requested.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`)
  return fetch(input, init)
}

/** A client made the way SDK users make one: from our card, preferring the REST transport. */
const sdkClient = (config: { readonly polling?: boolean } = {}): Promise<Client> =>
  new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new RestTransportFactory({ fetchImpl: recordingFetch })],
    preferredTransports: ["HTTP+JSON"],
    clientConfig: { polling: config.polling ?? false }
  })).createFromUrl(server.url)

const userText = (text: string, extra: Partial<Message> = {}): MessageSendParams => ({
  message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }], ...extra }
})

const asTask = (result: Message | Task): Task => {
  if (result.kind !== "task") throw new Error(`expected a task, got ${JSON.stringify(result)}`)
  return result
}

const textOf = (parts: ReadonlyArray<Part> | undefined) =>
  (parts ?? []).map((p) => (p.kind === "text" ? p.text : "")).join("")

describe("the JS SDK 0.3.14 REST client against our server", () => {
  it("picks our HTTP+JSON interface from the card and talks to /v1", async () => {
    requested.length = 0
    const client = await sdkClient()
    const task = asTask(await client.sendMessage(userText("hello")))
    expect(task.status.state).toBe("completed")
    expect(requested).toEqual(["POST /v1/message:send"])
  })

  it("message:send: a completed Task with its status message and history, or a direct Message", async () => {
    const client = await sdkClient()
    const task = asTask(await client.sendMessage(userText("hello there")))
    expect(textOf(task.status.message?.parts)).toBe("echo: hello there")
    expect(task.status.message?.role).toBe("agent")
    expect(task.history?.map((m) => m.role)).toEqual(["user", "agent"])
    const message = await client.sendMessage(userText("message hi"))
    expect(message).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "echo: hi" }] })
  })

  it("carries every part kind both ways: text, file by URI, file by bytes, data", async () => {
    const client = await sdkClient()
    const parts: Array<Part> = [
      { kind: "text", text: "parts" },
      { kind: "file", file: { uri: "https://example.com/a.png", mimeType: "image/png" } },
      { kind: "file", file: { bytes: "aGVsbG8=", mimeType: "application/octet-stream" } },
      { kind: "data", data: { answer: 42, nested: { list: [1, "two", null] } } }
    ]
    const task = asTask(await client.sendMessage({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts } }))
    expect(task.artifacts?.[0]?.parts).toEqual(parts)
    expect(task.artifacts?.[0]?.name).toBe("echoed parts")
  })

  it("message:stream: the Task first, every chunk in order, the final status last", async () => {
    const client = await sdkClient()
    const events = []
    for await (const event of client.sendMessageStream(userText("stream one two three"))) events.push(event)
    expect(events[0]?.kind).toBe("task")
    const chunks = events.flatMap((e) => (e.kind === "artifact-update" ? [textOf(e.artifact.parts)] : []))
    expect(chunks).toEqual(["one", "two", "three"])
    const last = events.at(-1)
    expect(last).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } })
  })

  it("polling mode sends a non-blocking message; get honours historyLength", async () => {
    const client = await sdkClient({ polling: true })
    // Blocking would never answer: the task waits until it is canceled.
    const task = asTask(await client.sendMessage(userText("wait")))
    expect(task.status.state).not.toBe("completed")
    await client.sendMessage(userText("more", { taskId: task.id, contextId: task.contextId })).catch(() => undefined)
    const full = await client.getTask({ id: task.id })
    expect(full.id).toBe(task.id)
    const last = await client.getTask({ id: task.id, historyLength: 1 })
    expect(last.history).toHaveLength(1)
    expect((full.history?.length ?? 0)).toBeGreaterThan(1)
    await client.cancelTask({ id: task.id })
  })

  it("cancel cancels a working task; a second cancel is TaskNotCancelableError; unknown ids are TaskNotFoundError", async () => {
    const client = await sdkClient({ polling: true })
    const task = asTask(await client.sendMessage(userText("wait")))
    const canceled = await client.cancelTask({ id: task.id })
    expect(canceled.status.state).toBe("canceled")
    await expect(client.cancelTask({ id: task.id })).rejects.toBeInstanceOf(TaskNotCancelableError)
    await expect(client.getTask({ id: "no-such-task" })).rejects.toBeInstanceOf(TaskNotFoundError)
    await expect(client.cancelTask({ id: "no-such-task" })).rejects.toBeInstanceOf(TaskNotFoundError)
  })

  it("resubscribe: the Task snapshot first, then live events until the final one", async () => {
    const client = await sdkClient({ polling: true })
    const task = asTask(await client.sendMessage(userText("wait")))
    const seen: Array<string> = []
    for await (const event of client.resubscribeTask({ id: task.id })) {
      seen.push(event.kind === "status-update" ? `status:${event.status.state}:${event.final}` : event.kind)
      if (event.kind === "task") await client.cancelTask({ id: task.id })
    }
    expect(seen[0]).toBe("task")
    expect(seen.at(-1)).toBe("status:canceled:true")
    await expect(async () => {
      for await (const _ of client.resubscribeTask({ id: "no-such-task" })) break
    }).rejects.toBeInstanceOf(TaskNotFoundError)
  })

  it("push configs: set, get, list and delete round-trip through the SDK's REST shapes", async () => {
    const client = await sdkClient()
    const task = asTask(await client.sendMessage(userText("hello")))
    const config = { id: "cfg-1", url: "http://127.0.0.1:9/a2a", token: "tok-1", authentication: { schemes: ["Bearer"] } }
    const set = await client.setTaskPushNotificationConfig({ taskId: task.id, pushNotificationConfig: config })
    expect(set).toMatchObject({ taskId: task.id, pushNotificationConfig: config })
    // The SDK's Client types this param as TaskIdParams, yet its REST transport needs the config id.
    const byId = { id: task.id, pushNotificationConfigId: "cfg-1" }
    const got = await client.getTaskPushNotificationConfig(byId)
    expect(got).toMatchObject({ taskId: task.id, pushNotificationConfig: { id: "cfg-1", url: config.url, token: "tok-1" } })
    const listed = await client.listTaskPushNotificationConfig({ id: task.id })
    expect(listed.map((c) => c.pushNotificationConfig.id)).toEqual(["cfg-1"])
    await client.deleteTaskPushNotificationConfig({ id: task.id, pushNotificationConfigId: "cfg-1" })
    expect(await client.listTaskPushNotificationConfig({ id: task.id })).toEqual([])
  })

  it("capabilities that are off become the SDK's typed errors", async () => {
    const transport = new RestTransport({ endpoint: bare.restUrl })
    await expect(async () => {
      for await (const _ of transport.sendMessageStream(userText("stream a"))) break
    }).rejects.toBeInstanceOf(UnsupportedOperationError)
    await expect(transport.listTaskPushNotificationConfig({ id: "any" })).rejects.toBeInstanceOf(PushNotificationNotSupportedError)
    await expect(transport.getExtendedAgentCard()).rejects.toBeInstanceOf(AuthenticatedExtendedCardNotConfiguredError)
  })

  it("GET /v1/card: the extended card, security schemes included, for an authenticated caller only", async () => {
    const withKey: typeof fetch = (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), "x-api-key": apiKey } })
    const card = await new RestTransport({ endpoint: secured.restUrl, fetchImpl: withKey }).getExtendedAgentCard()
    expect(card.name).toBe("REST test agent (extended)")
    expect(card.skills.map((s) => s.id)).toEqual(["echo", "secret"])
    expect(card.skills[1]?.security).toEqual([{ key: [] }])
    expect(card.security).toEqual([{ key: [] }, { oauth: ["tasks:write"] }])
    expect(card.securitySchemes).toMatchObject(extendedCard.securitySchemes as object)
    await expect(new RestTransport({ endpoint: secured.restUrl }).getExtendedAgentCard()).rejects.toThrow(/401/)
  })
})
