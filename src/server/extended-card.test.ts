/**
 * `agent/getAuthenticatedExtendedCard`: served to authenticated callers only (also where the card
 * makes credentials optional), per principal, and refused or absent as the spec says otherwise.
 */
import { Effect, Result } from "effect"
import { exportJWK, generateKeyPair, type JSONWebKeySet } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AgentCardInput } from "../agent/agent.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import type { Principal } from "../auth/principal.ts"
import { authHeader } from "../client/interceptors.ts"
import { verifyAgentCard } from "../client/card-verification.ts"
import { A2AClient } from "../client/client.ts"
import { A2AServer, type A2AServerHandle } from "./a2a-server.ts"
import { testAgent, testCard } from "../../testing/server/test-agent.ts"
import { textMessage, wireCall } from "../../testing/server/wire-call.ts"

const METHOD = "agent/getAuthenticatedExtendedCard"
const security = {
  securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } } as const,
  // Credentials are optional for the agent itself: `{}` admits anonymous callers.
  security: [{ key: [] }, {}]
}
const keys = { "key-of-alice": { id: "alice" }, "key-of-bob": { id: "bob" } }
const extendedFor = (principal: Principal): AgentCardInput =>
  testCard({
    ...security,
    skills: [
      ...testCard().skills,
      { id: `ledger-${principal.id}`, name: "Ledger", description: `Private ledger of ${principal.id}.`, tags: ["private"] }
    ]
  })

let server: A2AServerHandle
beforeAll(async () => {
  server = await A2AServer.make(testAgent(security), {
    // The Web handler is called directly (no adapter to say where it listens): the card names this.
    publicUrl: "http://127.0.0.1",
    authentication: { authenticators: { key: apiKeyAuthenticator({ keys }) } },
    extendedCard: extendedFor
  })
})
afterAll(() => server.dispose({ graceMs: 0 }))

const call = (params: unknown, headers: Record<string, string> = {}) =>
  wireCall(server.handler, METHOD, params, { headers, id: "x-1" })

describe("the authenticated extended card", () => {
  it("is announced by the public card, which does not contain it", async () => {
    const card = await (await server.handler(new Request("http://127.0.0.1/.well-known/agent-card.json"))).json()
    expect(card.supportsAuthenticatedExtendedCard).toBe(true)
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(["echo"])
  })

  it("is refused to an anonymous caller with 401 and a challenge, although the agent admits anonymous messages", async () => {
    expect((await wireCall(server.handler, "message/send", textMessage("finish"))).body.result.status.state).toBe("completed")
    const answer = await call(undefined)
    expect(answer.status).toBe(401)
    expect(answer.headers.get("www-authenticate")).toBe('ApiKey realm="a2a", in="header", name="X-API-Key"')
    expect(answer.body).toEqual({
      jsonrpc: "2.0",
      id: "x-1",
      error: {
        code: -32041,
        message: "The extended agent card is served to authenticated callers only",
        data: { status: 401, reason: "missing_credentials", schemes: ["key"] }
      }
    })
  })

  it("is refused to wrong credentials with 401", async () => {
    const answer = await call({}, { "x-api-key": "key-of-mallory" })
    expect(answer.status).toBe(401)
    expect(answer.body.error.data).toEqual({ status: 401, reason: "invalid_credentials", schemes: ["key"] })
  })

  it("is served to each authenticated principal as built for them, with or without empty params", async () => {
    const publicCard = await (await server.handler(new Request("http://127.0.0.1/.well-known/agent-card.json"))).json()
    for (const params of [undefined, {}]) {
      const answer = await call(params, { "x-api-key": "key-of-alice" })
      expect(answer.status).toBe(200)
      expect(answer.body.id).toBe("x-1")
      expect(answer.body.result).toMatchObject({ protocolVersion: "0.3.0", url: publicCard.url, supportsAuthenticatedExtendedCard: true })
      expect(answer.body.result.skills.map((s: { id: string }) => s.id)).toEqual(["echo", "ledger-alice"])
    }
    const bobs = await call({}, { "x-api-key": "key-of-bob" })
    expect(bobs.body.result.skills.map((s: { id: string }) => s.id)).toEqual(["echo", "ledger-bob"])
  })

  it("reaches our client with credentials, and is refused to it without", async () => {
    const base = { endpoint: "http://127.0.0.1/" }
    const fetchVia: typeof fetch = (input, init) => server.handler(new Request(input, init))
    const withKey = await Effect.runPromise(Effect.flatMap(
      A2AClient.make(base, { fetch: fetchVia, interceptors: [authHeader({ header: "X-API-Key", scheme: null, token: "key-of-alice" })] }),
      (client) => client.getAuthenticatedExtendedCard()
    ))
    expect(withKey.skills.map((s) => s.id)).toEqual(["echo", "ledger-alice"])
    const anonymous = await Effect.runPromise(Effect.result(Effect.flatMap(
      A2AClient.make(base, { fetch: fetchVia, retries: 0 }),
      (client) => client.getAuthenticatedExtendedCard()
    )))
    expect(Result.isFailure(anonymous) && anonymous.failure).toMatchObject({ code: -32041, data: { status: 401, reason: "missing_credentials" } })
  })
})

describe("without an extended card", () => {
  it("an agent without security answers AuthenticatedExtendedCardNotConfigured (-32007)", async () => {
    const open = await A2AServer.make(testAgent())
    try {
      const answer = await wireCall(open.handler, METHOD, {}, { id: 3 })
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ id: 3, error: { code: -32007 } })
    } finally {
      await open.dispose({ graceMs: 0 })
    }
  })

  it("a secured agent without one refuses anonymous callers first (401), then answers -32007 to authenticated ones", async () => {
    const plain = await A2AServer.make(testAgent(security), { authentication: { authenticators: { key: apiKeyAuthenticator({ keys }) } } })
    try {
      expect((await wireCall(plain.handler, METHOD, {})).status).toBe(401)
      const answer = await wireCall(plain.handler, METHOD, {}, { headers: { "x-api-key": "key-of-alice" } })
      expect(answer.body.error.code).toBe(-32007)
    } finally {
      await plain.dispose({ graceMs: 0 })
    }
  })

  it("a server refuses to start with an extended card but no security on its card", async () => {
    await expect(A2AServer.make(testAgent(), { extendedCard: testCard() })).rejects.toThrow(/security/)
  })
})

describe("a signed server", () => {
  let signed: A2AServerHandle
  let jwks: JSONWebKeySet
  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true })
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "card-1", alg: "ES256" }] }
    signed = await A2AServer.make(testAgent(security), {
      publicUrl: "https://agent.example.test",
      authentication: { authenticators: { key: apiKeyAuthenticator({ keys }) } },
      extendedCard: extendedFor,
      cardSigning: { key: pair.privateKey, kid: "card-1", alg: "ES256" }
    })
  })
  afterAll(() => signed.dispose({ graceMs: 0 }))

  it("signs its public card", async () => {
    const raw = await (await signed.handler(new Request("http://127.0.0.1/.well-known/agent-card.json"))).json()
    expect(Result.isSuccess(await Effect.runPromise(Effect.result(verifyAgentCard(raw, { keys: jwks }))))).toBe(true)
  })

  it("signs the extended card as well", async () => {
    const answer = await wireCall(signed.handler, METHOD, {}, { headers: { "x-api-key": "key-of-alice" } })
    const verified = await Effect.runPromise(Effect.result(verifyAgentCard(answer.body.result, { keys: jwks })))
    expect(Result.isSuccess(verified)).toBe(true)
  })
})
