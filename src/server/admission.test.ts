/**
 * The shared request path before a body is read, on real sockets (Node, fast path and Web handler):
 * unauthenticated uploads are refused from their headers and never taken in, the bytes of bodies in flight
 * are bounded across requests, and a body must come as JSON.
 */
import { afterEach, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { serveNode } from "../adapters/node.ts"
import type { Listening } from "../adapters/listening.ts"
import { type RawClient, rawClient } from "../../testing/adapters/raw-client.ts"
import { waitUntil } from "../../testing/server/push-harness.ts"
import { testCard } from "../../testing/server/test-agent.ts"
import { A2AServer, type A2AServerConfig, type A2AServerHandle } from "./a2a-server.ts"
import { isJsonMediaType } from "./media-type.ts"

const keyCard = {
  securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
  security: [{ key: [] }]
} as const
const keys = { authenticators: { key: apiKeyAuthenticator({ keys: { "key-of-alice": { id: "alice" } } }) } }
const agent = (secured: boolean) =>
  Agent.make({ card: testCard(secured ? keyCard : {}), execute: (ctx) => ctx.complete("done") })

let listening: Listening | undefined
let server: A2AServerHandle
const clients: Array<RawClient> = []
afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy()
  await listening?.close({ graceMs: 0 })
  listening = undefined
})

const start = async (web: boolean, secured: boolean, config: A2AServerConfig = {}) => {
  server = await A2AServer.make(agent(secured), { ...(secured ? { authentication: keys } : {}), ...config })
  listening = await serveNode(server, { web })
  return listening.port
}

const head = (length: number, headers = "") =>
  `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${headers}\r\n`
const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "none" } })

describe.each([["fast path", false], ["Web handler", true]] as const)("before the body is read (Node, %s)", (_, web) => {
  it("refuses many unauthenticated uploads from their headers, before their bodies, holding none of them", async () => {
    const port = await start(web, true)
    const declared = 10 * 1024 * 1024
    const started = await Promise.all(Array.from({ length: 40 }, async () => {
      const client = await rawClient(port, clients)
      // The headers and a first 64 KiB of a 10 MiB body; the rest never comes.
      client.socket.write(head(declared) + "x".repeat(64 * 1024))
      return client
    }))
    // Answered while 10 MiB minus 64 KiB of each body have still to come: nothing waited for them.
    for (const client of started) {
      await waitUntil(() => client.received().includes('"code":-32041'), "the 401", 10_000)
      expect(client.received()).toMatch(/^HTTP\/1\.1 401 /)
      expect(client.received().toLowerCase()).toContain("www-authenticate:")
      expect(server.bodyBytesInFlight()).toBe(0)
    }
    // A caller with the key is served as before.
    const client = await rawClient(port, clients)
    client.socket.write(head(rpc.length, "X-API-Key: key-of-alice\r\nConnection: close\r\n") + rpc)
    expect(await client.closed(10_000)).toContain('"code":-32001')
  }, 30_000)

  it("bounds the body bytes in flight across requests: beyond it, 503 with Retry-After at once; room again once a body is in", async () => {
    const port = await start(web, false, { maxBodyBytes: 128 * 1024, maxBodyBytesInFlight: 256 * 1024 })
    const size = 128 * 1024
    const body = rpc.padEnd(size, " ")
    const holding = [await rawClient(port, clients), await rawClient(port, clients)]
    for (const client of holding) client.socket.write(head(size) + body.slice(0, 1024))
    await waitUntil(() => server.bodyBytesInFlight() === 2 * size, "both bodies reserved", 10_000)
    const refused = await rawClient(port, clients)
    refused.socket.write(head(size) + body.slice(0, 1024))
    await waitUntil(() => refused.received().includes("\r\n\r\n{"), "the 503", 10_000)
    const answer = refused.received()
    expect(answer).toMatch(/^HTTP\/1\.1 503 /)
    expect(answer.toLowerCase()).toContain("retry-after: 1")
    expect(answer).toContain('"code":-32603')
    // One body completes: its bytes are given back, and a new request fits.
    holding[0]!.socket.write(body.slice(1024))
    await waitUntil(() => holding[0]!.received().includes('"code":-32001'), "the completed request's answer", 10_000)
    await waitUntil(() => server.bodyBytesInFlight() === size, "the bytes given back", 10_000)
    const next = await rawClient(port, clients)
    next.socket.write(head(rpc.length, "Connection: close\r\n") + rpc)
    expect(await next.closed(10_000)).toContain('"code":-32001')
  }, 30_000)

  it("refuses a body that is not sent as JSON with 415 before reading it; JSON media types pass", async () => {
    const port = await start(web, false)
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", null]) {
      const client = await rawClient(port, clients)
      const header = type === null ? "" : `Content-Type: ${type}\r\n`
      client.socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}Content-Length: ${rpc.length}\r\nConnection: close\r\n\r\n${rpc}`)
      const answer = await client.closed(10_000)
      expect(answer, String(type)).toMatch(/^HTTP\/1\.1 415 /)
      expect(answer).toContain('"code":-32600')
      expect(answer).toContain('"id":null')
    }
    for (const type of ["application/json", "application/a2a+json", "APPLICATION/JSON; Charset=\"UTF-8\""]) {
      const client = await rawClient(port, clients)
      client.socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: ${rpc.length}\r\nConnection: close\r\n\r\n${rpc}`)
      expect(await client.closed(10_000), type).toContain('"code":-32001')
    }
  }, 30_000)
})

