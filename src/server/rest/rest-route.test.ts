import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type OurRestServer, startOurRestServer } from "../../../conformance/interop/sdk-rest/our-rest-server.ts"
import { restTestAgent } from "../../../conformance/interop/sdk-rest/rest-test-agent.ts"
import { apiKey, keyAuthenticator, securedAgent } from "../../../conformance/interop/sdk-rest/secured-agent.ts"
import { Agent } from "../../agent/agent.ts"

/*
 * The REST binding over a real HTTP server on 127.0.0.1: every route, both input spellings, the statuses
 * of errors, and bodies that are malformed, oversized or hostile.
 */

let server: OurRestServer
let bare: OurRestServer
let small: OurRestServer
let secured: OurRestServer
let extended: OurRestServer

const requiredExtension = "https://example.com/ext/required/v1"

beforeAll(async () => {
  // Webhooks point at a closed loopback port, allowlisted: configs are accepted, deliveries fail quietly.
  server = await startOurRestServer(restTestAgent(), { heartbeatMs: 0, push: { allow: ["127.0.0.1"] } })
  bare = await startOurRestServer(restTestAgent({ streaming: false, pushNotifications: false }))
  small = await startOurRestServer(restTestAgent(), { maxBodyBytes: 2_048 })
  secured = await startOurRestServer(securedAgent(), { authentication: { authenticators: { key: keyAuthenticator } } })
  const base = restTestAgent()
  extended = await startOurRestServer(Agent.make({
    card: { ...base.card, capabilities: { ...base.card.capabilities, extensions: [{ uri: requiredExtension, required: true }] } },
    execute: base.execute
  }))
})
afterAll(async () => {
  await Promise.all([server, bare, small, secured, extended].map((s) => s.close()))
})

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: any
}

const call = async (target: OurRestServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })
  const text = await response.text()
  let json: unknown
  try {
    json = text === "" ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

interface Frame {
  readonly id?: string
  readonly event?: string
  readonly data: any
}

/** The SSE frames of a whole (ending) stream. */
const frames = (text: string): Array<Frame> =>
  text.split("\n\n").filter((block) => block.split("\n").some((l) => l.startsWith("data:"))).map((block) => {
    const lines = block.split("\n")
    const field = (name: string) => lines.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim()
    const id = field("id")
    const event = field("event")
    return { ...(id === undefined ? {} : { id }), ...(event === undefined ? {} : { event }), data: JSON.parse(field("data")!) }
  })

const plainMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }], ...extra }
})
const protoMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  request: { message_id: crypto.randomUUID(), role: "ROLE_USER", content: [{ text }], ...extra }
})

const startWaitingTask = async (): Promise<string> => {
  const answer = await call(server, "POST", "/v1/message:send", { ...plainMessage("wait"), configuration: { blocking: false } })
  expect(answer.status).toBe(200)
  return answer.json.task.id as string
}

