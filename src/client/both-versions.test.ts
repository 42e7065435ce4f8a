/**
 * One client, both versions: the same calls against our server over A2A 1.0 and 0.3, on JSON-RPC and REST,
 * give the same model results (what the versions say differently is pinned where it shows); every request
 * names its version, extensions travel in the version's header, a cut stream resumes with Last-Event-ID.
 */
import { Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { restTestAgent } from "../../conformance/interop/sdk-rest/rest-test-agent.ts"
import type { StreamResult, Task } from "../../schemas/index.ts"
import { cutAfterEvents } from "../../testing/client/cut-stream.ts"
import { serveWebHandler, type TestServer } from "../../testing/client/node-server.ts"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { A2AClient, type A2AClientOptions, userText } from "./client.ts"
import { extensionsHeader } from "./interceptors.ts"

let server: Listening

beforeAll(async () => {
  server = await serveNode(await A2AServer.make(restTestAgent(), { push: { allow: ["127.0.0.1"] } }))
})
afterAll(() => server.close({ graceMs: 0 }))

const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)
const failure = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))
const collect = <A, E>(stream: Stream.Stream<A, E>): Promise<Array<A>> => run(Effect.map(Stream.runCollect(stream), (c) => [...c]))

interface Seen {
  readonly path: string
  readonly version: string | null
  readonly extensions: string | null
  readonly legacyExtensions: string | null
}

/** A fetch that records what each request says of its version and extensions, then performs it. */
const recording = (log: Array<Seen>, inner: typeof fetch = fetch): typeof fetch => (input, init) => {
  const h = new Headers(init?.headers)
  log.push({ path: new URL(String(input)).pathname, version: h.get("a2a-version"), extensions: h.get("a2a-extensions"), legacyExtensions: h.get("x-a2a-extensions") })
  return inner(input, init)
}

const asTask = (r: unknown): Task => {
  const task = r as Task
  if (task.kind !== "task") throw new Error(`expected a task, got ${JSON.stringify(r).slice(0, 200)}`)
  return task
}

/** What a stream says, with the model's `final`. */
const summary = (e: StreamResult): string =>
  e.kind === "status-update" ? `${e.status.state}${e.final ? "!" : ""}` : e.kind === "artifact-update" ? `+${e.artifact.parts.map((p) => (p.kind === "text" ? p.text : "")).join("")}` : e.kind

const matrix = [
  { version: "1.0", transport: "JSONRPC" },
  { version: "1.0", transport: "HTTP+JSON" },
  { version: "0.3", transport: "JSONRPC" },
  { version: "0.3", transport: "HTTP+JSON" }
] as const

