/**
 * Interop: our client against the official JS SDK 1.3 server serving A2A 1.0 only (its 0.3 compatibility
 * off), over JSON-RPC and REST: the card, send, stream, get, list, cancel, subscribe, push configs (with the
 * SDK's own deliveries to a real webhook), errors, an extension call, a stream cut by the network and
 * resumed; every request names `A2A-Version: 1.0`.
 */
import { Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Task } from "../../schemas/index.ts"
import { summary } from "../../testing/client/stream-summary.ts"
import { A2AClient, type A2AClientOptions, createA2AClient, userText } from "../../src/client/index.ts"
import { startWebhookReceiver, type WebhookReceiver } from "./our-server/webhook-receiver.ts"
import { type CuttingProxy, startCuttingProxy } from "./sdk-server/cutting-proxy.ts"
import { type SdkV1EchoAgent, shoutExtension, startSdkV1EchoAgent } from "./sdk-v1-server/echo-agent.ts"

let sdk: SdkV1EchoAgent
let hooks: WebhookReceiver

beforeAll(async () => {
  sdk = await startSdkV1EchoAgent()
  hooks = await startWebhookReceiver()
})
afterAll(async () => {
  await sdk?.close()
  await hooks?.close()
})

const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)
const failure = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))
const collect = <A, E>(stream: Stream.Stream<A, E>): Promise<Array<A>> => run(Effect.map(Stream.runCollect(stream), (c) => [...c]))

const asTask = (r: unknown): Task => {
  const task = r as Task
  if (task.kind !== "task") throw new Error(`expected a task, got ${JSON.stringify(r).slice(0, 200)}`)
  return task
}

