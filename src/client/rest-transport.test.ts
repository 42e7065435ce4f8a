import { Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { restTestAgent } from "../../conformance/interop/sdk-rest/rest-test-agent.ts"
import { type SdkRestAgent, startSdkRestAgent } from "../../conformance/interop/sdk-rest/sdk-rest-agent.ts"
import { apiKey, extendedCard, keyAuthenticator, securedAgent } from "../../conformance/interop/sdk-rest/secured-agent.ts"
import type { AgentCard, StreamResult, Task } from "../../schemas/index.ts"
import type { Agent } from "../agent/agent.ts"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { A2AServer, type A2AServerConfig } from "../server/a2a-server.ts"
import { A2AClient, type A2AClientOptions, userText } from "./client.ts"
import { invalidAnswerReason } from "./errors.ts"
import { cutAfterEvents } from "../../testing/client/cut-stream.ts"
import { serveWebHandler, type TestServer } from "../../testing/client/node-server.ts"

const quick: A2AClientOptions = { timeoutMs: 5_000, idleTimeoutMs: 5_000, retries: 0, resume: { backoffMs: 10 } }
const rest: A2AClientOptions = { ...quick, transport: "HTTP+JSON" }
const webhook = "http://127.0.0.1:9/hook"

const serve = async (agent: Agent, config: A2AServerConfig = {}): Promise<Listening> => serveNode(await A2AServer.make(agent, config))

let server: Listening
let bare: Listening
let secured: Listening
let sdk: SdkRestAgent

beforeAll(async () => {
  // Webhooks go to a closed loopback port, allowlisted: configs are accepted, deliveries fail quietly.
  server = await serve(restTestAgent(), { push: { allow: ["127.0.0.1"] } })
  bare = await serve(restTestAgent({ streaming: false, pushNotifications: false }))
  secured = await serve(securedAgent(), { extendedCard, authentication: { authenticators: { key: keyAuthenticator } } })
  sdk = await startSdkRestAgent()
})
afterAll(async () => {
  await Promise.all([server.close({ graceMs: 0 }), bare.close({ graceMs: 0 }), secured.close({ graceMs: 0 }), sdk.close()])
})

const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)
const failure = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))
const collect = <A, E>(stream: Stream.Stream<A, E>): Promise<Array<A>> => run(Effect.map(Stream.runCollect(stream), (c) => [...c]))