describe.each(matrix)("A2A $version over $transport against our server", ({ version, transport }) => {
  const options: A2AClientOptions = { timeoutMs: 5_000, idleTimeoutMs: 5_000, retries: 0, resume: { backoffMs: 10 }, transport, protocolVersion: version }
  const client = (extra: A2AClientOptions = {}) => run(A2AClient.make({ url: server.url }, { ...options, ...extra }))

  it("speaks the version asked for, and every request (the card's too) names it; extensions go in its header", async () => {
    const log: Array<Seen> = []
    const c = await client({ fetch: recording(log), interceptors: [extensionsHeader(["urn:ext:a"])], headers: { "X-A2A-Extensions": "urn:ext:b" } })
    expect([c.protocolVersion, c.transport]).toEqual([version, transport])
    await run(c.getTask({ id: asTask(await run(c.sendMessage(userText("hello")))).id }))
    expect(log.map((s) => s.version)).toEqual(log.map(() => version))
    const requests = log.filter((s) => !s.path.includes("agent-card"))
    const [own, other] = version === "1.0" ? (["extensions", "legacyExtensions"] as const) : (["legacyExtensions", "extensions"] as const)
    expect(requests.map((s) => s[own])).toEqual(requests.map(() => "urn:ext:b, urn:ext:a"))
    expect(requests.map((s) => s[other])).toEqual(requests.map(() => null))
  })

  it("send and get give the same model Task; a direct reply is a Message", async () => {
    const c = await client()
    const task = asTask(await run(c.sendMessage(userText("hello there"))))
    expect(task.status).toMatchObject({ state: "completed", message: { kind: "message", role: "agent", parts: [{ kind: "text", text: "echo: hello there" }] } })
    const read = await run(c.getTask({ id: task.id }))
    expect(read).toEqual(task)
    expect((await run(c.getTask({ id: task.id, historyLength: 1 }))).history).toEqual(task.history?.slice(-1))
    expect(await run(c.sendMessage(userText("message hi")))).toMatchObject({ kind: "message", parts: [{ kind: "text", text: "echo: hi" }] })
  })

  it("a stream ends with its final status; a finished task's resubscription gives its Task and ends", async () => {
    const c = await client()
    const events = await collect(c.streamMessage(userText("stream one two")))
    expect(events.map(summary)).toEqual(["task", "working", "+one", "+two", "completed!"])
    const ended = await collect(c.resubscribe({ id: asTask(events[0]).id }))
    expect(ended.map(summary)).toEqual(["task"])
    expect(ended[0]).toMatchObject({ status: { state: "completed" } })
  })

  it("a stream cut mid-way resumes with Last-Event-ID: nothing lost, nothing repeated", async () => {
    const resumed: Array<string | null> = []
    let cut = false
    const c = await client({
      fetch: async (input, init) => {
        const lastEventId = new Headers(init?.headers).get("last-event-id")
        if (lastEventId !== null) resumed.push(lastEventId)
        const response = await fetch(input, init)
        if (cut || new Headers(init?.headers).get("accept") !== "text/event-stream") return response
        cut = true
        return cutAfterEvents(response, 3)
      }
    })
    const events = await collect(c.streamMessage(userText("stream a b c d")))
    expect(events.map(summary)).toEqual(["task", "working", "+a", "+b", "+c", "+d", "completed!"])
    expect(resumed).toEqual(["3"])
  })

  it("cancel, and push configs set, get, list, delete, with the same results", async () => {
    const c = await client()
    const task = asTask(await run(c.sendMessage(userText("wait", { configuration: { blocking: false } }))))
    const config = { taskId: task.id, pushNotificationConfig: { id: "cfg-1", url: "http://127.0.0.1:9/hook", token: "tok", authentication: { schemes: ["Bearer"], credentials: "c" } } }
    expect(await run(c.setPushConfig(config))).toEqual(config)
    expect(await run(c.getPushConfig({ id: task.id, pushNotificationConfigId: "cfg-1" }))).toEqual(config)
    expect(await run(c.getPushConfig({ id: task.id }))).toEqual(config)
    expect(await run(c.listPushConfigs({ id: task.id }))).toEqual([config])
    expect(await run(c.deletePushConfig({ id: task.id, pushNotificationConfigId: "cfg-1" }))).toBeNull()
    expect(await run(c.listPushConfigs({ id: task.id }))).toEqual([])
    expect((await run(c.cancelTask({ id: task.id }))).status.state).toBe("canceled")
    expect(await failure(c.cancelTask({ id: task.id }))).toMatchObject({ _tag: "TaskNotCancelable", code: -32002 })
    expect(await failure(c.getTask({ id: "no-such-task" }))).toMatchObject({ _tag: "TaskNotFound", code: -32001 })
    // A message to a finished task: 0.3 says InvalidParams, 1.0 UnsupportedOperation (spec 1.0 §3.1.1).
    const refused = await failure(c.sendMessage(userText("more", { taskId: task.id })))
    expect(refused).toMatchObject(version === "1.0" ? { _tag: "UnsupportedOperation", code: -32004 } : { code: -32602 })
  })

  it(version === "1.0" ? "listTasks pages through the caller's tasks, newest first" : "listTasks fails with UnsupportedOperation without a request", async () => {
    const log: Array<Seen> = []
    const c = await client({ fetch: recording(log) })
    const first = asTask(await run(c.sendMessage(userText("one"))))
    const second = asTask(await run(c.sendMessage(userText("two", { contextId: first.contextId }))))
    if (version === "0.3") {
      const before = log.length
      expect(await failure(c.listTasks())).toMatchObject({ _tag: "UnsupportedOperation" })
      expect(log.length).toBe(before)
      return
    }
    const page = await run(c.listTasks({ contextId: first.contextId, pageSize: 1 }))
    expect(page).toMatchObject({ pageSize: 1, totalSize: 2, tasks: [{ kind: "task", id: second.id }] })
    expect(page.tasks[0]).not.toHaveProperty("artifacts")
    const next = await run(c.listTasks({ contextId: first.contextId, pageSize: 1, pageToken: page.nextPageToken, includeArtifacts: true, historyLength: 1 }))
    expect(next).toMatchObject({ nextPageToken: "", tasks: [{ id: first.id }] })
    expect(next.tasks[0]?.history).toHaveLength(1)
    expect((await run(c.listTasks({ contextId: first.contextId, status: "working" }))).tasks).toEqual([])
    expect(await failure(c.listTasks({ pageSize: 500 }))).toMatchObject({ _tag: "InvalidParams" })
  })
})

