/**
 * A2A 1.0 on the JSON-RPC endpoint (through the Web handler): the version negotiated per request, 1.0
 * payloads in and out, 1.0 errors, and 1.0's own semantics where they differ from 0.3's.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Agent } from "../../agent/agent.ts"
import { messageText } from "../../agent/messages.ts"
import { A2AServer, type A2AServerHandle } from "../a2a-server.ts"
import { v1Call, v1Text } from "../../../testing/server/v1-call.ts"
import { textMessage, wireCall } from "../../../testing/server/wire-call.ts"

const REQUIRED = "https://example.com/ext/required/v1"

const agent = (required = false) =>
  Agent.make({
    card: {
      name: "1.0 test agent",
      description: "Completes, holds or streams.",
      version: "1.0.0",
      capabilities: { streaming: true, extensions: required ? [{ uri: REQUIRED, required: true }] : [] },
      defaultInputModes: ["text/plain", "application/json"],
      defaultOutputModes: ["text/plain"],
      skills: []
    },
    onReturn: "keep",
    execute: (ctx) =>
      Effect.gen(function*() {
        const text = messageText(ctx.message)
        if (text === "hold") return yield* ctx.working()
        if (text === "ask") return yield* ctx.requestInput("which one?")
        yield* ctx.artifact([{ kind: "text", text: "chunk" }, { kind: "data", data: { value: [1, 2] }, metadata: { data_part_compat: true } }])
        yield* ctx.complete(`done: ${text}`)
      })
  })

let server: A2AServerHandle
let strict: A2AServerHandle
beforeAll(async () => {
  server = await A2AServer.make(agent())
  strict = await A2AServer.make(agent(true))
})
afterAll(async () => {
  await Promise.all([server?.dispose(), strict?.dispose()])
})

const errorInfo = (reason: string) => ({ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "a2a-protocol.org" })

describe("version negotiation on JSON-RPC", () => {
  it("serves 1.0 under A2A-Version 1.0 (and 1.0.x, and the query parameter), 0.3 without it, on one URL", async () => {
    for (const options of [{}, { headers: { "a2a-version": "1.0.1" } }, { url: "http://127.0.0.1/?A2A-Version=1.0", headers: { "a2a-version": "" } }]) {
      const answer = await v1Call(server.handler, "SendMessage", v1Text("hi"), options)
      expect(answer.body.result.task).toMatchObject({ status: { state: "TASK_STATE_COMPLETED" } })
      expect(JSON.stringify(answer.body)).not.toMatch(/"kind"/)
    }
    const old = await wireCall(server.handler, "message/send", textMessage("hi"))
    expect(old.body.result).toMatchObject({ kind: "task", status: { state: "completed" } })
    const pinned = await wireCall(server.handler, "message/send", textMessage("hi"), { headers: { "a2a-version": "0.3" } })
    expect(pinned.body.result.kind).toBe("task")
  })

  it("refuses another version with -32009 in the shape of the method's version", async () => {
    const v1 = await wireCall(server.handler, "SendMessage", v1Text("hi"), { headers: { "a2a-version": "2.0" } })
    expect(v1.status).toBe(200)
    expect(v1.body.error).toMatchObject({ code: -32009, message: expect.stringContaining("2.0"), data: [errorInfo("VERSION_NOT_SUPPORTED")] })
    const v03 = await wireCall(server.handler, "message/send", textMessage("hi"), { headers: { "a2a-version": "0.2" } })
    expect(v03.body.error).toMatchObject({ code: -32009 })
    expect(v03.body.error.data).toBeUndefined()
  })

  it("names the version when a request's method belongs to the other one", async () => {
    const bare = await wireCall(server.handler, "SendMessage", v1Text("hi"))
    expect(bare.body.error).toMatchObject({ code: -32601, message: expect.stringMatching(/A2A 1\.0 method.*A2A-Version: 1\.0/) })
    const crossed = await v1Call(server.handler, "message/send", textMessage("hi"))
    expect(crossed.body.error).toMatchObject({ code: -32601, message: expect.stringMatching(/A2A 0\.3 method.*asked for A2A 1\.0/) })
  })

  it("refuses 0.3-shaped params under 1.0 with -32602 naming 1.0", async () => {
    const answer = await v1Call(server.handler, "SendMessage", textMessage("hi"))
    expect(answer.body.error).toMatchObject({ code: -32602, message: expect.stringContaining("A2A 1.0") })
    expect(answer.body.error.data).toEqual([expect.objectContaining({ "@type": "type.googleapis.com/google.rpc.BadRequest" })])
  })
})

describe("1.0 payloads", () => {
  it("reads snake_case names, enum numbers and unknown fields as ProtoJSON parsers do", async () => {
    const answer = await v1Call(server.handler, "SendMessage", {
      message: { message_id: "m-snake", role: 1, parts: [{ text: "hi" }], tckUnknownField: true },
      configuration: { history_length: 2, return_immediately: false },
      tckExtraParam: 1
    })
    const history = answer.body.result.task.history
    expect(history).toHaveLength(2)
    expect(history[0]).toMatchObject({ messageId: "m-snake", role: "ROLE_USER", parts: [{ text: "hi" }] })
    expect(history[0].tckUnknownField).toBeUndefined()
  })

  it("writes 1.0 parts: data of any JSON value unwrapped, no kind, artifacts and history", async () => {
    const answer = await v1Call(server.handler, "SendMessage", v1Text("go"))
    const task = answer.body.result.task
    expect(task.artifacts[0].parts).toEqual([{ text: "chunk" }, { data: [1, 2] }])
    expect(task.status.message).toMatchObject({ role: "ROLE_AGENT", parts: [{ text: "done: go" }] })
  })

  it("historyLength 0 leaves history out; n keeps the last n; absent keeps all", async () => {
    const sent = await v1Call(server.handler, "SendMessage", v1Text("go", {}, { historyLength: 0 }))
    expect(sent.body.result.task.history).toBeUndefined()
    const id = sent.body.result.task.id
    expect((await v1Call(server.handler, "GetTask", { id, historyLength: 0 })).body.result.history).toBeUndefined()
    expect((await v1Call(server.handler, "GetTask", { id, historyLength: 1 })).body.result.history).toHaveLength(1)
    expect((await v1Call(server.handler, "GetTask", { id })).body.result.history.length).toBeGreaterThanOrEqual(1)
  })

  it("returnImmediately answers with the running task; blocking waits for an interrupted state", async () => {
    const held = await v1Call(server.handler, "SendMessage", v1Text("hold", {}, { returnImmediately: true }))
    expect(held.body.result.task.status.state).toMatch(/TASK_STATE_(SUBMITTED|WORKING)/)
    const asked = await v1Call(server.handler, "SendMessage", v1Text("ask"))
    expect(asked.body.result.task.status.state).toBe("TASK_STATE_INPUT_REQUIRED")
  })

  it("streams StreamResponse events with no kind and no final, the Task first, and ends the stream", async () => {
    const answer = await v1Call(server.handler, "SendStreamingMessage", v1Text("go"))
    const results = answer.events.map((e) => e.result)
    expect(Object.keys(results[0])).toEqual(["task"])
    expect(results.map((r) => Object.keys(r)[0])).toContain("artifactUpdate")
    expect(results.at(-1).statusUpdate.status.state).toBe("TASK_STATE_COMPLETED")
    expect(JSON.stringify(results)).not.toMatch(/"kind"|"final"/)
  })
})

describe("1.0 semantics and errors", () => {
  it("a message to a terminal task is -32004 (0.3: -32602), with ErrorInfo", async () => {
    const done = (await v1Call(server.handler, "SendMessage", v1Text("go"))).body.result.task
    const again = await v1Call(server.handler, "SendMessage", v1Text("more", { taskId: done.id }))
    expect(again.body.error).toMatchObject({ code: -32004, data: [errorInfo("UNSUPPORTED_OPERATION")] })
    const old = await wireCall(server.handler, "message/send", textMessage("more", { taskId: done.id }))
    expect(old.body.error.code).toBe(-32602)
  })

  it("SubscribeToTask on a terminal task is -32004 as plain JSON; on a live one the Task comes first", async () => {
    const done = (await v1Call(server.handler, "SendMessage", v1Text("go"))).body.result.task
    const refused = await v1Call(server.handler, "SubscribeToTask", { id: done.id })
    expect(refused.events).toEqual([])
    expect(refused.body.error).toMatchObject({ code: -32004, data: [errorInfo("UNSUPPORTED_OPERATION")] })
    const held = (await v1Call(server.handler, "SendMessage", v1Text("hold", {}, { returnImmediately: true }))).body.result.task
    const live = await v1Call(server.handler, "SubscribeToTask", { id: held.id }, { maxEvents: 1 })
    expect(live.events[0].result.task.id).toBe(held.id)
    await v1Call(server.handler, "CancelTask", { id: held.id })
  })

  it("unknown tasks are -32001 with ErrorInfo TASK_NOT_FOUND on every task operation", async () => {
    for (const [method, params] of [
      ["GetTask", { id: "nope" }],
      ["CancelTask", { id: "nope" }],
      ["SendMessage", v1Text("x", { taskId: "nope" })]
    ] as const) {
      const answer = await v1Call(server.handler, method, params)
      expect(answer.body.error, method).toMatchObject({ code: -32001, data: [errorInfo("TASK_NOT_FOUND")] })
    }
  })

  it("cancels, then refuses a second cancel with -32002", async () => {
    const held = (await v1Call(server.handler, "SendMessage", v1Text("hold", {}, { returnImmediately: true }))).body.result.task
    const canceled = await v1Call(server.handler, "CancelTask", { id: held.id })
    expect(canceled.body.result.status.state).toBe("TASK_STATE_CANCELED")
    const again = await v1Call(server.handler, "CancelTask", { id: held.id })
    expect(again.body.error).toMatchObject({ code: -32002, data: [errorInfo("TASK_NOT_CANCELABLE")] })
  })

  it("refuses a request that does not activate a required extension with -32008, and echoes A2A-Extensions", async () => {
    const refused = await v1Call(strict.handler, "SendMessage", v1Text("go"))
    expect(refused.body.error).toMatchObject({ code: -32008, message: expect.stringContaining("A2A-Extensions"), data: [errorInfo("EXTENSION_SUPPORT_REQUIRED")] })
    const accepted = await v1Call(strict.handler, "SendMessage", v1Text("go"), { headers: { "a2a-extensions": REQUIRED } })
    expect(accepted.body.result.task).toBeDefined()
    expect(accepted.headers.get("a2a-extensions")).toBe(REQUIRED)
    const legacyHeader = await v1Call(strict.handler, "SendMessage", v1Text("go"), { headers: { "x-a2a-extensions": REQUIRED } })
    expect(legacyHeader.body.result.task).toBeDefined()
    const old = await wireCall(strict.handler, "message/send", textMessage("go"))
    expect(old.body.error.code).toBe(-32600)
  })

  it("refuses a tenant the server is not addressed as", async () => {
    const answer = await v1Call(server.handler, "GetTask", { id: "t", tenant: "acme" })
    expect(answer.body.error).toMatchObject({ code: -32602, message: expect.stringContaining("acme") })
  })

  it("the extended card is UnsupportedOperation when the agent has none", async () => {
    const answer = await v1Call(server.handler, "GetExtendedAgentCard", undefined)
    expect(answer.body.error).toMatchObject({ code: -32004, data: [errorInfo("UNSUPPORTED_OPERATION")] })
  })
})
