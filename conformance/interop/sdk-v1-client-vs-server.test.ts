/**
 * Interop: the official JS SDK 1.3 client (`a2a-js-sdk-v1`, i.e. `@a2a-js/sdk@1.3.0`) against our server,
 * served as users serve it (`A2AServer.make` + `serveNode`) on 127.0.0.1.
 *
 * With compat OFF (the SDK's default) the client reads our card with `A2A-Version: 1.0`, picks a 1.0
 * interface and speaks 1.0 only, on JSON-RPC and on REST: send, stream, get, list, cancel, subscribe, push
 * configs (with deliveries to a real webhook) and errors. With compat ON it still works, and a card that
 * lists only 0.3 interfaces makes it speak 0.3 to the same server.
 */
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client
} from "a2a-js-sdk-v1/client"
import { ListTasksRequest, SendMessageRequest, TaskPushNotificationConfig, TaskState, type StreamResponse, type Task } from "a2a-js-sdk-v1"
import { TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from "a2a-js-sdk-v1/errors"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { conformanceAgent, longLivedPrefix } from "../../examples/agents/conformance.ts"
import { nodeDnsResolver } from "../../src/adapters/node.ts"
import { type OurServer, startOurServer } from "./our-server/our-server.ts"
import { startWebhookReceiver, type WebhookReceiver } from "./our-server/webhook-receiver.ts"

let server: OurServer
let hooks: WebhookReceiver

beforeAll(async () => {
  hooks = await startWebhookReceiver()
  server = await startOurServer(conformanceAgent, { push: { allow: ["127.0.0.1"], resolveDns: nodeDnsResolver } })
})
afterAll(async () => {
  await server?.close()
  await hooks?.close()
})

const send = (text: string, options: { messageId?: string; returnImmediately?: boolean; taskId?: string; historyLength?: number } = {}) =>
  SendMessageRequest.fromJSON({
    message: {
      messageId: options.messageId ?? crypto.randomUUID(),
      role: "ROLE_USER",
      parts: [{ text }],
      ...(options.taskId === undefined ? {} : { taskId: options.taskId })
    },
    configuration: {
      ...(options.returnImmediately === undefined ? {} : { returnImmediately: options.returnImmediately }),
      ...(options.historyLength === undefined ? {} : { historyLength: options.historyLength })
    }
  })

const asTask = (result: unknown): Task => {
  const task = result as Task
  if (typeof task.status !== "object") throw new Error(`expected a Task, got ${JSON.stringify(result)}`)
  return task
}

const textOf = (task: Task): string =>
  task.artifacts.flatMap((a) => a.parts).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("")

const kindOf = (event: StreamResponse): string => {
  const payload = event.payload
  if (payload === undefined) return "none"
  if (payload.$case === "statusUpdate") return `status:${TaskState[payload.value.status!.state]}`
  return payload.$case
}

const collect = async (events: AsyncIterable<StreamResponse>, limit = Infinity) => {
  const seen: Array<StreamResponse> = []
  for await (const event of events) {
    seen.push(event)
    if (seen.length >= limit) break
  }
  return seen
}

/**
 * The task as it ends: the conformance agent answers a blocking send at once, with the task still working,
 * and completes it by itself a few seconds later (see examples/agents/conformance.ts).
 */
const completed = async (client: Client, id: string): Promise<Task> => {
  const deadline = Date.now() + 15_000
  for (;;) {
    const task = await client.getTask({ tenant: "", id })
    if (task.status!.state === TaskState.TASK_STATE_COMPLETED) return task
    if (Date.now() > deadline) throw new Error(`task ${id} not completed within 15 s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const held = (client: Client) =>
  client.sendMessage(send("hold on", { messageId: `${longLivedPrefix}-${crypto.randomUUID()}`, returnImmediately: true })).then(asTask)

const bindings = [
  { name: "JSON-RPC", preferred: "JSONRPC" },
  { name: "REST", preferred: "HTTP+JSON" }
] as const

describe.each(bindings)("the JS SDK 1.3 client, compat off, over $name", ({ preferred }) => {
  let client: Client
  beforeAll(async () => {
    client = await new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [preferred] }))
      .createFromUrl(server.url)
  })

  it("reads the 1.0 card and picks a 1.0 interface of the binding", async () => {
    expect(client.transport.protocolName).toBe(preferred)
    expect(client.protocolVersion).toBe("1.0")
    const card = await client.getAgentCard()
    expect(card.supportedInterfaces[0]).toMatchObject({ protocolBinding: "JSONRPC", protocolVersion: "1.0" })
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true })
  })

  it("sends a message and gets its Task; gets it again once completed, with and without history", async () => {
    const sent = asTask(await client.sendMessage(send("hello")))
    expect(sent.status!.state).toBe(TaskState.TASK_STATE_WORKING)
    const task = await completed(client, sent.id)
    expect(textOf(task)).toBe("Received: hello")
    const again = await client.getTask({ tenant: "", id: task.id, historyLength: 0 })
    expect(again.history).toEqual([])
    expect((await client.getTask({ tenant: "", id: task.id })).history.map((m) => m.messageId)).toEqual(task.history.map((m) => m.messageId))
  })

  it("streams: the Task first, the artifact, then the completed status, and the stream ends", async () => {
    const events = await collect(client.sendMessageStream(send("stream me")))
    const kinds = events.map(kindOf)
    expect(kinds[0]).toBe("task")
    expect(kinds).toContain("artifactUpdate")
    expect(kinds.at(-1)).toBe("status:TASK_STATE_COMPLETED")
  })

  it("lists its tasks newest first and pages through them", async () => {
    const a = asTask(await client.sendMessage(send("one")))
    const b = asTask(await client.sendMessage(send("two")))
    const page = await client.listTasks(ListTasksRequest.fromJSON({ pageSize: 1, includeArtifacts: true }))
    expect(page.tasks).toHaveLength(1)
    expect(page.tasks[0]!.id).toBe(b.id)
    expect(page.nextPageToken).not.toBe("")
    expect(page.totalSize).toBeGreaterThanOrEqual(2)
    const next = await client.listTasks(ListTasksRequest.fromJSON({ pageSize: 1, pageToken: page.nextPageToken }))
    expect(next.tasks[0]!.id).toBe(a.id)
  })

  it("subscribes to a live task (its Task first), cancels it, and gets TaskNotCancelable the second time", async () => {
    const task = await held(client)
    const first = await collect(client.resubscribeTask({ tenant: "", id: task.id }), 1)
    expect(kindOf(first[0]!)).toBe("task")
    const canceled = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined })
    expect(canceled.status!.state).toBe(TaskState.TASK_STATE_CANCELED)
    await expect(client.cancelTask({ tenant: "", id: task.id, metadata: undefined })).rejects.toBeInstanceOf(TaskNotCancelableError)
    await expect(collect(client.resubscribeTask({ tenant: "", id: task.id }))).rejects.toBeInstanceOf(UnsupportedOperationError)
  })

  it("maps errors to the SDK's error classes", async () => {
    await expect(client.getTask({ tenant: "", id: "no-such-task" })).rejects.toBeInstanceOf(TaskNotFoundError)
    await expect(client.sendMessage(send("x", { taskId: "no-such-task" }))).rejects.toBeInstanceOf(TaskNotFoundError)
  })

  it("creates, gets, lists and deletes push configs, and the webhook receives 1.0 notifications", async () => {
    const task = await held(client)
    const path = `/hook/${preferred}`
    const created = await client.createTaskPushNotificationConfig(TaskPushNotificationConfig.fromJSON({
      taskId: task.id, id: "cfg-1", url: hooks.urlOf(path), authentication: { scheme: "Bearer", credentials: "hook-secret" }
    }))
    expect(created).toMatchObject({ id: "cfg-1", taskId: task.id, url: hooks.urlOf(path), authentication: { scheme: "Bearer", credentials: "hook-secret" } })
    expect(await client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "cfg-1" })).toMatchObject({ id: "cfg-1" })
    await client.createTaskPushNotificationConfig(TaskPushNotificationConfig.fromJSON({ taskId: task.id, id: "cfg-2", url: hooks.urlOf(`${path}/2`) }))
    const listed = await client.listTaskPushNotificationConfig({ tenant: "", taskId: task.id, pageSize: 0, pageToken: "" })
    expect(listed.configs.map((c) => c.id)).toEqual(["cfg-1", "cfg-2"])
    await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "cfg-2" })
    expect((await client.listTaskPushNotificationConfig({ tenant: "", taskId: task.id, pageSize: 0, pageToken: "" })).configs.map((c) => c.id)).toEqual(["cfg-1"])
    await client.cancelTask({ tenant: "", id: task.id, metadata: undefined })
    const posts = await hooks.waitUntil((ps) => ps.some((p) => p.path === path && p.body.includes("TASK_STATE_CANCELED")))
    const canceled = posts.find((p) => p.path === path && p.body.includes("TASK_STATE_CANCELED"))!
    expect(canceled.headers["content-type"]).toBe("application/a2a+json")
    expect(canceled.headers["authorization"]).toBe("Bearer hook-secret")
    expect(JSON.parse(canceled.body)).toMatchObject({ task: { id: task.id, status: { state: "TASK_STATE_CANCELED" } } })
  })
})

describe("the JS SDK 1.3 client with compat on", () => {
  const compat = { legacyCompat: { enabled: true } }
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory(compat), new RestTransportFactory(compat)],
    cardResolver: new DefaultAgentCardResolver(compat)
  }))

  it("still picks 1.0 on our card and works", async () => {
    const client = await factory.createFromUrl(server.url)
    expect(client.protocolVersion).toBe("1.0")
    const sent = asTask(await client.sendMessage(send("hello")))
    expect((await completed(client, sent.id)).status!.state).toBe(TaskState.TASK_STATE_COMPLETED)
  })

  it.each(["JSONRPC", "HTTP+JSON"])("speaks 0.3 over %s to the same server when the card lists only 0.3 interfaces", async (binding) => {
    const card = await new DefaultAgentCardResolver().resolve(server.url)
    const zeroThree = { ...card, supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === "0.3" && i.protocolBinding === binding) }
    const client = await factory.createFromAgentCard(zeroThree)
    expect(client.protocolVersion).toBe("0.3")
    const sent = asTask(await client.sendMessage(send("old times")))
    expect(sent.status!.state).toBe(TaskState.TASK_STATE_WORKING)
    expect(textOf(await completed(client, sent.id))).toBe("Received: old times")
    const events = await collect(client.sendMessageStream(send("stream")))
    expect(events.map(kindOf).at(-1)).toBe("status:TASK_STATE_COMPLETED")
    await expect(client.getTask({ tenant: "", id: "no-such-task" })).rejects.toThrow()
  })
})
