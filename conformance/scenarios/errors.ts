import { asObject, check, expectRpcError, show } from "./assert.ts"
import { scenario, type Scenario, type ScenarioContext } from "./harness.ts"

const envelope = (fields: Record<string, unknown>): string => JSON.stringify(fields)

/** Sends message/send with a message built by `edit` and expects -32602. */
const invalidMessage = (name: string, edit: (m: Record<string, unknown>) => void): Scenario =>
  scenario(name, async (t: ScenarioContext) => {
    const message = t.message()
    edit(message)
    expectRpcError(await t.rpc("message/send", t.sendParams(message)), -32602)
  })

/** JSON-RPC envelope errors and parameter validation, each with the id echo rules. */
export const errorScenarios: ReadonlyArray<Scenario> = [
  scenario("errors: jsonrpc \"1.0\" is -32600 echoing the id", async (t) => {
    const body = envelope({ jsonrpc: "1.0", id: "v1-id", method: "tasks/get", params: { id: "x" } })
    expectRpcError(await t.raw(body), -32600, { id: "v1-id" })
  }),

  scenario("errors: a missing jsonrpc member is -32600 echoing the id", async (t) => {
    expectRpcError(await t.raw(envelope({ id: 9, method: "tasks/get", params: { id: "x" } })), -32600, { id: 9 })
  }),

  scenario("errors: a request without method is -32600 echoing the id", async (t) => {
    expectRpcError(await t.raw(envelope({ jsonrpc: "2.0", id: "no-method", params: {} })), -32600, { id: "no-method" })
  }),

  scenario("errors: a non-string method is -32600", async (t) => {
    expectRpcError(await t.raw(envelope({ jsonrpc: "2.0", id: "num-method", method: 17 })), -32600, { id: "num-method" })
  }),

  scenario("errors: an id of a wrong type (object, boolean, array) is -32600 with id null", async (t) => {
    for (const id of [{ nested: 1 }, true, [1, 2]]) {
      const body = envelope({ jsonrpc: "2.0", id, method: "tasks/get", params: { id: "x" } })
      expectRpcError(await t.raw(body), -32600, { id: null, where: `id ${JSON.stringify(id)}` })
    }
  }),

  scenario("errors: a string id over 256 characters is -32600 with id null, never echoed (unary and streaming)", async (t) => {
    const long = `id-${"x".repeat(100_000)}`
    const unary = await t.raw(envelope({ jsonrpc: "2.0", id: long, method: "tasks/get", params: { id: "x" } }))
    expectRpcError(unary, -32600, { id: null, where: "tasks/get" })
    check(unary.text.length < 2_000, `tasks/get: the answer should not carry the id, got ${unary.text.length} characters`)
    const handle = await t.stream("message/stream", { message: t.message() }, { id: long })
    const text = await handle.session.readText()
    check(!text.includes("xxxxxxxx"), "message/stream: the answer repeats the refused id")
    check(text.includes("-32600"), `message/stream: expected a -32600 error, got ${show(text, 300)}`)
  }),

  scenario("errors: an unknown method is -32601 echoing the id", async (t) => {
    expectRpcError(await t.rpc("tasks/doesNotExist", {}, { id: "unknown-method" }), -32601)
    expectRpcError(await t.rpc("message/send/extra", {}, { id: 5 }), -32601, { where: "near-miss method name" })
  }),

  scenario("errors: an invalid notification (no id) still gets an error reply with id null", async (t) => {
    expectRpcError(await t.rpc("tasks/doesNotExist", {}, { notification: true }), -32601, { id: null })
    const message = t.message()
    delete message.messageId
    const params = t.sendParams(message)
    expectRpcError(await t.rpc("message/send", params, { notification: true }), -32602, { id: null, where: "invalid params" })
  }),

  scenario("errors: params that are not an object are -32602", async (t) => {
    expectRpcError(await t.rpc("message/send", "just a string"), -32602, { where: "string params" })
    expectRpcError(await t.rpc("tasks/get", ["positional"]), -32602, { where: "array params" })
  }),

  scenario("errors: message/send without a message is -32602", async (t) => {
    expectRpcError(await t.rpc("message/send", { configuration: { blocking: false } }), -32602)
  }),

  invalidMessage("errors: a message without messageId is -32602", (m) => {
    delete m.messageId
  }),

  invalidMessage("errors: a message without role is -32602", (m) => {
    delete m.role
  }),

  invalidMessage("errors: a message with an unknown role is -32602", (m) => {
    m.role = "system"
  }),

  invalidMessage("errors: a message without parts is -32602", (m) => {
    delete m.parts
  }),

  invalidMessage("errors: a message with empty parts is -32602", (m) => {
    m.parts = []
  }),

  invalidMessage("errors: a file part with both bytes and uri is -32602", (m) => {
    m.parts = [{ kind: "file", file: { bytes: "aGk=", uri: "https://example.com/f", mimeType: "text/plain" } }]
  }),

  invalidMessage("errors: a file part with neither bytes nor uri is -32602", (m) => {
    m.parts = [{ kind: "file", file: { mimeType: "text/plain", name: "empty.txt" } }]
  }),

  invalidMessage("errors: a text part whose text is not a string is -32602", (m) => {
    m.parts = [{ kind: "text", text: 42 }]
  }),

  invalidMessage("errors: a part without kind is -32602", (m) => {
    m.parts = [{ text: "no kind" }]
  }),

  invalidMessage("errors: a part with an unknown kind is -32602", (m) => {
    m.parts = [{ kind: "image", text: "unknown kind" }]
  }),

  scenario("errors: with streaming off, message/stream and tasks/resubscribe are -32004", async (t) => {
    const caps = asObject((await t.card()).capabilities, "capabilities")
    if (caps.streaming === true) t.skip("capabilities.streaming is true (the stream scenarios apply)")
    expectRpcError(await t.rpc("message/stream", { message: t.message() }), -32004, { where: "message/stream" })
    expectRpcError(await t.rpc("tasks/resubscribe", { id: "x" }), -32004, { where: "tasks/resubscribe" })
  })
]