describe.each([
  { binding: "JSONRPC", endpoint: () => sdk.rpcUrl },
  { binding: "HTTP+JSON", endpoint: () => `${sdk.restUrl}/` }
] as const)("our client over $binding against the JS SDK 1.3 server in A2A 1.0", ({ binding, endpoint }) => {
  const options: A2AClientOptions = { timeoutMs: 5_000, idleTimeoutMs: 5_000, transport: binding, resume: { backoffMs: 10 } }
  const client = () => run(A2AClient.make({ url: sdk.url }, options))

  it("reads the 1.0 card, lists its interfaces with their versions, and picks the 1.0 one of the binding", async () => {
    const c = await client()
    expect(c.card).toMatchObject({ name: "SDK 1.3 echo agent", protocolVersion: "1.0", url: sdk.rpcUrl, capabilities: { streaming: true, pushNotifications: true } })
    expect(c.interfaces.map((i) => [i.protocolBinding, i.protocolVersion])).toEqual([["JSONRPC", "1.0"], ["HTTP+JSON", "1.0"]])
    expect([c.transport, c.protocolVersion, c.endpoint]).toEqual([binding, "1.0", endpoint()])
  })

  it("a 0.3 pin asks for the card in 0.3 and finds no interface: the agent speaks 1.0 only", async () => {
    expect(await failure(A2AClient.make({ url: sdk.url }, { ...options, protocolVersion: "0.3" })))
      .toMatchObject({ _tag: "A2AClientTransportError", reason: "NoVersionInterface" })
    expect(sdk.headersSeen().at(-1)).toEqual({ path: "/.well-known/agent-card.json", version: "0.3", extensions: "-" })
  })

  it("send: a completed Task with its history, or a direct Message", async () => {
    const c = await client()
    const task = asTask(await run(c.sendMessage(userText("hello there"))))
    expect(task.status).toMatchObject({ state: "completed", message: { role: "agent", parts: [{ kind: "text", text: "echo: hello there" }] } })
    expect(await run(c.sendMessage(userText("message hi")))).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "echo: hi" }] })
  })

  it("a multi-turn task: input-required, then the follow-up completes it", async () => {
    const c = await client()
    const asked = asTask(await run(c.sendMessage(userText("ask"))))
    expect(asked.status.state).toBe("input-required")
    const done = asTask(await run(c.sendMessage(userText("blue", { taskId: asked.id, contextId: asked.contextId }))))
    expect(done.status).toMatchObject({ state: "completed", message: { parts: [{ text: "got: blue" }] } })
  })

  it("stream: every event in order, the final status marked final though 1.0 has no such field", async () => {
    const events = await collect((await client()).streamMessage(userText("stream one two three")))
    expect(events.map(summary)).toEqual(["task:submitted", "status:working", "artifact:one", "artifact:two", "artifact:three", "status:completed:final"])
    const message = await collect((await client()).streamMessage(userText("message solo")))
    expect(message.map(summary)).toEqual(["message:echo: solo"])
  })

  it("get: the stored task, its history limited by historyLength; an unknown task is TaskNotFound", async () => {
    const c = await client()
    const sent = asTask(await run(c.sendMessage(userText("remember me"))))
    const full = await run(c.getTask({ id: sent.id }))
    expect(full.history?.[0]?.parts).toEqual([{ kind: "text", text: "remember me" }])
    const last = await run(c.getTask({ id: sent.id, historyLength: 1 }))
    expect(last.history).toHaveLength(1)
    expect(await failure(c.getTask({ id: "no-such-task" }))).toMatchObject({ _tag: "TaskNotFound", code: -32001 })
  })

  it("listTasks: pages of the agent's tasks, filtered by context and state", async () => {
    const c = await client()
    const first = asTask(await run(c.sendMessage(userText("one"))))
    await run(c.sendMessage(userText("two", { contextId: first.contextId })))
    const page = await run(c.listTasks({ contextId: first.contextId, pageSize: 1 }))
    expect(page).toMatchObject({ pageSize: 1, totalSize: 2 })
    expect(page.tasks).toHaveLength(1)
    expect(page.nextPageToken).not.toBe("")
    const next = await run(c.listTasks({ contextId: first.contextId, pageSize: 1, pageToken: page.nextPageToken }))
    expect(next.tasks.map((t) => t.id)).not.toContain(page.tasks[0]!.id)
    expect([...page.tasks, ...next.tasks].map((t) => t.id)).toContain(first.id)
    const waiting = asTask(await run(c.sendMessage(userText("ask", { contextId: first.contextId }))))
    const asking = await run(c.listTasks({ contextId: first.contextId, status: "input-required" }))
    expect(asking.tasks.map((t) => t.id)).toEqual([waiting.id])
    expect(asking.tasks[0]).toMatchObject({ kind: "task", status: { state: "input-required" } })
  })

  it("cancel: a working task is canceled; a completed one is TaskNotCancelable", async () => {
    const c = await createA2AClient({ url: sdk.url }, options)
    const started = asTask(await c.sendMessage(userText("wait", { configuration: { blocking: false } })))
    expect((await c.cancelTask({ id: started.id })).status.state).toBe("canceled")
    const done = asTask(await c.sendMessage(userText("hello")))
    await expect(c.cancelTask({ id: done.id })).rejects.toMatchObject({ _tag: "TaskNotCancelable", code: -32002 })
  })

  it("resubscribe: the Task first, then live events until the final one; a finished task gives its Task and ends", async () => {
    const c = await createA2AClient({ url: sdk.url }, options)
    const started = asTask(await c.sendMessage(userText("wait", { configuration: { blocking: false } })))
    const seen: Array<string> = []
    for await (const event of c.resubscribe({ id: started.id })) {
      seen.push(summary(event))
      if (event.kind === "task") await c.cancelTask({ id: started.id })
    }
    expect(seen[0]).toBe("task:working")
    expect(seen.at(-1)).toBe("status:canceled:final")
    // 1.0 refuses SubscribeToTask on a terminal task (UnsupportedOperation); the client answers as 0.3 does.
    const ended: Array<string> = []
    for await (const event of c.resubscribe({ id: started.id })) ended.push(summary(event))
    expect(ended).toEqual(["task:canceled"])
    await expect(collect(c.effect.resubscribe({ id: "no-such-task" }))).rejects.toMatchObject({ _tag: "TaskNotFound" })
  })

  it("push configs: set (flat in 1.0, with its authentication), get, list, delete; the SDK delivers with that authentication", async () => {
    const c = await createA2AClient({ url: sdk.url }, options)
    const started = asTask(await c.sendMessage(userText("wait", { configuration: { blocking: false } })))
    const taskId = started.id
    const url = hooks.urlOf(`/sdk-v1/${binding}/${taskId}`)
    const config = { taskId, pushNotificationConfig: { id: "cfg-1", url, token: "tok-1", authentication: { schemes: ["Bearer"], credentials: "secret-1" } } }
    expect(await c.setPushConfig(config)).toEqual(config)
    await c.setPushConfig({ taskId, pushNotificationConfig: { id: "cfg-2", url: "https://hooks.example.com/b" } })
    expect(await c.getPushConfig({ id: taskId, pushNotificationConfigId: "cfg-1" })).toEqual(config)
    expect((await c.getPushConfig({ id: taskId })).pushNotificationConfig.id).toBe("cfg-1")
    expect((await c.listPushConfigs({ id: taskId })).map((x) => x.pushNotificationConfig.id).sort()).toEqual(["cfg-1", "cfg-2"])
    expect(await c.deletePushConfig({ id: taskId, pushNotificationConfigId: "cfg-2" })).toBeNull()
    expect((await c.listPushConfigs({ id: taskId })).map((x) => x.pushNotificationConfig.id)).toEqual(["cfg-1"])
    await c.cancelTask({ id: taskId })
    const posts = await hooks.waitUntil((ps) => ps.some((p) => p.path.endsWith(taskId) && p.body.includes("TASK_STATE_CANCELED")))
    const delivery = posts.find((p) => p.path.endsWith(taskId) && p.body.includes("TASK_STATE_CANCELED"))!
    expect(delivery.headers["authorization"]).toBe("Bearer secret-1")
  })

  it("errors: the SDK's refusals are the catalogue's classes (its ErrorInfo reason INVALID_PARAMS is not an A2A reason: the code names it)", async () => {
    const c = await client()
    expect(await failure(c.listTasks({ pageSize: 1000 }))).toMatchObject({ _tag: "InvalidParams", code: -32602, message: "pageSize must be between 1 and 100" })
    expect(await failure(c.listTasks({ pageToken: "garbage" }))).toMatchObject({ _tag: "InvalidParams" })
    expect(await failure(c.listTasks({ statusTimestampAfter: "yesterday" }))).toMatchObject({ _tag: "InvalidParams" })
    expect(await failure(c.cancelTask({ id: "no-such-task" }))).toMatchObject({ _tag: "TaskNotFound", code: -32001 })
  })

  it("an empty message: the SDK takes it and answers a history message without the parts 1.0 calls REQUIRED, which the client refuses", async () => {
    const c = await client()
    const empty = { message: { kind: "message" as const, messageId: crypto.randomUUID(), role: "user" as const, parts: [] } }
    const refused = await failure(c.sendMessage(empty))
    expect(refused).toMatchObject({ _tag: "InvalidAgentResponse", data: { reason: "WrongShape" } })
    expect((refused as { data?: { detail?: string } }).data?.detail).toContain("parts")
  })

  it("an extension call goes over 1.0 JSON-RPC with A2A-Extensions, and every request names A2A-Version: 1.0", async () => {
    const c = await client()
    const before = sdk.headersSeen().length
    expect(await run(c.callExtension("echo/shout", { text: "hi" }))).toEqual({ shout: "HI" })
    await run(c.getTask({ id: asTask(await run(c.sendMessage(userText("x")))).id }))
    const seen = sdk.headersSeen().slice(before)
    expect(seen[0]).toEqual({ path: "/a2a/jsonrpc", version: "1.0", extensions: shoutExtension })
    expect(seen.map((h) => h.version)).toEqual(seen.map(() => "1.0"))
  })
})

describe("a 1.0 stream of the SDK cut by the network", () => {
  let proxy: CuttingProxy
  beforeAll(async () => {
    proxy = await startCuttingProxy(Number(new URL(sdk.url).port), '"artifactUpdate"', {
      stream: '"method":"SendStreamingMessage"',
      resubscribe: '"method":"SubscribeToTask"',
      snapshot: '"task":'
    })
  })
  afterAll(() => proxy.close())

  it("resumes through SubscribeToTask with no event lost and none repeated", async () => {
    const c = await createA2AClient(
      { url: sdk.url },
      { timeoutMs: 5_000, idleTimeoutMs: 5_000, endpoint: `${proxy.origin}/a2a/jsonrpc`, resume: { backoffMs: 10 } }
    )
    expect(c.protocolVersion).toBe("1.0")
    proxy.onResubscribeAnswered(() => sdk.openGates())
    const seen: Array<string> = []
    for await (const event of c.streamMessage(userText("gated alpha beta gamma"))) seen.push(summary(event))
    expect(proxy.cuts()).toBe(1)
    expect(seen).toEqual(["task:submitted", "status:working", "artifact:alpha", "artifact:beta", "artifact:gamma", "status:completed:final"])
  })
})
