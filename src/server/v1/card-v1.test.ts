/**
 * The card in both versions: negotiated on the card request (`A2A-Version`, header or query), with a
 * configurable version for header-less requests, `Vary: A2A-Version`, `supportedInterfaces` listing both
 * versions and both bindings (1.0 first), a pure 1.0 card with no 0.3 member, and signatures that verify in
 * both versions (the 1.0 one also with the official SDK 1.3's verifier).
 */
import { Effect, Result, Schema } from "effect"
import { AgentCard as SdkAgentCard, canonicalizeAgentCard, verifyAgentCardSignature } from "a2a-js-sdk-v1"
import { exportJWK, generateKeyPair, type JWK } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AgentCard as V1AgentCard } from "../../../schemas/v1/agent-card.ts"
import { apiKeyAuthenticator } from "../../auth/api-key.ts"
import { canonicalize } from "../../card/canonicalize.ts"
import { jwksKeyResolver, verifyCard } from "../../card/verify-card.ts"
import { testAgent } from "../../../testing/server/test-agent.ts"
import { v1Call } from "../../../testing/server/v1-call.ts"
import { A2AServer, type A2AServerHandle } from "../a2a-server.ts"

const base = "https://agent.example.com"
let keys: { privateKey: CryptoKey; publicJwk: JWK }
let plain: A2AServerHandle
let oneZero: A2AServerHandle
let signed: A2AServerHandle
let signedOpen: A2AServerHandle

const secured = testAgent({
  capabilities: { streaming: true, pushNotifications: true, extensions: [{ uri: "urn:x", required: false, description: "x" }] },
  securitySchemes: {
    key: { type: "apiKey", in: "header", name: "X-API-Key" },
    oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://auth.example.com/token", scopes: { read: "Read" } } } }
  },
  security: [{ key: [] }]
})
const authentication = { authenticators: { key: apiKeyAuthenticator({ keys: { k: { id: "alice" } } }), oauth: apiKeyAuthenticator({ keys: {} }) } }

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true })
  keys = { privateKey: pair.privateKey as CryptoKey, publicJwk: { ...(await exportJWK(pair.publicKey)), kid: "card-1", alg: "ES256" } }
  plain = await A2AServer.make(testAgent(), { publicUrl: base })
  oneZero = await A2AServer.make(testAgent(), { publicUrl: base, cardVersion: "1.0", tenant: "acme" })
  signedOpen = await A2AServer.make(testAgent(), { publicUrl: base, cardSigning: { key: keys.privateKey, kid: "card-1", alg: "ES256" } })
  signed = await A2AServer.make(secured, {
    publicUrl: base,
    authentication,
    extendedCard: { ...secured.card, name: "extended" },
    cardSigning: { key: keys.privateKey, kid: "card-1", alg: "ES256" }
  })
})
afterAll(async () => {
  await Promise.all([plain?.dispose(), oneZero?.dispose(), signed?.dispose(), signedOpen?.dispose()])
})

const card = async (server: A2AServerHandle, headers: Record<string, string> = {}, path = "/.well-known/agent-card.json") => {
  const response = await server.handler(new Request(`http://127.0.0.1${path}`, { headers }))
  return { status: response.status, vary: response.headers.get("vary"), body: await response.json() as Record<string, any> }
}

const zeroThreeOnly = ["url", "protocolVersion", "preferredTransport", "additionalInterfaces", "supportsAuthenticatedExtendedCard", "security"]