describe("POST /v1/message:send", () => {
  it("accepts plain A2A JSON and answers the protobuf JSON form", async () => {
    const answer = await call(server, "POST", "/v1/message:send", plainMessage("hello"))
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/)
    expect(answer.json.task.status).toMatchObject({ state: "TASK_STATE_COMPLETED", message: { role: "ROLE_AGENT", content: [{ text: "echo: hello" }] } })
    expect(answer.json.task.history[0]).toMatchObject({ role: "ROLE_USER", content: [{ text: "hello" }] })
  })

  it("accepts the protobuf mapping in snake_case and continues a task by `task_id`", async () => {
    const first = await call(server, "POST", "/v1/message:send", protoMessage("ask"))
    expect(first.json.task.status.state).toBe("TASK_STATE_INPUT_REQUIRED")
    const { id, contextId } = first.json.task
    const second = await call(server, "POST", "/v1/message:send", protoMessage("blue", { task_id: id, context_id: contextId }))
    expect(second.status).toBe(200)
    expect(second.json.task).toMatchObject({ id, status: { state: "TASK_STATE_COMPLETED", message: { content: [{ text: "got: blue" }] } } })
  })

  it("answers a direct Message as `{ message }`", async () => {
    const answer = await call(server, "POST", "/v1/message:send", protoMessage("message hi"))
    expect(answer.json).toEqual({ message: expect.objectContaining({ role: "ROLE_AGENT", content: [{ text: "echo: hi" }] }) })
  })

  it("refuses invalid params with 400 and a message naming the field", async () => {
    const answer = await call(server, "POST", "/v1/message:send", { message: { role: "ROLE_USER", content: [{ text: "x" }] } })
    expect(answer.status).toBe(400)
    expect(answer.json).toMatchObject({ code: -32602, message: expect.stringMatching(/messageId/) })
  })

  it("an agent crash fails the task without a stack on the wire", async () => {
    const answer = await call(server, "POST", "/v1/message:send", plainMessage("crash"))
    expect(answer.status).toBe(200)
    expect(answer.json.task.status).toMatchObject({ state: "TASK_STATE_FAILED", message: { role: "ROLE_AGENT" } })
    expect(answer.text).not.toMatch(/rest-test-agent|\bat .*:\d+/)
  })
})

