/**
 * Which URL a published card names, against a forged `Host`: the configured `publicUrl`, else the
 * address the server listens on, and the request's headers only when the embedder trusts them.
 * A signed server needs `publicUrl`, so no signature ever covers a URL a request chose.
 */
import { request as httpRequest } from "node:http"
import { createServer } from "node:http"
import { HttpRouter } from "effect/http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Effect, Exit, Fiber, Layer, Result } from "effect"
import { exportJWK, generateKeyPair, type JSONWebKeySet } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { verifyAgentCard } from "../client/card-verification.ts"
import { A2AServer, type A2AServerConfig } from "./a2a-server.ts"
import { ListeningOrigin } from "./listening-origin.ts"
import { testAgent, testCard } from "../../testing/server/test-agent.ts"

const security = {
  securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } } as const,
  security: [{ key: [] }]
}
const alice = { "x-api-key": "key-of-alice" }
const securedConfig: A2AServerConfig = {
  authentication: { authenticators: { key: apiKeyAuthenticator({ keys: { "key-of-alice": { id: "alice" } } }) } },
  extendedCard: testCard(security)
}

interface RawAnswer {
  readonly status: number
  readonly body: any
}

/** A request over a real socket with any `Host` header (fetch would not let a test forge it). */
const raw = (origin: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const url = new URL(path, origin)
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: body === undefined ? "GET" : "POST",
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...options.headers }
    }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text === "" ? undefined : JSON.parse(text) }))
    })
    req.on("error", reject)
    req.end(body)
  })

const evil = { host: "evil.example" }
const publicCard = (origin: string, headers: Record<string, string> = evil) =>
  raw(origin, "/.well-known/agent-card.json", { headers }).then((a) => a.body)
const extendedCardRpc = (origin: string, headers: Record<string, string>) =>
  raw(origin, "/", { headers: { ...alice, ...headers }, body: { jsonrpc: "2.0", id: 1, method: "agent/getAuthenticatedExtendedCard" } })
    .then((a) => a.body.result)
const extendedCardRest = (origin: string, headers: Record<string, string>) =>
  raw(origin, "/v1/card", { headers: { ...alice, ...headers } }).then((a) => a.body)

/** Every URL a card names. */
const urlsOf = (card: any): Array<string> => [card.url, ...card.additionalInterfaces.map((i: { url: string }) => i.url)]

describe.each([false, true])("without publicUrl, on Node (Web bridge: %s)", (web) => {
  let listening: Listening
  beforeAll(async () => {
    listening = await serveNode(await A2AServer.make(testAgent(security), securedConfig), { web })
  })
  afterAll(() => listening.close({ graceMs: 0 }))

  it("a forged Host gets cards naming the listening address, on every card route", async () => {
    expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const card = await publicCard(listening.url)
    expect(card.url).toBe(`${listening.url}/`)
    expect(urlsOf(card).sort()).toEqual([`${listening.url}/`, `${listening.url}/`, `${listening.url}/`])
    expect((await raw(listening.url, "/.well-known/agent.json", { headers: evil })).body.url).toBe(`${listening.url}/`)
    expect((await extendedCardRpc(listening.url, evil)).url).toBe(`${listening.url}/`)
    expect((await extendedCardRest(listening.url, evil)).url).toBe(`${listening.url}/`)
    // Forwarding headers are ignored as well.
    const forwarded = await publicCard(listening.url, { ...evil, "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" })
    expect(urlsOf(forwarded).every((u) => u.startsWith(`${listening.url}/`))).toBe(true)
  })
})

describe("with trustProxyHeaders", () => {
  let listening: Listening
  beforeAll(async () => {
    listening = await serveNode(await A2AServer.make(testAgent(security), { ...securedConfig, trustProxyHeaders: true }))
  })
  afterAll(() => listening.close({ graceMs: 0 }))

  it("the card names the Host the request came with", async () => {
    expect((await publicCard(listening.url, { host: "agent.example:8080" })).url).toBe("http://agent.example:8080/")
    expect((await extendedCardRpc(listening.url, { host: "agent.example:8080" })).url).toBe("http://agent.example:8080/")
  })

  it("X-Forwarded-Proto and X-Forwarded-Host win over Host, first value of each", async () => {
    const headers = { host: "10.0.0.7:3000", "x-forwarded-proto": "https, http", "x-forwarded-host": "agents.example.com, proxy.internal" }
    const card = await publicCard(listening.url, headers)
    expect(card.url).toBe("https://agents.example.com/")
    expect(urlsOf(card).every((u) => u.startsWith("https://agents.example.com/"))).toBe(true)
    expect((await extendedCardRest(listening.url, headers)).url).toBe("https://agents.example.com/")
    // Only the scheme forwarded: the Host supplies the rest.
    expect((await publicCard(listening.url, { host: "agent.example", "x-forwarded-proto": "https" })).url).toBe("https://agent.example/")
  })

  it("a malformed forwarded host or scheme falls back to the listening address", async () => {
    for (const headers of [
      { host: "evil.example/path" },
      { host: "x", "x-forwarded-host": "user@evil.example" },
      { host: "x", "x-forwarded-host": "evil.example?q" },
      { host: "agent.example", "x-forwarded-proto": "javascript" }
    ]) {
      expect((await publicCard(listening.url, headers)).url).toBe(`${listening.url}/`)
    }
  })
})

