/**
 * Interop, direction 1: the official JS SDK 0.3.14 client (`@a2a-js/sdk/client`) against our server,
 * served as users serve it (`A2AServer.make` + `serveNode`) on 127.0.0.1.
 *
 * The SDK's `ClientFactory` discovers the card, picks JSON-RPC from `preferredTransport`, and speaks
 * every method; its deprecated `A2AClient` is used where it reaches our side without the factory's
 * client-side capability checks. Push notifications land on a real webhook on 127.0.0.1.
 */
import type {
  Message,
  MessageSendParams,
  Task,
  TaskArtifactUpdateEvent,
  TaskIdParams,
  TaskStatusUpdateEvent
} from "@a2a-js/sdk"
import {
  A2AClient,
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransport,
  TaskNotCancelableError,
  TaskNotFoundError
} from "@a2a-js/sdk/client"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { conformanceAgent, longLivedPrefix } from "../../examples/agents/conformance.ts"
import { demoAgent } from "../../examples/agents/demo.ts"
import { nodeDnsResolver } from "../../src/adapters/node.ts"
import { makePushVerifier } from "../../src/push/verifier.ts"
import { type OurServer, startOurServer } from "./our-server/our-server.ts"
import { type ReceivedPost, startWebhookReceiver, type WebhookReceiver } from "./our-server/webhook-receiver.ts"

/** What the SDK's streams yield. */
type StreamEvent = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent

let demo: OurServer
let holding: OurServer
let hooks: WebhookReceiver

beforeAll(async () => {
  hooks = await startWebhookReceiver()
  demo = await startOurServer(demoAgent)
  holding = await startOurServer(conformanceAgent, { push: { allow: ["127.0.0.1"], resolveDns: nodeDnsResolver } })
})
afterAll(async () => {
  await Promise.all([demo?.close(), holding?.close()])
  await hooks?.close()
})

const factory = new ClientFactory()
const clientOf = (server: OurServer) => factory.createFromUrl(server.url)

const userMessage = (text: string, extra: Partial<Message> = {}): Message => ({
  kind: "message",
  role: "user",
  messageId: crypto.randomUUID(),
  parts: [{ kind: "text", text }],
  ...extra
})
const send = (text: string, extra: Partial<MessageSendParams> = {}): MessageSendParams => ({ message: userMessage(text), ...extra })

const textOf = (parts: ReadonlyArray<{ kind: string; text?: string }> | undefined) =>
  (parts ?? []).map((p) => (p.kind === "text" ? p.text : "")).join("")

const summary = (e: StreamEvent): string => {
  switch (e.kind) {
    case "task":
      return `task:${e.status.state}`
    case "message":
      return `message:${textOf(e.parts)}`
    case "status-update":
      return `status:${e.status.state}${e.final ? ":final" : ""}`
    case "artifact-update":
      return `artifact:${textOf(e.artifact.parts)}`
  }
}

const collect = async (events: AsyncIterable<StreamEvent>) => {
  const seen: Array<StreamEvent> = []
  for await (const event of events) seen.push(event)
  return seen
}

const asTask = (result: Task | Message): Task => {
  if (result.kind !== "task") throw new Error(`expected a task, got ${result.kind}`)
  return result
}

/**
 * A Task that our conformance agent keeps `working` (for 15 s, or until it is canceled): its messageId
 * carries the long-lived prefix, and the send does not block until the task ends.
 */
const startHeldTask = async (client: Client, extra: Partial<MessageSendParams> = {}) => {
  const message = userMessage("hold on", { messageId: `${longLivedPrefix}-${crypto.randomUUID()}` })
  const task = asTask(await client.sendMessage({ ...extra, message, configuration: { ...extra.configuration, blocking: false } }))
  expect(task.status.state).toBe("working")
  return task
}