describe("one task, both versions", () => {
  it("a task sent over 1.0 reads back over 0.3 as the same model Task, and the reverse", async () => {
    const v1 = await run(A2AClient.make({ url: server.url }, { protocolVersion: "1.0" }))
    const v03 = await run(A2AClient.make({ url: server.url }, { protocolVersion: "0.3", transport: "HTTP+JSON" }))
    const sent = asTask(await run(v1.sendMessage(userText("hello"))))
    expect(await run(v03.getTask({ id: sent.id }))).toEqual(sent)
    const back = asTask(await run(v03.sendMessage(userText("hi"))))
    expect(await run(v1.getTask({ id: back.id }))).toEqual(back)
  })

  it("auto picks 1.0 from our card; a bare endpoint speaks 0.3 unless told 1.0", async () => {
    expect((await run(A2AClient.make({ url: server.url }))).protocolVersion).toBe("1.0")
    expect((await run(A2AClient.make({ endpoint: `${server.url}/` }))).protocolVersion).toBe("0.3")
    const bare = await run(A2AClient.make({ endpoint: `${server.url}/` }, { protocolVersion: "1.0" }))
    expect(bare.protocolVersion).toBe("1.0")
    expect(asTask(await run(bare.sendMessage(userText("hello")))).status.state).toBe("completed")
  })
})

describe("invalid 1.0 JSON-RPC answers", () => {
  let peer: TestServer
  beforeAll(async () => {
    peer = await serveWebHandler(async (request) => {
      const body = (await request.json()) as { readonly id: string; readonly method: string }
      const path = new URL(request.url).pathname
      const answer = (result: unknown) => new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, result }), { headers: { "content-type": "application/json" } })
      const task = { id: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } }
      switch (path) {
        case "/text":
          return new Response("not json", { headers: { "content-type": "application/json" } })
        case "/other-id":
          return new Response(JSON.stringify({ jsonrpc: "2.0", id: "someone-else", result: { task } }), { headers: { "content-type": "application/json" } })
        case "/v03":
          return answer({ kind: "task", ...task, status: { state: "working" } })
        case "/reason": {
          const info = { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_CANCELABLE", domain: "a2a-protocol.org" }
          return new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32603, message: "done already", data: [info] } }))
        }
        case "/stream": {
          const frame = (result: unknown) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result })}\n\n`
          return new Response(frame({ task }) + frame({ kind: "status-update", taskId: "t", contextId: "c", status: { state: "completed" }, final: true }), {
            headers: { "content-type": "text/event-stream" }
          })
        }
        default:
          return answer({ task })
      }
    })
  })
  afterAll(() => peer.close())

  const at = (path: string) => run(A2AClient.make({ endpoint: `${peer.url}${path}` }, { protocolVersion: "1.0", timeoutMs: 2_000, retries: 0, resume: false }))
  const reason = (e: unknown) => (e as { readonly data?: { readonly reason?: string } }).data?.reason

  it("non-JSON, another request's id and a 0.3-shaped result are InvalidAgentResponse", async () => {
    expect(reason(await failure((await at("/text")).getTask({ id: "t" })))).toBe("NotJson")
    expect(reason(await failure((await at("/other-id")).sendMessage(userText("x"))))).toBe("WrongId")
    expect(reason(await failure((await at("/v03")).sendMessage(userText("x"))))).toBe("WrongShape")
  })

  it("an error is named by its ErrorInfo reason; a 0.3 event inside a 1.0 stream stops it", async () => {
    expect(await failure((await at("/reason")).cancelTask({ id: "t" }))).toMatchObject({ _tag: "TaskNotCancelable", message: "done already" })
    const seen: Array<string> = []
    const error = await failure(Stream.runForEach((await at("/stream")).streamMessage(userText("x")), (e) => Effect.sync(() => seen.push(e.kind))))
    expect(seen).toEqual(["task"])
    expect(reason(error)).toBe("WrongShape")
  })
})

describe("an interface under a tenant", () => {
  let tenanted: Listening
  beforeAll(async () => {
    tenanted = await serveNode(await A2AServer.make(restTestAgent(), { tenant: "acme" }))
  })
  afterAll(() => tenanted.close({ graceMs: 0 }))

  it.each(["JSONRPC", "HTTP+JSON"] as const)("over %s, every 1.0 request names the card's tenant (spec 1.0 §8.3.2)", async (transport) => {
    const sent: Array<{ readonly path: string; readonly body: string }> = []
    const c = await run(A2AClient.make({ url: tenanted.url }, {
      transport,
      fetch: async (input, init) => {
        sent.push({ path: new URL(String(input)).pathname, body: typeof init?.body === "string" ? init.body : "" })
        return fetch(input, init)
      }
    }))
    expect(c.interfaces.filter((i) => i.protocolVersion === "1.0").map((i) => i.tenant)).toEqual(["acme", "acme"])
    const task = asTask(await run(c.sendMessage(userText("hello"))))
    expect((await run(c.getTask({ id: task.id }))).id).toBe(task.id)
    expect((await run(c.listTasks())).tasks.map((t) => t.id)).toContain(task.id)
    const calls = sent.filter((s) => !s.path.includes("agent-card"))
    if (transport === "JSONRPC") expect(calls.map((s) => JSON.parse(s.body).params.tenant)).toEqual(["acme", "acme", "acme"])
    else expect(calls.map((s) => s.path)).toEqual(["/acme/message:send", `/acme/tasks/${task.id}`, "/acme/tasks"])
  })
})