describe("the same checks on A2A 1.0's routes", () => {
  it("a 1.0 body not sent as JSON is 415 on JSON-RPC and REST; an unauthenticated 1.0 upload is refused from its headers", async () => {
    const open = await A2AServer.make(agent(false))
    const secured = await A2AServer.make(agent(true), { authentication: keys })
    try {
      const post = (server: A2AServerHandle, path: string, type: string, body: string) =>
        server.handler(new Request(`http://127.0.0.1${path}`, {
          method: "POST",
          headers: { "content-type": type, "a2a-version": "1.0" },
          body: new TextEncoder().encode(body)
        }))
      const rpcV1 = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "none" } })
      const sendV1 = JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } })
      const overRpc = await post(open, "/", "text/plain", rpcV1)
      expect(overRpc.status).toBe(415)
      expect(await overRpc.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: {} })
      expect((await post(open, "/message:send", "application/x-www-form-urlencoded", sendV1)).status).toBe(415)
      expect((await post(open, "/message:send", "application/a2a+json", sendV1)).status).toBe(200)
      expect((await post(secured, "/", "application/json", rpcV1)).status).toBe(401)
      expect((await post(secured, "/message:send", "application/a2a+json", sendV1)).status).toBe(401)
    } finally {
      await open.dispose({ graceMs: 0 })
      await secured.dispose({ graceMs: 0 })
    }
  })
})

describe("isJsonMediaType", () => {
  it("accepts application/json, application/a2a+json and +json types, with parameters, in any case", () => {
    for (const type of [
      "application/json",
      "Application/JSON",
      "application/json; charset=utf-8",
      "application/json;charset=\"UTF-8\"",
      "application/json; charset=utf8; foo=bar",
      "application/a2a+json",
      "application/a2a+json; charset=utf-8",
      "application/vnd.example.v1+json",
      " application/json "
    ]) expect(isJsonMediaType(type), type).toBe(true)
  })

  it("refuses what a browser sends without asking, other types, other charsets, lists and nothing", () => {
    for (const type of [
      undefined,
      "",
      "text/plain",
      "text/plain; charset=utf-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=----x",
      "text/json",
      "application/jsonp",
      "application/json-seq",
      "application/json, text/plain",
      "application/json; charset=iso-8859-1",
      "application/json; charset=utf-16",
      "application/+json",
      "application/json5"
    ]) expect(isJsonMediaType(type), String(type)).toBe(false)
  })
})