describe("the JS SDK 0.3.14 client against our server", () => {
  describe("agent card", () => {
    it("the SDK's card resolver reads both well-known paths, and they agree", async () => {
      const resolver = new DefaultAgentCardResolver()
      const card = await resolver.resolve(demo.url)
      expect(card).toMatchObject({
        protocolVersion: "0.3.0",
        name: "a2a-actors demo agent",
        url: `${demo.url}/`,
        preferredTransport: "JSONRPC",
        capabilities: { streaming: true, pushNotifications: false, extensions: [{ uri: "https://a2a-actors.dev/ext/approval/v1" }] }
      })
      expect(card.skills.map((s) => s.id)).toEqual(["echo", "reply", "greet", "approval", "count"])
      expect(await resolver.resolve(demo.url, "/.well-known/agent.json")).toEqual(card)
    })

    it("ClientFactory picks the JSON-RPC transport at the card's url; A2AClient.fromCardUrl reads the same card", async () => {
      const client = await clientOf(demo)
      expect(client.transport).toBeInstanceOf(JsonRpcTransport)
      expect((await client.getAgentCard()).url).toBe(`${demo.url}/`)
      const legacy = await A2AClient.fromCardUrl(`${demo.url}/.well-known/agent-card.json`)
      expect((await legacy.getAgentCard()).name).toBe("a2a-actors demo agent")
    })

    it("two servers in one process each serve their own routes and card", async () => {
      const [a, b] = await Promise.all([new DefaultAgentCardResolver().resolve(demo.url), new DefaultAgentCardResolver().resolve(holding.url)])
      expect(a.name).toBe("a2a-actors demo agent")
      expect(b.name).toBe("a2a-actors conformance agent")
    })
  })

  describe("message/send", () => {
    it("answers with the completed Task, its artifact chunks merged", async () => {
      const client = await clientOf(demo)
      const task = asTask(await client.sendMessage(send("hello there")))
      expect(task.status.state).toBe("completed")
      expect(task.artifacts?.map((a) => [a.artifactId, textOf(a.parts)])).toEqual([["echo", "hello there"]])
      expect(task.history?.[0]?.parts).toEqual([{ kind: "text", text: "hello there" }])
    })

    it("answers with a direct Message when the agent replies without a task", async () => {
      const client = await clientOf(demo)
      const reply = await client.sendMessage(send("reply hi"))
      expect(reply).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "You said: reply hi" }] })
    })
  })

  describe("message/stream", () => {
    it("yields every event in order: the Task first, the final status last, then the stream ends", async () => {
      const client = await clientOf(demo)
      const events = await collect(client.sendMessageStream(send("hello there")))
      expect(events.map(summary)).toEqual([
        "task:submitted",
        "status:working",
        "artifact:hel",
        "artifact:lo ",
        "artifact:the",
        "artifact:re",
        "status:completed:final"
      ])
      const taskId = (events[0] as Task).id
      expect(events.every((e) => (e.kind === "task" ? e.id : e.kind === "message" ? e.taskId : e.taskId) === taskId)).toBe(true)
    })

    it("a conformance agent task's stream ends by itself with the final completed status", async () => {
      const client = await clientOf(holding)
      const events = await collect(client.sendMessageStream(send("hello tck")))
      expect(events.map(summary)).toEqual(["task:submitted", "status:working", "artifact:Received: hello tck", "status:completed:final"])
    })

    it("a direct Message is the only event", async () => {
      const client = await clientOf(demo)
      const events = await collect(client.sendMessageStream(send("reply streamed")))
      expect(events.map(summary)).toEqual(["message:You said: reply streamed"])
    })
  })

  describe("tasks/get", () => {
    it("returns the stored task, with the whole history or the last historyLength messages", async () => {
      const client = await clientOf(demo)
      const asked = asTask(await client.sendMessage(send("greet")))
      expect(asked.status.state).toBe("input-required")
      const done = asTask(await client.sendMessage({ message: userMessage("Ada", { taskId: asked.id, contextId: asked.contextId }) }))
      expect(done.status.state).toBe("completed")
      expect(textOf(done.status.message?.parts)).toBe("Hello, Ada!")

      const whole = await client.getTask({ id: asked.id })
      expect(whole.id).toBe(asked.id)
      const history = whole.history ?? []
      expect(history.filter((m) => m.role === "user").map((m) => textOf(m.parts))).toEqual(["greet", "Ada"])
      const last = await client.getTask({ id: asked.id, historyLength: 1 })
      expect(last.history).toEqual(history.slice(-1))
      const lastTwo = await client.getTask({ id: asked.id, historyLength: 2 })
      expect(lastTwo.history).toEqual(history.slice(-2))
    })
  })

  describe("tasks/cancel", () => {
    it("cancels a working task; a second cancel surfaces as the SDK's TaskNotCancelableError (-32002)", async () => {
      const client = await clientOf(holding)
      const task = await startHeldTask(client)
      const canceled = await client.cancelTask({ id: task.id })
      expect(canceled).toMatchObject({ kind: "task", id: task.id, status: { state: "canceled" } })
      const again = await client.cancelTask({ id: task.id }).then(() => undefined, (e: unknown) => e)
      expect(again).toBeInstanceOf(TaskNotCancelableError)
      expect(again).toMatchObject({ errorResponse: { jsonrpc: "2.0", error: { code: -32002 } } })
    })
  })

  describe("tasks/resubscribe", () => {
    it("to a running task: the Task first, then live events until the final one", async () => {
      const client = await clientOf(holding)
      const task = await startHeldTask(client)
      const seen: Array<string> = []
      for await (const event of client.resubscribeTask({ id: task.id })) {
        seen.push(summary(event))
        // Cancel only once the snapshot is here, so the canceled status must arrive live.
        if (event.kind === "task") await client.cancelTask({ id: task.id })
      }
      expect(seen[0]).toBe("task:working")
      expect(seen.at(-1)).toBe("status:canceled:final")
      expect(seen.filter((s) => s.endsWith(":final"))).toHaveLength(1)
    })

    it("to a finished task: the Task alone, then the stream ends", async () => {
      const client = await clientOf(demo)
      const task = asTask(await client.sendMessage(send("all done")))
      const events = await collect(client.resubscribeTask({ id: task.id }))
      expect(events.map(summary)).toEqual(["task:completed"])
      expect(events[0]).toMatchObject({ id: task.id, artifacts: [{ artifactId: "echo" }] })
    })
  })

  describe("errors", () => {
    it("an unknown task surfaces as the SDK's TaskNotFoundError carrying our -32001", async () => {
      const client = await clientOf(holding)
      for (const call of [
        () => client.getTask({ id: "no-such-task" }),
        () => client.cancelTask({ id: "no-such-task" }),
        () => client.listTaskPushNotificationConfig({ id: "no-such-task" })
      ]) {
        const error = await call().then(() => undefined, (e: unknown) => e)
        expect(error).toBeInstanceOf(TaskNotFoundError)
        expect(error).toMatchObject({ errorResponse: { error: { code: -32001 } } })
      }
    })

    it("an unknown task on tasks/resubscribe: our error event inside the SSE stream (-32001)", async () => {
      const client = await clientOf(demo)
      // SDK quirk: the JSON-RPC transport throws a plain Error for an SSE error event and keeps the
      // typed error as its `cause`; non-streaming calls throw the typed error itself.
      const error = await collect(client.resubscribeTask({ id: "no-such-task" })).then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toContain("-32001")
      expect((error as Error).cause).toBeInstanceOf(TaskNotFoundError)
    })

    it("a stream request refused for its params: our -32602 error event, which the SDK reads", async () => {
      const client = await clientOf(demo)
      const invalid = { message: { ...userMessage("hi"), messageId: undefined } } as unknown as MessageSendParams
      const error = await collect(client.sendMessageStream(invalid)).then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toContain("-32602")
    })

    it("the legacy A2AClient returns our errors as JSON-RPC error responses", async () => {
      const legacy = await A2AClient.fromCardUrl(`${demo.url}/.well-known/agent-card.json`)
      expect(await legacy.getTask({ id: "no-such-task" })).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 } })
      // The factory's Client refuses push methods itself when the card says push is off; the legacy
      // client's `get` does not, so this reaches our server, which must answer -32003.
      expect(await legacy.getTaskPushNotificationConfig({ id: "no-such-task" })).toMatchObject({ error: { code: -32003 } })
    })
  })

  describe("push notifications", () => {
    const verifierFor = (audience: string, token?: string) =>
      makePushVerifier({ audience, keys: { jwksUrl: `${holding.url}/.well-known/jwks.json` }, ...(token !== undefined ? { token } : {}) })

    const tasksAt = (posts: ReadonlyArray<ReceivedPost>, path: string, taskId: string) =>
      posts.filter((p) => p.path === path).map((p) => ({ post: p, task: JSON.parse(p.body) as Task })).filter((x) => x.task.id === taskId)

    it("set, get (by id and the first config), list, delete", async () => {
      const client = await clientOf(holding)
      const first = { url: hooks.urlOf("/hook/crud-first"), token: "tok-first" }
      const task = await startHeldTask(client, { configuration: { pushNotificationConfig: first } })

      const set = await client.setTaskPushNotificationConfig({
        taskId: task.id,
        pushNotificationConfig: { id: "cfg-b", url: hooks.urlOf("/hook/crud-b"), token: "tok-b" }
      })
      expect(set).toEqual({ taskId: task.id, pushNotificationConfig: { id: "cfg-b", url: hooks.urlOf("/hook/crud-b"), token: "tok-b" } })

      // SDK quirk: `getTaskPushNotificationConfig` is typed with TaskIdParams, which has no
      // `pushNotificationConfigId`; the field still travels, as the spec's params require.
      const byId: TaskIdParams = { id: task.id, ...{ pushNotificationConfigId: "cfg-b" } }
      expect((await client.getTaskPushNotificationConfig(byId)).pushNotificationConfig).toMatchObject({ id: "cfg-b", token: "tok-b" })
      const firstConfig = await client.getTaskPushNotificationConfig({ id: task.id })
      expect(firstConfig).toMatchObject({ taskId: task.id, pushNotificationConfig: first })
      const byDefault: TaskIdParams = { id: task.id, ...{ pushNotificationConfigId: "default" } }
      expect((await client.getTaskPushNotificationConfig(byDefault)).pushNotificationConfig).toMatchObject(first)

      const listed = await client.listTaskPushNotificationConfig({ id: task.id })
      expect(listed.map((c) => c.pushNotificationConfig.url).sort()).toEqual([first.url, hooks.urlOf("/hook/crud-b")].sort())
      expect(listed.every((c) => c.taskId === task.id && typeof c.pushNotificationConfig.id === "string")).toBe(true)

      expect(await client.deleteTaskPushNotificationConfig({ id: task.id, pushNotificationConfigId: "cfg-b" })).toBeUndefined()
      const after = await client.listTaskPushNotificationConfig({ id: task.id })
      expect(after.map((c) => c.pushNotificationConfig.url)).toEqual([first.url])
      await client.cancelTask({ id: task.id })
    })

    it("notifies every config of the task's state changes, with the token and a verifiable Bearer JWT", async () => {
      const client = await clientOf(holding)
      const withMessage = { url: hooks.urlOf("/hook/sent"), token: "tok-sent" }
      const task = await startHeldTask(client, { configuration: { pushNotificationConfig: withMessage } })
      await client.setTaskPushNotificationConfig({ taskId: task.id, pushNotificationConfig: { id: "no-token", url: hooks.urlOf("/hook/set") } })
      await client.setTaskPushNotificationConfig({ taskId: task.id, pushNotificationConfig: { id: "gone", url: hooks.urlOf("/hook/gone") } })
      await client.deleteTaskPushNotificationConfig({ id: task.id, pushNotificationConfigId: "gone" })
      await client.cancelTask({ id: task.id })

      const canceledAt = (path: string) => (posts: ReadonlyArray<ReceivedPost>) =>
        tasksAt(posts, path, task.id).some((x) => x.task.status.state === "canceled")
      const posts = await hooks.waitUntil((p) => canceledAt("/hook/sent")(p) && canceledAt("/hook/set")(p))

      const sent = tasksAt(posts, "/hook/sent", task.id)
      // The config came with the message, so it saw the task go working before the cancel.
      expect(sent.map((x) => x.task.status.state)).toContain("working")
      expect(sent.at(-1)?.task.status.state).toBe("canceled")
      for (const { post } of sent) {
        expect(post.headers["content-type"]).toMatch(/^application\/json/)
        expect(post.headers["x-a2a-notification-token"]).toBe("tok-sent")
        expect(post.headers["authorization"]).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/)
      }
      const verifySent = verifierFor(withMessage.url, "tok-sent")
      for (const { post } of sent) {
        const verified = await Effect.runPromise(verifySent.verify({
          authorization: post.headers["authorization"],
          token: post.headers["x-a2a-notification-token"] as string | undefined,
          body: post.body
        }))
        expect(verified.claims.taskId).toBe(task.id)
        expect(verified.claims.aud).toBe(withMessage.url)
      }

      const set = tasksAt(posts, "/hook/set", task.id)
      expect(set.at(-1)?.task.status.state).toBe("canceled")
      expect(set.every((x) => x.post.headers["x-a2a-notification-token"] === undefined)).toBe(true)
      const lastSet = set.at(-1)!.post
      const verifiedSet = await Effect.runPromise(verifierFor(hooks.urlOf("/hook/set")).verify({
        authorization: lastSet.headers["authorization"],
        token: undefined,
        body: lastSet.body
      }))
      expect(verifiedSet.task.status.state).toBe("canceled")

      // Deleted before the cancel: it must not hear about it. (Deliveries to different hooks are
      // not ordered, so this can only miss a bug, never invent one.)
      expect(tasksAt(posts, "/hook/gone", task.id).filter((x) => x.task.status.state === "canceled")).toEqual([])
    })
  })
})
