import { asObject, check, equal, expectEnvelope, expectRpcError, expectRpcResult, show, type JsonObject } from "./assert.ts"
import { scenario, type Scenario, type ScenarioContext } from "./harness.ts"
import type { HttpReply } from "./http-client.ts"

/**
 * A reply that is a JSON-RPC response: HTTP 200, or a 4xx carrying a JSON-RPC error body.
 * Never a 5xx, HTML, or an empty body.
 */
const expectWellFormed = (reply: HttpReply, where: string): JsonObject => {
  check(reply.status === 200 || (reply.status >= 400 && reply.status < 500), `${where}: expected HTTP 200 or 4xx, got ${reply.status}`)
  check(reply.parseError === undefined, `${where}: HTTP ${reply.status} body is not JSON (${reply.contentType}): ${show(reply.text, 200)}`)
  const env = expectEnvelope(reply.body, where)
  if (reply.status !== 200) check("error" in env, `${where}: a ${reply.status} reply must carry a JSON-RPC error`)
  return env
}

/** Proves the server still serves a valid request after a hostile one. */
const expectAlive = async (t: ScenarioContext, where: string): Promise<void> => {
  expectRpcError(await t.rpc("tasks/get", { id: `alive-${crypto.randomUUID()}` }), -32001, { where: `${where}: follow-up valid request` })
}

const validGet = JSON.stringify({ jsonrpc: "2.0", id: "ct-1", method: "tasks/get", params: { id: "no-such-task" } })

