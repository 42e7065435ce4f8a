/**
 * What a hostile request leaves in a hash-chained audit file on a real server: a record, always
 * (whatever strings the JSON carries), and never more than a bounded one (however long its fields).
 */
import { appendFile, mkdtemp, readFile, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { hashChainSink, type HashChainSink } from "../audit/hash-chain-sink.ts"
import { verifyChain } from "../audit/verify-chain.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { A2AServer } from "./a2a-server.ts"
import { testAgent } from "../../testing/server/test-agent.ts"
import { textMessage } from "../../testing/server/wire-call.ts"

const alice = { "x-api-key": "key-of-alice" }
const agent = testAgent({
  securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
  security: [{ key: [] }]
})

let dir: string
let file: string
let sink: HashChainSink
let listening: Listening

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "a2a-audit-hostile-"))
  file = join(dir, "audit.jsonl")
  sink = await Effect.runPromise(hashChainSink({ write: (line) => appendFile(file, line) }))
  const server = await A2AServer.make(agent, {
    audit: sink,
    authentication: { authenticators: { key: apiKeyAuthenticator({ keys: { "key-of-alice": { id: "alice" } } }) } }
  })
  listening = await serveNode(server)
})
afterAll(async () => {
  await listening?.close({ graceMs: 0 })
  await rm(dir, { recursive: true, force: true })
})

/** Posts a JSON-RPC body given as raw text, so it can carry escapes `JSON.stringify` would not write. */
const post = async (body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${listening.url}/`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })
  return { status: response.status, body: await response.json() as any }
}

const fileLines = async () => (await readFile(file, "utf8").catch(() => "")).split("\n").filter((l) => l !== "")
const size = async () => (await stat(file).catch(() => ({ size: 0 }))).size
const verifies = async () =>
  Effect.runPromise(verifyChain(await fileLines(), { expectedHead: await Effect.runPromise(sink.head) }))

/** Runs `act` and returns the records it appended (their parsed values) and the bytes they took. */
const appended = async (act: () => Promise<unknown>) => {
  const [before, bytesBefore] = [(await fileLines()).length, await size()]
  await act()
  const lines = (await fileLines()).slice(before)
  return { records: lines.map((l) => JSON.parse(l) as Record<string, unknown>), bytes: (await size()) - bytesBefore }
}

const message = JSON.stringify(textMessage("finish"))

describe("requests carrying lone surrogates", () => {
  it("leave their request record, with the id exactly as sent, and the chain verifies", async () => {
    const { records } = await appended(async () => {
      const answer = await post(`{"jsonrpc":"2.0","id":"\\ud800","method":"message/send","params":${message}}`, alice)
      expect(answer.body.id).toBe("\ud800")
      expect(answer.body.result.status.state).toBe("completed")
    })
    const requests = records.filter((r) => r["kind"] === "request")
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({ method: "message/send", principal: "alice", outcome: "ok", requestId: "\ud800" })
    expect(await verifies()).toMatchObject({ ok: true })
  })

  it("leave an auth-refused record when sent without credentials", async () => {
    const { records } = await appended(async () => {
      expect((await post(`{"jsonrpc":"2.0","id":1,"method":"\\ud800"}`)).status).toBe(401)
    })
    // Refused from its headers: the body, and the method in it, were never read.
    expect(records).toMatchObject([{ kind: "auth-refused", status: 401, reason: "missing_credentials" }])
    expect(records[0]).not.toHaveProperty("method")
    expect(await verifies()).toMatchObject({ ok: true })
  })

  it("leave a request record for a method that does not exist, from an authenticated caller", async () => {
    const { records } = await appended(async () => {
      expect((await post(`{"jsonrpc":"2.0","id":"\\udfff","method":"\\ud800x"}`, alice)).body.error.code).toBe(-32601)
    })
    expect(records).toMatchObject([
      { kind: "request", method: "\ud800x", principal: "alice", outcome: "error", errorCode: -32601, requestId: "\udfff" }
    ])
    // The file holds the escape, not a replacement character: the record is exact.
    expect((await fileLines()).at(-1)).toContain('"method":"\\ud800x"')
    expect(await verifies()).toMatchObject({ ok: true })
  })
})

describe("requests with huge fields", () => {
  const huge = "m".repeat(5_000_000)
  const clipped = (text: string) => `${text.slice(0, 256)}…[clipped, ${text.length} chars]`

  it("a 5,000,000-character method without credentials adds one small auth-refused record", async () => {
    const { records, bytes } = await appended(async () => {
      expect((await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: huge }))).status).toBe(401)
    })
    expect(records).toMatchObject([{ kind: "auth-refused", status: 401 }])
    expect(records[0]).not.toHaveProperty("method")
    expect(bytes).toBeLessThan(1_000)
    expect(await verifies()).toMatchObject({ ok: true })
  })

  it("an authenticated caller's huge method is clipped in the request record; an id over its bound is recorded as null", async () => {
    const { records, bytes } = await appended(async () => {
      expect((await post(JSON.stringify({ jsonrpc: "2.0", id: "i".repeat(256), method: huge }), alice)).body.error.code).toBe(-32601)
      expect((await post(JSON.stringify({ jsonrpc: "2.0", id: "i".repeat(100_000), method: huge }), alice)).body.error.code).toBe(-32600)
    })
    expect(records).toMatchObject([
      { kind: "request", method: clipped(huge), requestId: "i".repeat(256), errorCode: -32601 },
      { kind: "request", method: clipped(huge), requestId: null, errorCode: -32600 }
    ])
    expect(bytes).toBeLessThan(3_000)
  })

  it("a huge task id is refused and leaves a bounded record, on both bindings", async () => {
    const taskId = "t".repeat(50_000)
    const rpc = await appended(() => post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/get", params: { id: taskId } }), alice))
    expect(rpc.records).toMatchObject([{ kind: "request", method: "tasks/get", errorCode: -32602 }])
    const pathId = "p".repeat(4_000)
    const rest = await appended(() => fetch(`${listening.url}/v1/tasks/${pathId}`, { headers: alice }).then((r) => r.text()))
    expect(rest.records).toMatchObject([{ kind: "request", method: "tasks/get", errorCode: -32602 }])
    expect(rpc.bytes + rest.bytes).toBeLessThan(2_000)
    expect(await verifies()).toMatchObject({ ok: true })
  })

  it("a clip never splits a surrogate pair", async () => {
    const emoji = `${"a".repeat(255)}\u{1F600}${"b".repeat(300)}`
    const { records } = await appended(() => post(JSON.stringify({ jsonrpc: "2.0", id: 3, method: emoji }), alice))
    expect(records[0]!["method"]).toBe(`${"a".repeat(255)}…[clipped, ${emoji.length} chars]`)
  })
})
