/**
 * Client checks for card discovery, unary calls and transport failures, written against Web APIs and
 * the client's public API only, so they run unchanged on Node, Bun and Deno.
 *
 * @module
 */
import { Effect } from "effect"
import { A2AClient, authHeader, createA2AClient, extensionsHeader, userText } from "../../src/client/index.ts"
import { assert, assertEqual, assertFields, type Check, check, rejection } from "./check-kit.ts"
import { type ClientCheckContext, quick, reasonOf, withServer } from "./check-context.ts"

const invalidAnswerCheck = (path: string, reason: string): Check<ClientCheckContext> =>
  check(`unary: ${path} is refused as InvalidAgentResponse ${reason}`, async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}${path}` }, quick)
    const e = await rejection(client.getTask({ id: "task-1" }), "tasks/get")
    assertFields(e, { _tag: "InvalidAgentResponse", code: -32006 }, "error")
    assertEqual(reasonOf(e), reason, "InvalidAgentResponse reason")
  })

/** Discovery, unary calls and transport failures. */
export const unaryChecks: ReadonlyArray<Check<ClientCheckContext>> = [
  check("discovery: finds the card at the well-known path and calls the endpoint it names", async ({ url }) => {
    const client = await createA2AClient({ url }, quick)
    assertEqual(client.card?.name, "Scripted agent", "card name")
    assertEqual(client.endpoint, `${url}/rpc`, "endpoint")
    const result = await client.sendMessage(userText("hi"))
    assertFields(result, { kind: "task", id: "task-1" }, "message/send result")
  }),

  check("discovery: falls back to the legacy agent.json path", async ({ url }) => {
    const seen: Array<string> = []
    const legacyOnly: typeof globalThis.fetch = (input, init) => {
      const target = String(input)
      seen.push(new URL(target).pathname)
      if (target.endsWith("/agent-card.json")) return Promise.resolve(new Response("gone", { status: 404 }))
      return globalThis.fetch(target.replace("/agent.json", "/agent-card.json"), init)
    }
    const found = await Effect.runPromise(A2AClient.discover(url, { ...quick, fetch: legacyOnly }))
    assertEqual(found.cardUrl, `${url}/.well-known/agent.json`, "card URL")
    assertEqual(found.card.name, "Scripted agent", "card name")
    assertEqual(seen, ["/.well-known/agent-card.json", "/.well-known/agent.json"], "paths tried")
  }),

  check("discovery: a site without a card is InvalidAgentResponse NoAgentCard", async ({ serve }) => {
    await withServer(serve, async () => new Response("Not Found", { status: 404 }), async (site) => {
      const e = await rejection(createA2AClient({ url: `${site}/some/page` }, quick), "discovery")
      assertEqual(reasonOf(e), "NoAgentCard", "reason")
    })
  }),

  check("unary: message/send, tasks/get (named and through the table) decode Tasks", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/rpc` }, quick)
    const sent = await client.sendMessage(userText("hi"))
    assert(sent.kind === "task", `message/send answered ${sent.kind}`)
    assertEqual(sent.status.state, "working", "state after send")
    const got = await client.getTask({ id: "task-1" })
    assertEqual(got.status.state, "completed", "state from tasks/get")
    assertEqual(got.artifacts?.[0]?.parts, ["a", "b", "c"].map((text) => ({ kind: "text", text })), "artifact parts")
    const viaTable = await client.call("tasks/get", { id: "task-1" })
    assertEqual(viaTable, got, "tasks/get through call()")
  }),

  check("unary: JSON-RPC error objects become the tagged protocol errors", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/rpc` }, quick)
    const notFound = await rejection(client.getTask({ id: "nope" }), "tasks/get of an unknown task")
    assert(notFound instanceof Error, "the rejection is an Error")
    assertFields(notFound, { _tag: "TaskNotFound", code: -32001, message: "Task nope not found" }, "tasks/get error")
    const notCancelable = await rejection(client.cancelTask({ id: "task-1" }), "tasks/cancel")
    assertFields(notCancelable, { _tag: "TaskNotCancelable", code: -32002 }, "tasks/cancel error")
  }),

  invalidAnswerCheck("/not-json", "NotJson"),
  invalidAnswerCheck("/wrong-id", "WrongId"),
  invalidAnswerCheck("/wrong-shape", "WrongShape"),

  check("unary: HTTP 503 without a JSON-RPC body is a transport error HttpStatus", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/http-503` }, quick)
    const e = await rejection(client.getTask({ id: "task-1" }), "tasks/get")
    assertFields(e, { _tag: "A2AClientTransportError", reason: "HttpStatus", status: 503 }, "error")
  }),

  check("unary: a request never answered times out within its bound", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/silent` }, { ...quick, timeoutMs: 200 })
    const started = Date.now()
    const e = await rejection(client.getTask({ id: "task-1" }), "tasks/get")
    const elapsed = Date.now() - started
    assertFields(e, { _tag: "A2AClientTransportError", reason: "Timeout" }, "error")
    assert(elapsed < 2_000, `timed out after ${elapsed} ms, bound 200 ms`)
  }),

  check("interceptors: auth and extension headers reach the agent; a CR/LF credential is refused", async ({ url, agent }) => {
    const client = await createA2AClient({ endpoint: `${url}/rpc` }, {
      ...quick,
      interceptors: [authHeader({ token: async () => "s3cret" }), extensionsHeader(["urn:ext:a", "urn:ext:b"])]
    })
    const before = agent.requestHeaders.length
    await client.getTask({ id: "task-1" })
    const headers = agent.requestHeaders[before]
    assertEqual(headers?.get("authorization"), "Bearer s3cret", "Authorization")
    assertEqual(headers?.get("x-a2a-extensions"), "urn:ext:a, urn:ext:b", "X-A2A-Extensions")
    const evil = await createA2AClient({ endpoint: `${url}/rpc` }, { ...quick, interceptors: [authHeader({ token: "x\r\nX-Evil: 1" })] })
    const e = await rejection(evil.getTask({ id: "task-1" }), "tasks/get with a CR/LF token")
    assertFields(e, { _tag: "A2AClientTransportError", reason: "Request" }, "error")
    assertEqual(agent.requestHeaders.length, before + 1, "requests that reached the agent")
  }),

  check("transport: an unreachable host is a transport error Unreachable", async ({ serve }) => {
    const dead = await serve(async () => new Response(null))
    await dead.close()
    const e = await rejection(createA2AClient({ url: dead.url }, quick), "discovery on a closed port")
    assertFields(e, { _tag: "A2AClientTransportError", reason: "Unreachable" }, "error")
  })
]

