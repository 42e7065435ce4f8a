/**
 * The JSON-RPC endpoint through the Web handler: extension negotiation, errors of streaming
 * methods, and answers that never show a stack trace.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { A2AServer, type A2AServerHandle } from "./a2a-server.ts"
import { userMessage } from "../../testing/server/rpc.ts"

const TRACE = "https://example.com/ext/trace/v1"
const REQUIRED = "https://example.com/ext/required/v1"

const agent = (required: boolean) =>
  Agent.make({
    card: {
      name: "extension test agent",
      description: "Reports the extensions it sees.",
      version: "1.0.0",
      capabilities: {
        streaming: true,
        extensions: [
          { uri: TRACE, description: "Adds trace metadata" },
          ...(required ? [{ uri: REQUIRED, description: "Must be on", required: true }] : [])
        ]
      },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: []
    },
    execute: (ctx) =>
      ctx.message.parts[0]?.kind === "text" && ctx.message.parts[0].text === "crash"
        ? Effect.die(new Error("secret internal detail"))
        : ctx.complete(`extensions: ${ctx.extensions.join(",") || "none"}`)
  })

const post = (server: A2AServerHandle, body: unknown, headers: Record<string, string> = {}) =>
  server.handler(new Request("http://127.0.0.1/", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  }))

let optional: A2AServerHandle
let strict: A2AServerHandle
beforeAll(async () => {
  optional = await A2AServer.make(agent(false))
  strict = await A2AServer.make(agent(true))
})
afterAll(async () => {
  await optional.dispose({ graceMs: 0 })
  await strict.dispose({ graceMs: 0 })
})

describe("extension negotiation", () => {
  it("activates declared extensions, ignores unknown ones, and echoes the activated ones", async () => {
    const response = await post(optional, { jsonrpc: "2.0", id: 1, method: "message/send", params: { message: userMessage("hi") } }, {
      "x-a2a-extensions": `https://unknown.example/x, ${TRACE}`
    })
    expect(response.headers.get("x-a2a-extensions")).toBe(TRACE)
    const body = await response.json()
    expect(body.result.status.message.parts[0].text).toBe(`extensions: ${TRACE}`)
  })

  it("sends no echo header when nothing was activated", async () => {
    const response = await post(optional, { jsonrpc: "2.0", id: 2, method: "message/send", params: { message: userMessage("hi") } })
    expect(response.headers.get("x-a2a-extensions")).toBeNull()
    expect((await response.json()).result.status.message.parts[0].text).toBe("extensions: none")
  })

  it("refuses a request that lacks a required extension, naming it, and starts no task", async () => {
    const before = strict.runtime.hosted()
    const response = await post(strict, { jsonrpc: "2.0", id: 3, method: "message/send", params: { message: userMessage("hi") } })
    const body = await response.json()
    expect(response.status).toBe(200)
    expect(body.error.code).toBe(-32600)
    expect(body.error.message).toContain(REQUIRED)
    expect(strict.runtime.hosted()).toBe(before)
  })

  it("answers a streaming method's error as an SSE error event", async () => {
    const response = await post(strict, { jsonrpc: "2.0", id: "s", method: "message/stream", params: { message: userMessage("hi") } })
    expect(response.headers.get("content-type")).toContain("text/event-stream")
    const text = await response.text()
    const event = JSON.parse(text.trim().replace(/^data: /, ""))
    expect(event).toMatchObject({ jsonrpc: "2.0", id: "s", error: { code: -32600 } })
  })
})

/** The one SSE error event of a refused streaming request, checking the stream ends after it. */
const sseError = async (response: Response) => {
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("text/event-stream")
  const events = (await response.text()).split("\n\n").filter((e) => e.trim() !== "")
  expect(events).toHaveLength(1)
  return JSON.parse(events[0]!.replace(/^data: /, "")) as { id: unknown; error: { code: number; message: string } }
}