describe("the card in both versions", () => {
  it("header-less: the 0.3 card, which also lists the 1.0 interfaces; A2A-Version 1.0: a pure 1.0 card", async () => {
    const old = await card(plain)
    expect(old.vary).toBe("A2A-Version")
    expect(old.body).toMatchObject({ protocolVersion: "0.3.0", url: `${base}/`, preferredTransport: "JSONRPC" })
    const v1 = await card(plain, { "a2a-version": "1.0" })
    expect(v1.vary).toBe("A2A-Version")
    expect(v1.body.supportedInterfaces).toEqual([
      { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: `${base}/`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
      { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      { url: `${base}/`, protocolBinding: "HTTP+JSON", protocolVersion: "0.3" }
    ])
    expect(old.body.supportedInterfaces).toEqual(v1.body.supportedInterfaces)
    for (const key of zeroThreeOnly) expect(v1.body[key], key).toBeUndefined()
    expect(Result.isSuccess(Schema.decodeUnknownResult(V1AgentCard)(v1.body))).toBe(true)
    expect((await card(plain, {}, "/.well-known/agent-card.json?A2A-Version=1.0")).body.supportedInterfaces).toHaveLength(4)
    expect((await card(plain, { "a2a-version": "1.0" }, "/.well-known/agent.json")).body).toEqual(v1.body)
  })

  it("cardVersion 1.0 answers header-less requests with the 1.0 card; A2A-Version 0.3 still gets 0.3; tenants are named", async () => {
    const v1 = await card(oneZero)
    expect(v1.body.url).toBeUndefined()
    expect(v1.body.supportedInterfaces.slice(0, 2).map((i: { tenant?: string }) => i.tenant)).toEqual(["acme", "acme"])
    expect((await card(oneZero, { "a2a-version": "0.3" })).body.protocolVersion).toBe("0.3.0")
  })

  it("refuses an unsupported version with 400 and VERSION_NOT_SUPPORTED", async () => {
    const refused = await card(plain, { "a2a-version": "9.9" })
    expect(refused.status).toBe(400)
    expect(refused.body.error.details[0].reason).toBe("VERSION_NOT_SUPPORTED")
  })

  it("writes security in 1.0's shapes", async () => {
    const v1 = (await card(signed, { "a2a-version": "1.0" })).body
    expect(v1.securitySchemes).toEqual({
      key: { apiKeySecurityScheme: { location: "header", name: "X-API-Key" } },
      oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: "https://auth.example.com/token", scopes: { read: "Read" } } } } }
    })
    expect(v1.securityRequirements).toEqual([{ schemes: { key: {} } }])
    expect(v1.capabilities).toMatchObject({ streaming: true, pushNotifications: true, extendedAgentCard: true, extensions: [{ uri: "urn:x", description: "x" }] })
  })

  it("signs each version's card on its own bytes: both verify, the 1.0 one also with the official SDK 1.3", async () => {
    const resolver = jwksKeyResolver({ keys: [keys.publicJwk] })
    for (const server of [signed, signedOpen]) {
      const old = (await card(server)).body
      const v1 = (await card(server, { "a2a-version": "1.0" })).body
      expect(old.signatures).toHaveLength(1)
      expect(v1.signatures).toHaveLength(1)
      expect(Result.isSuccess(await Effect.runPromise(Effect.result(verifyCard(old, resolver))))).toBe(true)
      expect(Result.isSuccess(await Effect.runPromise(Effect.result(verifyCard(v1, resolver))))).toBe(true)
      expect(Result.isFailure(await Effect.runPromise(Effect.result(verifyCard({ ...v1, description: "changed" }, resolver))))).toBe(true)
    }
    const v1 = (await card(signedOpen, { "a2a-version": "1.0" })).body
    await expect(verifyAgentCardSignature(async () => keys.publicJwk)(SdkAgentCard.fromJSON(v1))).resolves.toBeUndefined()
    const tampered = { ...v1, description: "changed" }
    await expect(verifyAgentCardSignature(async () => keys.publicJwk)(SdkAgentCard.fromJSON(tampered))).rejects.toThrow()
  })

  it("pins where the SDK 1.3 canonical form departs from spec §8.4.1: it drops a requirement of a scheme without scopes", async () => {
    const { signatures: _s, ...v1 } = (await card(signed, { "a2a-version": "1.0" })).body
    // The spec keeps map entries and REQUIRED members; the SDK's cleaning removes every empty object and list.
    expect(canonicalize(v1)).toContain(`"securityRequirements":[{"schemes":{"key":{}}}]`)
    expect(canonicalizeAgentCard(SdkAgentCard.fromJSON(v1))).not.toContain("securityRequirements")
  })

  it("serves the extended card over 1.0 in 1.0's shape, signed, to authenticated callers only", async () => {
    const refused = await v1Call(signed.handler, "GetExtendedAgentCard", undefined)
    expect(refused.status).toBe(401)
    const answer = await v1Call(signed.handler, "GetExtendedAgentCard", {}, { headers: { "x-api-key": "k" } })
    expect(answer.body.result).toMatchObject({ name: "extended", supportedInterfaces: expect.any(Array) })
    expect(answer.body.result.url).toBeUndefined()
    const verified = await Effect.runPromise(Effect.result(verifyCard(answer.body.result, jwksKeyResolver({ keys: [keys.publicJwk] }))))
    expect(Result.isSuccess(verified)).toBe(true)
  })
})