describe("POST /v1/message:stream", () => {
  it("streams `id:` + one `data:` line per event, wrapped by kind, ending with the final status", async () => {
    const response = await fetch(`${server.url}/v1/message:stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(protoMessage("stream a b"))
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/event-stream")
    const text = await response.text()
    const events = frames(text)
    expect(events.map((f) => Object.keys(f.data)[0])).toEqual(["task", "statusUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate"])
    expect(events.map((f) => Number(f.id))).toEqual([1, 2, 3, 4, 5])
    expect(events[3]!.data.artifactUpdate).toMatchObject({ append: true, lastChunk: true, artifact: { parts: [{ text: "b" }] } })
    expect(events.at(-1)!.data.statusUpdate).toMatchObject({ final: true, status: { state: "TASK_STATE_COMPLETED" } })
    for (const block of text.split("\n\n").filter((b) => b !== "")) {
      expect(block.split("\n").filter((l) => l.startsWith("data:"))).toHaveLength(1)
    }
  })

  it("answers a refused stream with an HTTP error, not an empty stream", async () => {
    const off = await call(bare, "POST", "/v1/message:stream", plainMessage("stream a"))
    expect(off.status).toBe(400)
    expect(off.json).toMatchObject({ code: -32004 })
    const invalid = await call(server, "POST", "/v1/message:stream", { message: {} })
    expect(invalid.status).toBe(400)
    expect(invalid.json.code).toBe(-32602)
  })
})

describe("tasks", () => {
  it("GET /v1/tasks/{id} honours historyLength in either spelling and refuses a bad one", async () => {
    const sent = await call(server, "POST", "/v1/message:send", plainMessage("hello"))
    const id = sent.json.task.id as string
    const all = await call(server, "GET", `/v1/tasks/${id}`)
    expect(all.json.history).toHaveLength(2)
    expect((await call(server, "GET", `/v1/tasks/${id}?historyLength=1`)).json.history).toHaveLength(1)
    expect((await call(server, "GET", `/v1/tasks/${id}?history_length=1`)).json.history).toHaveLength(1)
    for (const bad of ["-1", "x", "1.5"]) {
      const answer = await call(server, "GET", `/v1/tasks/${id}?historyLength=${bad}`)
      expect(answer.status, bad).toBe(400)
      expect(answer.json.code).toBe(-32602)
    }
    expect(await call(server, "GET", "/v1/tasks/no-such-task")).toMatchObject({ status: 404, json: { code: -32001 } })
  })

  it("POST /v1/tasks/{id}:cancel: 200 with the canceled task, 409 the second time, 404 when unknown", async () => {
    const id = await startWaitingTask()
    const canceled = await call(server, "POST", `/v1/tasks/${id}:cancel`)
    expect(canceled.status).toBe(200)
    expect(canceled.json).toMatchObject({ id, status: { state: "TASK_STATE_CANCELLED" } })
    expect(await call(server, "POST", `/v1/tasks/${id}:cancel`, { name: `tasks/${id}` })).toMatchObject({ status: 409, json: { code: -32002 } })
    expect(await call(server, "POST", "/v1/tasks/nope:cancel")).toMatchObject({ status: 404, json: { code: -32001 } })
  })

  it("GET and POST /v1/tasks/{id}:subscribe: the Task first, then live events until the final one", async () => {
    for (const method of ["GET", "POST"]) {
      const id = await startWaitingTask()
      const response = await fetch(`${server.url}/v1/tasks/${id}:subscribe`, { method })
      expect(response.headers.get("content-type")).toBe("text/event-stream")
      const reader = response.body!.getReader()
      const first = await reader.read()
      expect(new TextDecoder().decode(first.value)).toContain(`"task":{"id":"${id}"`)
      await call(server, "POST", `/v1/tasks/${id}:cancel`)
      let rest = ""
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        rest += new TextDecoder().decode(value)
      }
      expect(frames(rest).at(-1)!.data.statusUpdate).toMatchObject({ final: true, status: { state: "TASK_STATE_CANCELLED" } })
    }
    expect(await call(server, "POST", "/v1/tasks/nope:subscribe")).toMatchObject({ status: 404, json: { code: -32001 } })
  })
})

describe("push notification configs", () => {
  it("create in either form, read, list, delete (204), list empty", async () => {
    const id = (await call(server, "POST", "/v1/message:send", plainMessage("hello"))).json.task.id as string
    const base = `/v1/tasks/${id}/pushNotificationConfigs`
    const created = await call(server, "POST", base, { parent: `tasks/${id}`, config_id: "c1", config: { push_notification_config: { url: "http://127.0.0.1:9/hook-1", token: "t" } } })
    expect(created.status).toBe(200)
    expect(created.json).toEqual({ name: `tasks/${id}/pushNotificationConfigs/c1`, pushNotificationConfig: { id: "c1", url: "http://127.0.0.1:9/hook-1", token: "t" } })
    const plain = await call(server, "POST", base, { taskId: id, pushNotificationConfig: { id: "c2", url: "http://127.0.0.1:9/hook-2" } })
    expect(plain.json.name).toBe(`tasks/${id}/pushNotificationConfigs/c2`)
    expect((await call(server, "GET", `${base}/c1`)).json.pushNotificationConfig.url).toBe("http://127.0.0.1:9/hook-1")
    expect((await call(server, "GET", base)).json.configs.map((c: any) => c.pushNotificationConfig.id)).toEqual(["c1", "c2"])
    const deleted = await call(server, "DELETE", `${base}/c1`)
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe("")
    await call(server, "DELETE", `${base}/c2`)
    expect((await call(server, "GET", base)).json).toEqual({ configs: [] })
  })

  it("refuses a body naming another task, an unknown task, and push while it is off", async () => {
    const id = (await call(server, "POST", "/v1/message:send", plainMessage("hello"))).json.task.id as string
    const other = await call(server, "POST", `/v1/tasks/${id}/pushNotificationConfigs`, { taskId: "someone-else", pushNotificationConfig: { url: "http://127.0.0.1:9/x" } })
    expect(other).toMatchObject({ status: 400, json: { code: -32602 } })
    expect(await call(server, "GET", "/v1/tasks/nope/pushNotificationConfigs")).toMatchObject({ status: 404, json: { code: -32001 } })
    expect(await call(bare, "GET", `/v1/tasks/${id}/pushNotificationConfigs`)).toMatchObject({ status: 400, json: { code: -32003 } })
  })
})

describe("GET /v1/card", () => {
  it("is 404 with -32007 when no extended card is configured", async () => {
    expect(await call(server, "GET", "/v1/card")).toMatchObject({ status: 404, json: { code: -32007 } })
  })
})

describe("malformed, oversized and hostile requests", () => {
  it("bad JSON, an empty body, non-UTF-8 bytes: 400 with a JSON error body and no stack", async () => {
    for (const body of ["{bad", "[1,", "\u0000"]) {
      const answer = await call(server, "POST", "/v1/message:send", body)
      expect(answer.status, body).toBe(400)
      expect(answer.json.code).toBe(-32700)
      expect(answer.text).not.toMatch(/at .*\.ts|SyntaxError/)
    }
    expect(await call(server, "POST", "/v1/message:send", "")).toMatchObject({ status: 400, json: { code: -32602 } })
    const bytes = await fetch(`${server.url}/v1/message:send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])
    })
    expect(bytes.status).toBe(400)
    expect(await bytes.json()).toMatchObject({ code: -32700 })
  })

  it("JSON that is not an object, or deeply nested: 400, never 500", async () => {
    for (const body of ["null", "42", "\"text\"", "[]", `${"[".repeat(5_000)}${"]".repeat(5_000)}`]) {
      const answer = await call(server, "POST", "/v1/message:send", body)
      expect(answer.status, body.slice(0, 10)).toBe(400)
      expect(answer.json.code).toBe(-32602)
    }
    const deep = `{"message":{"messageId":"m","role":"ROLE_USER","content":[{"data":{"data":${"{\"a\":".repeat(3_000)}1${"}".repeat(3_000)}}}]}}`
    const answer = await call(server, "POST", "/v1/message:send", deep)
    expect([200, 400]).toContain(answer.status)
  })

  it("a body over the limit is refused with 413 before it is parsed", async () => {
    const answer = await call(small, "POST", "/v1/message:send", plainMessage("x".repeat(4_096)))
    expect(answer.status).toBe(413)
    expect(answer.json).toMatchObject({ code: -32600, message: expect.stringMatching(/limit/) })
  })

  it("`__proto__` keys neither pollute nor crash", async () => {
    const body = `{"__proto__":{"polluted":true},"message":{"__proto__":{"role":"user"},"messageId":"m","role":"ROLE_USER","content":[{"text":"hi"}]}}`
    const answer = await call(server, "POST", "/v1/message:send", body)
    expect(answer.status).toBe(200)
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })

  it("unknown paths are 404, known paths with another method 405 with Allow, broken encoding 400", async () => {
    expect(await call(server, "GET", "/v1/nothing")).toMatchObject({ status: 404, json: { code: -32601 } })
    expect(await call(server, "GET", "/v1/tasks")).toMatchObject({ status: 404, json: { code: -32601 } })
    const wrong = await call(server, "GET", "/v1/message:send")
    expect(wrong).toMatchObject({ status: 405, json: { code: -32601 } })
    expect(wrong.headers.get("allow")).toBe("POST")
    // The router itself may refuse a path it cannot decode before the binding sees it: never a 5xx.
    const broken = await call(server, "GET", "/v1/tasks/%E0%A4%A")
    expect([400, 404]).toContain(broken.status)
  })
})

describe("authentication and extensions (shared with JSON-RPC)", () => {
  it("refuses a caller without credentials with 401, WWW-Authenticate and a REST error body", async () => {
    const refused = await call(secured, "POST", "/v1/message:send", plainMessage("hello"))
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({ code: expect.any(Number), message: expect.any(String) })
    expect(refused.json.jsonrpc).toBeUndefined()
    const accepted = await call(secured, "POST", "/v1/message:send", plainMessage("hello"), { "x-api-key": apiKey })
    expect(accepted.status).toBe(200)
  })

  it("a required extension must be activated, and activated ones are echoed", async () => {
    const refused = await call(extended, "POST", "/v1/message:send", plainMessage("hello"))
    expect(refused).toMatchObject({ status: 400, json: { code: -32600, message: expect.stringContaining(requiredExtension) } })
    const accepted = await call(extended, "POST", "/v1/message:send", plainMessage("hello"), { "x-a2a-extensions": requiredExtension })
    expect(accepted.status).toBe(200)
    expect(accepted.headers.get("x-a2a-extensions")).toBe(requiredExtension)
  })
})
