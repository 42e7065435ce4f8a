/**
 * Our REST mapping (`schemas/rest`) against the official JS SDK 0.3.14's REST server: requests we encode
 * must be understood, and everything it answers must decode, through our schemas, into the right A2A
 * values. This is what a REST client built on the mapping will meet.
 */
import { Result } from "effect"
import { createParser } from "eventsource-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { MessageSendParams, Part, StreamResult, Task } from "../../schemas/index.ts"
import { decodeRestResponse, toRest } from "../../schemas/rest/index.ts"
import { type SdkRestAgent, sdkExtendedCard, startSdkRestAgent } from "./sdk-rest/sdk-rest-agent.ts"

let sdk: SdkRestAgent

beforeAll(async () => {
  sdk = await startSdkRestAgent()
})
afterAll(() => sdk.close())

const right = <A, E>(e: Result.Result<A, E>): A => {
  if (Result.isFailure(e)) throw new Error(`did not decode: ${String(e.failure)}`)
  return e.success
}

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sdk.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? undefined : (JSON.parse(text) as unknown) }
}

/**
 * The `data:` payloads of an SSE answer. `onFirst` runs once the first event has arrived, while the stream
 * is still open (to act on a live subscription without sleeping).
 */
const sse = async (method: string, path: string, body?: unknown, onFirst?: () => Promise<unknown>) => {
  const response = await fetch(`${sdk.url}${path}`, {
    method,
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
  const events: Array<unknown> = []
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) })
  const decoder = new TextDecoder()
  let first = onFirst
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }))
    if (first !== undefined && events.length > 0) {
      const act = first
      first = undefined
      await act()
    }
  }
  return events
}

const userText = (text: string, extra: Partial<MessageSendParams> = {}): MessageSendParams => ({
  message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }] },
  ...extra
})

const send = async (params: MessageSendParams) => {
  const answer = await call("POST", "/v1/message:send", toRest.sendMessageRequest(params))
  expect(answer.status).toBeLessThan(300)
  return right(decodeRestResponse.sendResponse(answer.json))
}

const asTask = (r: StreamResult): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}

describe("our REST mapping against the JS SDK 0.3.14 REST server", () => {
  it("message:send: a completed Task (its status message and history decode), or a direct Message", async () => {
    const task = asTask(await send(userText("hello there")))
    expect(task.status).toMatchObject({ state: "completed", message: { role: "agent", parts: [{ kind: "text", text: "echo: hello there" }] } })
    expect(task.history?.[0]).toMatchObject({ role: "user", parts: [{ kind: "text", text: "hello there" }] })
    expect(await send(userText("message hi"))).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "echo: hi" }] })
  })

  it("every part kind survives the SDK's protobuf conversion both ways", async () => {
    const parts: Array<Part> = [
      { kind: "text", text: "parts" },
      { kind: "file", file: { uri: "https://example.com/a.png", mimeType: "image/png" } },
      { kind: "file", file: { bytes: "aGVsbG8=", mimeType: "application/octet-stream" } },
      { kind: "data", data: { answer: 42, nested: { ok: true } } }
    ]
    const task = asTask(await send({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts } }))
    expect(task.artifacts?.[0]?.parts).toEqual(parts)
  })

  it("message:stream: every `data:` decodes, in order, and the last is the final status", async () => {
    const events = await sse("POST", "/v1/message:stream", toRest.sendMessageRequest(userText("stream one two three")))
    const decoded = events.map((e) => right(decodeRestResponse.streamResponse(e)))
    expect(decoded.map((e) => e.kind)).toEqual(["task", "status-update", "artifact-update", "artifact-update", "artifact-update", "status-update"])
    const chunks = decoded.flatMap((e) => (e.kind === "artifact-update" ? e.artifact.parts.map((p) => (p.kind === "text" ? p.text : "")) : []))
    expect(chunks).toEqual(["one", "two", "three"])
    expect(decoded.at(-1)).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } })
    // The SDK leaves `final: false` out (the protobuf default); it must read back as false, not as missing.
    expect(decoded[1]).toMatchObject({ kind: "status-update", final: false, status: { state: "working" } })
  })

  it("tasks: get (with historyLength), cancel, and a second cancel's error", async () => {
    const started = asTask(await send(userText("wait", { configuration: { blocking: false } })))
    const got = await call("GET", `/v1/tasks/${started.id}?historyLength=1`)
    expect(right(decodeRestResponse.task(got.json))).toMatchObject({ id: started.id, status: { state: "working" } })
    const canceled = await call("POST", `/v1/tasks/${started.id}:cancel`)
    expect(right(decodeRestResponse.task(canceled.json)).status.state).toBe("canceled")
    const again = await call("POST", `/v1/tasks/${started.id}:cancel`)
    expect(again).toMatchObject({ status: 409, json: { code: -32002 } })
    expect(await call("GET", "/v1/tasks/no-such-task")).toMatchObject({ status: 404, json: { code: -32001 } })
  })

  it("tasks/{id}:subscribe: the Task first, then the final status once canceled", async () => {
    const started = asTask(await send(userText("wait", { configuration: { blocking: false } })))
    const events = await sse("POST", `/v1/tasks/${started.id}:subscribe`, undefined, () => call("POST", `/v1/tasks/${started.id}:cancel`))
    const decoded = events.map((e) => right(decodeRestResponse.streamResponse(e)))
    expect(decoded[0]?.kind).toBe("task")
    expect(decoded.at(-1)).toMatchObject({ kind: "status-update", final: true, status: { state: "canceled" } })
  })

  it("push configs: our creation request is the one the SDK server reads; its answers decode", async () => {
    const task = asTask(await send(userText("hello")))
    const config = { taskId: task.id, pushNotificationConfig: { id: "cfg-1", url: "https://hooks.example.com/a2a", token: "tok" } }
    const created = await call("POST", `/v1/tasks/${task.id}/pushNotificationConfigs`, toRest.createPushConfigRequest(config))
    expect(created.status).toBe(201)
    expect(right(decodeRestResponse.taskPushConfig(created.json))).toEqual(config)
    const got = await call("GET", `/v1/tasks/${task.id}/pushNotificationConfigs/cfg-1`)
    expect(right(decodeRestResponse.taskPushConfig(got.json))).toEqual(config)
    const listed = await call("GET", `/v1/tasks/${task.id}/pushNotificationConfigs`)
    expect(right(decodeRestResponse.pushConfigList(listed.json))).toEqual([config])
    expect((await call("DELETE", `/v1/tasks/${task.id}/pushNotificationConfigs/cfg-1`)).status).toBe(204)
    expect(right(decodeRestResponse.pushConfigList((await call("GET", `/v1/tasks/${task.id}/pushNotificationConfigs`)).json))).toEqual([])
  })

  it("GET /v1/card: the SDK's protobuf card, security schemes and requirements included, decodes to the A2A card", async () => {
    const answer = await call("GET", "/v1/card")
    expect(answer.status).toBe(200)
    const card = right(decodeRestResponse.card(answer.json))
    expect(card).toMatchObject({
      name: sdkExtendedCard.name,
      securitySchemes: sdkExtendedCard.securitySchemes,
      security: sdkExtendedCard.security,
      capabilities: { streaming: true, pushNotifications: true }
    })
  })

  it("the SDK's error body is `{ code, message }` with the catalogue's HTTP status", async () => {
    const invalid = await call("POST", "/v1/message:send", { message: { role: "ROLE_USER", content: [{ text: "x" }] } })
    expect(invalid).toMatchObject({ status: 400, json: { code: -32602, message: expect.any(String) } })
  })
})