/** A fetch that records `VERB path [Last-Event-ID]` of every request, then performs it. */
const recording = (log: Array<string>, inner: typeof fetch = fetch): typeof fetch => (input, init) => {
  const lastEventId = new Headers(init?.headers).get("last-event-id")
  log.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}${lastEventId === null ? "" : ` ${lastEventId}`}`)
  return inner(input, init)
}

const restClient = (url: string, options: A2AClientOptions = {}) => run(A2AClient.make({ url }, { ...rest, ...options }))

const asTask = (r: StreamResult): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}

const textsOf = (task: Task): Array<string> =>
  (task.artifacts ?? []).flatMap((a) => a.parts.map((p) => (p.kind === "text" ? p.text : "")))

describe("choosing the REST transport", () => {
  it("talks REST to the card's HTTP+JSON interface when asked to (1.0 first), JSON-RPC by default for our cards", async () => {
    const log: Array<string> = []
    const client = await restClient(server.url, { fetch: recording(log) })
    expect([client.transport, client.protocolVersion, client.endpoint]).toEqual(["HTTP+JSON", "1.0", `${server.url}/`])
    await run(client.sendMessage(userText("hello")))
    expect(log.at(-1)).toBe("POST /message:send")
    const pinned = await restClient(server.url, { fetch: recording(log), protocolVersion: "0.3" })
    await run(pinned.sendMessage(userText("hello")))
    expect(log.at(-1)).toBe("POST /v1/message:send")
    const auto = await run(A2AClient.make({ url: server.url }, quick))
    expect([auto.transport, auto.protocolVersion, auto.endpoint]).toEqual(["JSONRPC", "1.0", `${server.url}/`])
  })

  it("auto follows a card that prefers HTTP+JSON; a forced binding the card lacks is NoRestInterface", async () => {
    const card = (await run(A2AClient.discover(server.url, quick))).card
    const prefersRest: AgentCard = { ...card, preferredTransport: "HTTP+JSON", url: `${server.url}/`, additionalInterfaces: [{ transport: "JSONRPC", url: `${server.url}/` }] }
    expect((await run(A2AClient.make({ card: prefersRest }, quick))).transport).toBe("HTTP+JSON")
    const rpcOnly: AgentCard = { ...card, additionalInterfaces: [{ transport: "JSONRPC", url: card.url }] }
    expect(await failure(A2AClient.make({ card: rpcOnly }, rest))).toMatchObject({ _tag: "A2AClientTransportError", reason: "NoRestInterface" })
  })

  it("callExtension stays on JSON-RPC: the card's JSON-RPC endpoint, or NoJsonRpcInterface without a card", async () => {
    const log: Array<string> = []
    const client = await restClient(server.url, { fetch: recording(log) })
    expect(await failure(client.callExtension("nothing/here", {}))).toMatchObject({ _tag: "MethodNotFound" })
    expect(log.at(-1)).toBe("POST /")
    const bareEndpoint = await run(A2AClient.make({ endpoint: server.url }, rest))
    expect(await failure(bareEndpoint.callExtension("nothing/here", {}))).toMatchObject({ reason: "NoJsonRpcInterface" })
  })
})

/** The REST binding of each version: the options that pin it and the prefix of its paths. */
const versions = [
  { version: "0.3", prefix: "/v1", options: { protocolVersion: "0.3" } },
  { version: "1.0", prefix: "", options: { protocolVersion: "1.0" } }
] as const

describe.each(versions)("every method over REST $version against our server", ({ version, prefix, options: pin }) => {
  const restClient = (url: string, options: A2AClientOptions = {}) => run(A2AClient.make({ url }, { ...rest, ...pin, ...options }))

  it("message:send answers a Task or a Message; tasks/{id} honours historyLength", async () => {
    const client = await restClient(server.url)
    const task = asTask(await run(client.sendMessage(userText("hello there"))))
    expect(task.status).toMatchObject({ state: "completed", message: { role: "agent", parts: [{ kind: "text", text: "echo: hello there" }] } })
    expect(await run(client.sendMessage(userText("message hi")))).toMatchObject({ kind: "message", role: "agent", parts: [{ text: "echo: hi" }] })
    const full = await run(client.getTask({ id: task.id }))
    expect(full.history?.length).toBe(2)
    const last = await run(client.getTask({ id: task.id, historyLength: 1 }))
    expect(last.history).toEqual(full.history?.slice(-1))
  })

  it("a multi-turn task: input-required, then the follow-up completes it", async () => {
    const client = await restClient(server.url)
    const asked = asTask(await run(client.sendMessage(userText("ask"))))
    expect(asked.status.state).toBe("input-required")
    const done = asTask(await run(client.sendMessage(userText("blue", { taskId: asked.id, contextId: asked.contextId }))))
    expect(done.status).toMatchObject({ state: "completed", message: { parts: [{ text: "got: blue" }] } })
  })

  it("tasks/{id}:cancel cancels, a second cancel is TaskNotCancelable, an unknown task TaskNotFound", async () => {
    const client = await restClient(server.url)
    const started = asTask(await run(client.sendMessage(userText("wait", { configuration: { blocking: false } }))))
    expect((await run(client.cancelTask({ id: started.id }))).status.state).toBe("canceled")
    expect(await failure(client.cancelTask({ id: started.id }))).toMatchObject({ _tag: "TaskNotCancelable", code: -32002 })
    expect(await failure(client.getTask({ id: "no-such-task" }))).toMatchObject({ _tag: "TaskNotFound", code: -32001 })
  })

  it("push configs: set, get (by id and the first one), list, delete", async () => {
    const log: Array<string> = []
    const client = await restClient(server.url, { fetch: recording(log) })
    const task = asTask(await run(client.sendMessage(userText("wait", { configuration: { blocking: false } }))))
    const config = { taskId: task.id, pushNotificationConfig: { id: "cfg-1", url: webhook, token: "tok" } }
    expect(await run(client.setPushConfig(config))).toEqual(config)
    expect(await run(client.getPushConfig({ id: task.id, pushNotificationConfigId: "cfg-1" }))).toEqual(config)
    expect(await run(client.getPushConfig({ id: task.id }))).toEqual(config)
    expect(await run(client.listPushConfigs({ id: task.id }))).toEqual([config])
    expect(await run(client.deletePushConfig({ id: task.id, pushNotificationConfigId: "cfg-1" }))).toBeNull()
    expect(await run(client.listPushConfigs({ id: task.id }))).toEqual([])
    expect(await failure(client.getPushConfig({ id: task.id }))).toMatchObject({ _tag: "TaskNotFound" })
    const configs = `${prefix}/tasks/${task.id}/pushNotificationConfigs`
    expect(log.slice(-7)).toEqual([
      `POST ${configs}`,
      `GET ${configs}/cfg-1`,
      `GET ${configs}`,
      `GET ${configs}`,
      `DELETE ${configs}/cfg-1`,
      `GET ${configs}`,
      `GET ${configs}`
    ])
    await run(client.cancelTask({ id: task.id }))
  })

  it("the extended card route answers an authenticated caller; without a key, the refusal JSON-RPC gives (0.3) or HTTP 401 (1.0)", async () => {
    const client = await restClient(secured.url, { headers: { "x-api-key": apiKey } })
    expect((await run(client.getAuthenticatedExtendedCard())).name).toBe(extendedCard.name)
    const anonymous = await failure((await restClient(secured.url)).getAuthenticatedExtendedCard())
    const overRpc = await failure((await run(A2AClient.make({ url: secured.url }, { ...quick, ...pin }))).getAuthenticatedExtendedCard())
    if (version === "0.3") {
      expect(anonymous).toMatchObject({ _tag: overRpc._tag, code: (overRpc as { code?: number }).code, message: "authentication required" })
    } else {
      // A 1.0 REST refusal is a google.rpc.Status without an A2A reason: an HTTP failure, its message kept.
      expect(anonymous).toMatchObject({ _tag: "A2AClientTransportError", reason: "HttpStatus", status: 401 })
      expect(anonymous.message).toContain("authentication required")
    }
  })

  it("capabilities off: the catalogue's errors, as over JSON-RPC", async () => {
    const client = await restClient(bare.url)
    const task = asTask(await run(client.sendMessage(userText("hello"))))
    const config = { taskId: task.id, pushNotificationConfig: { url: webhook } }
    expect(await failure(client.setPushConfig(config))).toMatchObject({ _tag: "PushNotificationNotSupported" })
    expect(await failure(Stream.runDrain(client.streamMessage(userText("stream a"))))).toMatchObject({ _tag: "UnsupportedOperation" })
    const rpc = await run(A2AClient.make({ url: bare.url }, quick))
    expect((await failure(rpc.setPushConfig(config)))._tag).toBe("PushNotificationNotSupported")
  })

  it("invalid params are InvalidParams (HTTP 400 with a -32602 body)", async () => {
    const client = await restClient(server.url)
    const empty = { message: { kind: "message" as const, messageId: "m-1", role: "user" as const, parts: [] } }
    expect(await failure(client.sendMessage(empty))).toMatchObject({ _tag: "InvalidParams", code: -32602 })
  })
})

describe.each(versions)("streams over REST $version against our server", ({ prefix, options: pin }) => {
  const restClient = (url: string, options: A2AClientOptions = {}) => run(A2AClient.make({ url }, { ...rest, ...pin, ...options }))

  it("message:stream delivers the Task, the chunks and the final status, decoded as A2A events", async () => {
    const client = await restClient(server.url)
    const events = await collect(client.streamMessage(userText("stream one two three")))
    expect(events.map((e) => e.kind)).toEqual(["task", "status-update", "artifact-update", "artifact-update", "artifact-update", "status-update"])
    expect(events.at(-1)).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } })
    const task = await run(client.getTask({ id: asTask(events[0]!).id }))
    expect(textsOf(task)).toEqual(["one", "two", "three"])
  })

  it("tasks/{id}:subscribe: the snapshot, then the final canceled status; an unknown task is TaskNotFound", async () => {
    const client = await restClient(server.url)
    const started = asTask(await run(client.sendMessage(userText("wait", { configuration: { blocking: false } }))))
    const events = await collect(client.resubscribe({ id: started.id }).pipe(
      Stream.tap((e) => (e.kind === "task" ? Effect.asVoid(client.cancelTask({ id: started.id })) : Effect.void))
    ))
    expect(events[0]).toMatchObject({ kind: "task", id: started.id })
    expect(events.at(-1)).toMatchObject({ kind: "status-update", final: true, status: { state: "canceled" } })
    expect(await failure(Stream.runDrain(client.resubscribe({ id: "no-such-task" })))).toMatchObject({ _tag: "TaskNotFound" })
  })

  it("a cut stream resumes on :subscribe with Last-Event-ID: nothing lost, nothing repeated", async () => {
    const log: Array<string> = []
    let cut = false
    const client = await restClient(server.url, {
      fetch: recording(log, async (input, init) => {
        const response = await fetch(input, init)
        if (cut || !String(input).endsWith(`${prefix}/message:stream`)) return response
        cut = true
        return cutAfterEvents(response, 3)
      })
    })
    const events = await collect(client.streamMessage(userText("stream a b c d e")))
    const reference = await collect(client.streamMessage(userText("stream a b c d e")))
    const shape = (es: Array<StreamResult>) => es.map((e) => (e.kind === "artifact-update" ? e.artifact.parts : e.kind))
    expect(shape(events)).toEqual(shape(reference))
    const taskId = asTask(events[0]!).id
    expect(log).toContain(`POST ${prefix}/tasks/${taskId}:subscribe 3`)
  })

  it("a live task's stream cut mid-way resumes and still ends with the final status", async () => {
    let cut = false
    let subscribed: () => void = () => {}
    const resubscribed = new Promise<void>((resolve) => (subscribed = resolve))
    const client = await restClient(server.url, {
      fetch: async (input, init) => {
        const response = await fetch(input, init)
        if (String(input).includes(":subscribe")) subscribed()
        if (cut || !String(input).endsWith(`${prefix}/message:stream`)) return response
        cut = true
        return cutAfterEvents(response, 2)
      }
    })
    const seen: Array<StreamResult> = []
    const streaming = run(Stream.runForEach(client.streamMessage(userText("wait")), (e) => Effect.sync(() => seen.push(e))))
    await resubscribed
    const taskId = asTask(seen[0]!).id
    await run(client.cancelTask({ id: taskId }))
    await streaming
    expect(seen.map((e) => (e.kind === "status-update" ? e.status.state : e.kind))).toEqual(["task", "working", "canceled"])
  })
})

describe("invalid REST answers", () => {
  let peer: TestServer
  beforeAll(async () => {
    peer = await serveWebHandler(async (request) => {
      const path = new URL(request.url).pathname
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
      if (path === "/html/v1/message:send") return new Response("<html></html>", { headers: { "content-type": "text/html" } })
      if (path === "/shape/v1/message:send") return json({ task: { status: { state: "TASK_STATE_NOPE" } } })
      if (path === "/crash/v1/message:send") return new Response("upstream down", { status: 503 })
      if (path === "/json/v1/message:stream") return json({ task: { id: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } } })
      if (path === "/mid/v1/message:stream") {
        const frames = `id: 1\ndata: ${JSON.stringify({ task: { id: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } } })}\n\n` +
          `event: error\ndata: ${JSON.stringify({ code: -32603, message: "agent failed" })}\n\n`
        return new Response(frames, { headers: { "content-type": "text/event-stream" } })
      }
      return json({ code: -32001, message: "nothing here" }, 404)
    })
  })
  afterAll(() => peer.close())

  const at = (prefix: string) => run(A2AClient.make({ endpoint: `${peer.url}/${prefix}` }, rest))

  it("non-JSON, wrong shapes and JSON replies to streams are InvalidAgentResponse; bare HTTP errors transport errors", async () => {
    const reason = (e: unknown) => (e as { _tag?: string })._tag === "InvalidAgentResponse" ? invalidAnswerReason(e as never) : e
    expect(reason(await failure((await at("html")).sendMessage(userText("x"))))).toBe("NotJson")
    expect(reason(await failure((await at("shape")).sendMessage(userText("x"))))).toBe("WrongShape")
    expect(reason(await failure(Stream.runDrain((await at("json")).streamMessage(userText("x")))))).toBe("NotSse")
    expect(await failure((await at("crash")).sendMessage(userText("x")))).toMatchObject({ reason: "HttpStatus", status: 503 })
    expect(await failure((await at("other")).getTask({ id: "t" }))).toMatchObject({ _tag: "TaskNotFound", message: "nothing here" })
  })

  it("an `event: error` frame fails the stream with its tagged error after the events before it", async () => {
    const seen: Array<string> = []
    const error = await failure(Stream.runForEach((await at("mid")).streamMessage(userText("x")), (e) => Effect.sync(() => seen.push(e.kind))))
    expect(seen).toEqual(["task"])
    expect(error).toMatchObject({ _tag: "Internal", message: "agent failed" })
  })
})

describe("invalid REST answers in 1.0", () => {
  let peer: TestServer
  beforeAll(async () => {
    peer = await serveWebHandler(async (request) => {
      const path = new URL(request.url).pathname
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/a2a+json" } })
      const working = { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } } }
      if (path === "/html/message:send") return new Response("<html></html>", { headers: { "content-type": "text/html" } })
      if (path === "/shape/message:send") return json({ task: { id: "t", contextId: "c", status: { state: "completed" } } })
      if (path === "/both/message:send") return json({ ...working, message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "x" }] } })
      if (path === "/json/message:stream") return json(working)
      if (path === "/mid/message:stream") {
        const frames = `id: 1\ndata: ${JSON.stringify(working)}\n\n` +
          `event: error\ndata: ${JSON.stringify({ error: { code: 500, status: "INTERNAL", message: "agent failed" } })}\n\n`
        return new Response(frames, { headers: { "content-type": "text/event-stream" } })
      }
      if (path === "/odd/message:stream") {
        return new Response(`event: error\ndata: ${JSON.stringify({ reason: "no" })}\n\n`, { headers: { "content-type": "text/event-stream" } })
      }
      if (path === "/gone/tasks/t") {
        const info = { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" }
        return json({ error: { code: 404, status: "NOT_FOUND", message: "nothing here", details: [info] } }, 404)
      }
      // A 0.3 body (or a proxy's) is not a 1.0 error: an HTTP failure.
      return json({ code: -32001, message: "nothing here" }, 404)
    })
  })
  afterAll(() => peer.close())

  const at = (prefix: string) => run(A2AClient.make({ endpoint: `${peer.url}/${prefix}` }, { ...rest, protocolVersion: "1.0" }))
  const reason = (e: unknown) => (e as { _tag?: string })._tag === "InvalidAgentResponse" ? invalidAnswerReason(e as never) : e

  it("non-JSON, 0.3 shapes, two oneof members and JSON replies to streams are InvalidAgentResponse", async () => {
    expect(reason(await failure((await at("html")).sendMessage(userText("x"))))).toBe("NotJson")
    expect(reason(await failure((await at("shape")).sendMessage(userText("x"))))).toBe("WrongShape")
    expect(reason(await failure((await at("both")).sendMessage(userText("x"))))).toBe("WrongShape")
    expect(reason(await failure(Stream.runDrain((await at("json")).streamMessage(userText("x")))))).toBe("NotSse")
  })

  it("a google.rpc.Status names its error by ErrorInfo; a body that is none is an HTTP failure", async () => {
    expect(await failure((await at("gone")).getTask({ id: "t" }))).toMatchObject({ _tag: "TaskNotFound", message: "nothing here" })
    expect(await failure((await at("other")).getTask({ id: "t" }))).toMatchObject({ _tag: "A2AClientTransportError", reason: "HttpStatus", status: 404 })
  })

  it("an `event: error` frame fails the stream with its error; a frame that is not a Status is InvalidAgentResponse", async () => {
    const seen: Array<string> = []
    const error = await failure(Stream.runForEach((await at("mid")).streamMessage(userText("x")), (e) => Effect.sync(() => seen.push(e.kind))))
    expect(seen).toEqual(["task"])
    expect(error).toMatchObject({ _tag: "Internal", message: "agent failed" })
    expect(reason(await failure(Stream.runDrain((await at("odd")).streamMessage(userText("x")))))).toBe("WrongShape")
  })
})

describe("our REST client against the JS SDK 0.3.14 REST server", () => {
  const sdkClient = () => run(A2AClient.make({ endpoint: sdk.url }, rest))

  it("send and get: the same typed Task and Message", async () => {
    const client = await sdkClient()
    const task = asTask(await run(client.sendMessage(userText("hello there"))))
    expect(task.status).toMatchObject({ state: "completed", message: { parts: [{ kind: "text", text: "echo: hello there" }] } })
    expect(await run(client.sendMessage(userText("message hi")))).toMatchObject({ kind: "message", parts: [{ text: "echo: hi" }] })
    expect(await run(client.getTask({ id: task.id, historyLength: 1 }))).toMatchObject({ id: task.id, status: { state: "completed" } })
  })

  it("stream: every event decodes, in order", async () => {
    const events = await collect((await sdkClient()).streamMessage(userText("stream one two three")))
    expect(events.map((e) => e.kind)).toEqual(["task", "status-update", "artifact-update", "artifact-update", "artifact-update", "status-update"])
    expect(events.at(-1)).toMatchObject({ final: true, status: { state: "completed" } })
  })

  it("cancel, then a second cancel is TaskNotCancelable and an unknown task TaskNotFound", async () => {
    const client = await sdkClient()
    const started = asTask(await run(client.sendMessage(userText("wait", { configuration: { blocking: false } }))))
    expect((await run(client.cancelTask({ id: started.id }))).status.state).toBe("canceled")
    expect(await failure(client.cancelTask({ id: started.id }))).toMatchObject({ _tag: "TaskNotCancelable" })
    expect(await failure(client.getTask({ id: "no-such-task" }))).toMatchObject({ _tag: "TaskNotFound" })
  })
})