/** Bodies that are not JSON-RPC requests, odd content types, hostile sizes and encodings. */
export const malformedScenarios: ReadonlyArray<Scenario> = [
  scenario("malformed: a body that is not JSON is -32700 with HTTP 200 and id null", async (t) => {
    expectRpcError(await t.raw('{"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {'), -32700, { id: null })
  }),

  scenario("malformed: an empty body is -32700", async (t) => {
    expectRpcError(await t.raw(""), -32700, { id: null })
  }),

  scenario("malformed: NaN and Infinity tokens are not JSON: -32700", async (t) => {
    expectRpcError(await t.raw('{"jsonrpc":"2.0","id":NaN,"method":"tasks/get","params":{"id":Infinity}}'), -32700, { id: null })
  }),

  scenario("malformed: a JSON scalar or null body is -32600 with id null", async (t) => {
    for (const body of ["42", '"tasks/get"', "null", "true"]) {
      expectRpcError(await t.raw(body), -32600, { id: null, where: `body ${body}` })
    }
  }),

  scenario("malformed: a batch array gets a well-formed JSON-RPC reply", async (t) => {
    const batch = JSON.stringify([JSON.parse(validGet), { jsonrpc: "2.0", id: "b2", method: "nope/nope" }])
    const reply = await t.raw(batch)
    check(reply.status === 200 || (reply.status >= 400 && reply.status < 500), `expected HTTP 200 or 4xx, got ${reply.status}`)
    if (Array.isArray(reply.body)) {
      for (const [i, r] of reply.body.entries()) expectEnvelope(r, `batch reply[${i}]`)
    } else {
      const env = expectWellFormed(reply, "batch")
      check("error" in env, `a batch that is not processed must be answered with an error, got ${show(env)}`)
    }
  }),

  scenario("malformed: a body not sent as JSON (text/plain, a form, none) is refused with HTTP 415 and a JSON-RPC error", async (t) => {
    // What a Web page can post across origins without asking: refused before it is read.
    for (const contentType of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b", null]) {
      const where = contentType ?? "no content type"
      const reply = await t.raw(new TextEncoder().encode(validGet), contentType)
      check(reply.status === 415, `${where}: expected HTTP 415, got ${reply.status}: ${show(reply.text, 200)}`)
      expectRpcError(reply, -32600, { id: null, statuses: [415], where })
    }
  }),

  scenario("malformed: every JSON media type is read: application/json with a charset, application/a2a+json", async (t) => {
    for (const contentType of ["application/json; charset=utf-8", "application/a2a+json", "application/json;charset=UTF-8"]) {
      const env = expectWellFormed(await t.raw(validGet, contentType), contentType)
      check(env.id === "ct-1", `${contentType}: the request should be answered, got ${show(env)}`)
    }
  }),

  scenario("malformed: a body over 10 MiB is refused with a JSON-RPC error and the server survives", async (t) => {
    const filler = "a".repeat(10 * 1024 * 1024 + 4096)
    const body = `{"jsonrpc":"2.0","id":"huge","method":"message/send","params":{"configuration":{"blocking":false},"message":{"kind":"message","role":"user","messageId":"${crypto.randomUUID()}","parts":[{"kind":"text","text":"${filler}"}]}}}`
    const reply = await t.raw(body, "application/json", { timeoutMs: Math.max(t.timeoutMs, 30_000) })
    const env = expectWellFormed(reply, "oversized body")
    check("error" in env, `an oversized body must be refused, got a result: ${show(env.result)}`)
    check(env.id === "huge" || env.id === null, `id should be "huge" or null, got ${show(env.id)}`)
    if (reply.status !== 413) {
      check(reply.status === 200, `expected HTTP 413 or 200, got ${reply.status}`)
      equal(asObject(env.error, "error").code, -32600, "error code of an oversized body answered with HTTP 200")
    }
    await expectAlive(t, "after the oversized body")
  }),

  scenario("malformed: 100k nested arrays get a well-formed reply and the server survives", async (t) => {
    const depth = 100_000
    const body = `{"jsonrpc":"2.0","id":"deep","method":"tasks/get","params":{"id":"x","metadata":{"n":${"[".repeat(depth)}${"]".repeat(depth)}}}}`
    expectWellFormed(await t.raw(body), "deep nesting")
    await expectAlive(t, "after deep nesting")
  }),

  scenario("malformed: 10k nested arrays in a message's metadata get a well-formed reply, never a server error", async (t) => {
    const depth = 10_000
    const message = JSON.stringify(t.message()).replace(/}$/, `,"metadata":{"n":${"[".repeat(depth)}${"]".repeat(depth)}}}`)
    const body = `{"jsonrpc":"2.0","id":"deep-metadata","method":"message/send","params":{"configuration":{"blocking":false},"message":${message}}}`
    const env = expectWellFormed(await t.raw(body), "deep metadata")
    if ("result" in env) t.cancelLater(asObject(env.result, "result").id as string)
    await expectAlive(t, "after deep metadata")
  }),

  scenario("malformed: an error never echoes a 64 KiB id in full", async (t) => {
    const id = `long-${"x".repeat(64 * 1024)}`
    const reply = await t.raw(JSON.stringify({ jsonrpc: "2.0", id: "long-id", method: "tasks/get", params: { id } }))
    const env = expectWellFormed(reply, "64 KiB task id")
    check("error" in env, `an unknown task must be an error, got ${show(env.result)}`)
    check(reply.text.length < 16 * 1024, `the reply is ${reply.text.length} characters long: it echoes the id`)
  }),

  scenario("malformed: invalid UTF-8 bytes get a well-formed reply and the server survives", async (t) => {
    const head = new TextEncoder().encode('{"jsonrpc":"2.0","id":"utf8","method":"tasks/get","params":{"id":"')
    const tail = new TextEncoder().encode('"}}')
    const bad = new Uint8Array([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0xf0, 0x28, 0x8c])
    const body = new Uint8Array(head.length + bad.length + tail.length)
    body.set(head, 0)
    body.set(bad, head.length)
    body.set(tail, head.length + bad.length)
    expectWellFormed(await t.raw(body), "invalid UTF-8")
    await expectAlive(t, "after invalid UTF-8")
  }),

  scenario("malformed: a UTF-8 BOM before the JSON gets a well-formed reply", async (t) => {
    expectWellFormed(await t.raw(`\uFEFF${validGet}`), "BOM")
  }),

  scenario("malformed: duplicate keys get a well-formed reply", async (t) => {
    const body = '{"jsonrpc":"2.0","id":"dup","id":"dup","method":"nope/nope","method":"tasks/get","params":{"id":"a","id":"b"}}'
    expectWellFormed(await t.raw(body), "duplicate keys")
  }),

  scenario("malformed: __proto__ and constructor keys do not pollute later requests", async (t) => {
    const polluted = '{"jsonrpc":"2.0","id":"proto","method":"message/send","params":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"configuration":{"blocking":false},"message":{"__proto__":{"isAdmin":true},"kind":"message","role":"user","messageId":"' +
      crypto.randomUUID() + '","parts":[{"kind":"text","text":"proto"}]}}}'
    const env = expectWellFormed(await t.raw(polluted), "__proto__ body")
    if ("result" in env) t.cancelLater(asObject(env.result, "result").id as string)
    const task = await t.createTask()
    const got = asObject(expectRpcResult(await t.rpc("tasks/get", { id: task.id }), "tasks/get"), "task")
    const text = JSON.stringify(got)
    check(!text.includes("polluted") && !text.includes("isAdmin"), `a later task carries polluted fields: ${show(got)}`)
    equal(({} as Record<string, unknown>).polluted, undefined, "local prototype (sanity)")
  }),

  scenario("malformed: GET on the JSON-RPC endpoint is not a server error", async (t) => {
    const reply = await t.raw("", null, { method: "GET" })
    check(reply.status < 500, `GET answered HTTP ${reply.status}`)
  })
]