describe("a request naming a streaming method is answered in SSE, even when it is refused", () => {
  const noMessageId = { message: { kind: "message", role: "user", parts: [{ kind: "text", text: "hi" }] } }

  it("message/stream with invalid params: one -32602 error event echoing the id", async () => {
    const event = await sseError(await post(optional, { jsonrpc: "2.0", id: "p1", method: "message/stream", params: noMessageId }))
    expect(event).toMatchObject({ jsonrpc: "2.0", id: "p1", error: { code: -32602 } })
    expect(event.error.message).toContain("messageId")
  })

  it("tasks/resubscribe with invalid or missing params: -32602 as an error event", async () => {
    expect(await sseError(await post(optional, { jsonrpc: "2.0", id: 7, method: "tasks/resubscribe", params: { id: 42 } })))
      .toMatchObject({ id: 7, error: { code: -32602 } })
    expect(await sseError(await post(optional, { jsonrpc: "2.0", id: 8, method: "tasks/resubscribe" })))
      .toMatchObject({ id: 8, error: { code: -32602 } })
  })

  it("an invalid envelope or params nested too deeply: their codes, as error events", async () => {
    expect(await sseError(await post(optional, { jsonrpc: "1.0", id: "e", method: "message/stream", params: noMessageId })))
      .toMatchObject({ id: "e", error: { code: -32600 } })
    expect(await sseError(await post(optional, { jsonrpc: "2.0", id: 1.5, method: "message/stream", params: noMessageId })))
      .toMatchObject({ id: null, error: { code: -32600 } })
    const deep = `{"jsonrpc":"2.0","id":"d","method":"message/stream","params":{"x":${"[".repeat(100)}${"]".repeat(100)}}}`
    const event = await sseError(await post(optional, deep))
    expect(event).toMatchObject({ id: "d", error: { code: -32602 } })
    expect(event.error.message).toContain("64 levels")
  })

  it("a body that names no streaming method keeps the JSON error", async () => {
    const cases: ReadonlyArray<[unknown, number]> = [
      [{ jsonrpc: "2.0", id: 1, method: "message/send", params: noMessageId }, -32602],
      ['{"jsonrpc":"2.0","id":1,"method":"message/stream"', -32700],
      [{ jsonrpc: "2.0", id: 1, method: "message/streams", params: noMessageId }, -32601],
      [{ jsonrpc: "2.0", id: 1, method: ["message/stream"], params: noMessageId }, -32600]
    ]
    for (const [body, code] of cases) {
      const response = await post(optional, body)
      expect(response.headers.get("content-type"), JSON.stringify(body)).toContain("application/json")
      expect((await response.json()).error.code).toBe(code)
    }
  })
})

describe("failures never reach the wire with their details", () => {
  it("ends a crashing agent's task failed without the crash's text or stack", async () => {
    const response = await post(optional, { jsonrpc: "2.0", id: 4, method: "message/send", params: { message: userMessage("crash") } })
    const text = await response.text()
    expect(JSON.parse(text).result.status.state).toBe("failed")
    expect(text).not.toContain("secret internal detail")
    expect(text).not.toMatch(/at .*\.ts:\d+/)
  })

  it("answers a batch with one InvalidRequest error", async () => {
    const response = await post(optional, [{ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "x" } }])
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32600 } })
  })

  it("answers invalid UTF-8 with a parse error", async () => {
    const response = await optional.handler(new Request("http://127.0.0.1/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])
    }))
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32700 } })
  })
})

describe("authentication comes first", () => {
  it("answers 401 to an unauthenticated request before judging its method or params", async () => {
    const { apiKeyAuthenticator } = await import("../auth/api-key.ts")
    const secured = await A2AServer.make(Agent.make({
      card: {
        name: "secured", description: "needs a key", version: "1.0.0", capabilities: {},
        defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: [],
        securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
        security: [{ key: [] }]
      },
      execute: (ctx) => ctx.complete()
    }), { authentication: { authenticators: { key: apiKeyAuthenticator({ keys: { k1: { id: "p1" } } }) } } })
    const bodies = [
      { jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { nope: true } } },
      { jsonrpc: "2.0", id: 2, method: "no/such/method", params: {} },
      { jsonrpc: "1.0", id: 3, method: "tasks/get" },
      { jsonrpc: "2.0", id: 4, method: "message/stream", params: { message: { nope: true } } }
    ]
    for (const body of bodies) {
      const response = await post(secured, body)
      expect(response.status, JSON.stringify(body)).toBe(401)
      expect(response.headers.get("www-authenticate")).toContain("ApiKey")
    }
    // with the key, the same requests get their protocol errors
    const judged = await post(secured, bodies[0], { "x-api-key": "k1" })
    expect((await judged.json()).error.code).toBe(-32602)
    expect(await sseError(await post(secured, bodies[3], { "x-api-key": "k1" }))).toMatchObject({ id: 4, error: { code: -32602 } })
    await secured.dispose({ graceMs: 0 })
  })
})