describe("a signed server", () => {
  let jwks: JSONWebKeySet
  let privateKey: CryptoKey
  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true })
    privateKey = pair.privateKey
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "card-1", alg: "ES256" }] }
  })
  const signing = () => ({ key: privateKey, kid: "card-1", alg: "ES256" })

  it("refuses to start without publicUrl, naming the option", async () => {
    await expect(A2AServer.make(testAgent(), { cardSigning: signing() })).rejects.toThrow(/`cardSigning` needs `publicUrl`/)
    await expect(A2AServer.make(testAgent(), { cardSigning: signing(), trustProxyHeaders: true })).rejects.toThrow(/publicUrl/)
    const layer = A2AServer.layer(testAgent(), { cardSigning: signing() }).pipe(Layer.provide(HttpRouter.layer))
    const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(layer)))
    expect(Exit.isFailure(exit) && String(exit.cause)).toMatch(/`cardSigning` needs `publicUrl`/)
  })

  it("refuses a publicUrl that is not an absolute http(s) URL", async () => {
    for (const publicUrl of ["agent.example.com", "ftp://agent.example.com", "https://agent.example.com/?x=1"]) {
      await expect(A2AServer.make(testAgent(), { publicUrl })).rejects.toThrow(/publicUrl/)
    }
  })

  it("with publicUrl, signs cards naming it whatever the Host or forwarding headers say", async () => {
    const listening = await serveNode(await A2AServer.make(testAgent(security), {
      ...securedConfig,
      publicUrl: "https://agent.example.com/a2a/",
      trustProxyHeaders: true,
      cardSigning: signing()
    }))
    try {
      const headers = { ...evil, "x-forwarded-host": "evil.example" }
      const cards = [await publicCard(listening.url, headers), await extendedCardRpc(listening.url, headers)]
      for (const card of cards) {
        expect(urlsOf(card).every((u) => u.startsWith("https://agent.example.com/a2a/"))).toBe(true)
        expect(Result.isSuccess(await Effect.runPromise(Effect.result(verifyAgentCard(card, { keys: jwks }))))).toBe(true)
      }
    } finally {
      await listening.close({ graceMs: 0 })
    }
  })
})

describe("the Web handler without an adapter", () => {
  it("without publicUrl, answers the card with an error naming the options rather than guess from Host", async () => {
    const server = await A2AServer.make(testAgent(security), securedConfig)
    try {
      const answer = await server.handler(new Request("http://evil.example/.well-known/agent-card.json"))
      expect(answer.status).toBe(500)
      const body = await answer.json()
      expect(body.code).toBe(-32603)
      expect(body.message).toMatch(/publicUrl/)
      expect(JSON.stringify(body)).not.toMatch(/\n\s+at /)
      const extended = await server.handler(new Request("http://evil.example/", {
        method: "POST",
        headers: { "content-type": "application/json", ...alice },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "agent/getAuthenticatedExtendedCard" })
      }))
      expect((await extended.json()).error).toMatchObject({ code: -32603, message: body.message })
    } finally {
      await server.dispose({ graceMs: 0 })
    }
  })

  it("names the ListeningOrigin its host passes, or the request's origin with trustProxyHeaders", async () => {
    const server = await A2AServer.make(testAgent())
    const trusting = await A2AServer.make(testAgent(), { trustProxyHeaders: true })
    try {
      const origin = Context.make(ListeningOrigin, "http://127.0.0.1:8123")
      const card = await (await server.handler(new Request("http://evil.example/.well-known/agent-card.json"), origin)).json()
      expect(card.url).toBe("http://127.0.0.1:8123/")
      const trusted = await (await trusting.handler(new Request("https://agent.example/.well-known/agent-card.json"))).json()
      expect(trusted.url).toBe("https://agent.example/")
    } finally {
      await server.dispose({ graceMs: 0 })
      await trusting.dispose({ graceMs: 0 })
    }
  })
})

describe("as a layer in an app's own router", () => {
  it("names the address of the platform server the routes are served by", async () => {
    let port = 0
    const app = HttpRouter.serve(A2AServer.layer(testAgent()), { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provide(NodeHttpServer.layer(() => {
        const server = createServer()
        server.once("listening", () => (port = (server.address() as { port: number }).port))
        return server
      }, { port: 0, host: "127.0.0.1" }))
    )
    const fiber = Effect.runFork(Layer.launch(app))
    try {
      while (port === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      const card = await publicCard(`http://127.0.0.1:${port}`)
      expect(card.url).toBe(`http://127.0.0.1:${port}/`)
    } finally {
      await Effect.runPromise(Fiber.interrupt(fiber))
    }
  })
})
