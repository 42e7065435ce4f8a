import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Result } from "effect"
import { compactVerify, exportJWK, generateKeyPair, type JWK } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AgentCard } from "../../schemas/index.ts"
import { canonicalize } from "./canonicalize.ts"
import { signCard } from "./sign-card.ts"
import { jwksKeyResolver, verifyCard, type CardKeyResolver } from "./verify-card.ts"

const card: AgentCard = {
  protocolVersion: "0.3.0",
  name: "Route Planner",
  description: "Plans routes.",
  url: "https://agent.example/a2a/v1",
  preferredTransport: "JSONRPC",
  additionalInterfaces: [{ url: "https://agent.example/a2a/v1", transport: "JSONRPC" }],
  provider: { organization: "Example", url: "https://example.com" },
  version: "1.2.0",
  capabilities: { streaming: true, pushNotifications: false },
  securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
  security: [{ bearer: [] }],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain", "application/json"],
  skills: [{ id: "route", name: "Route", description: "Finds a route", tags: ["maps", "routing"] }],
  supportsAuthenticatedExtendedCard: true
}

let es256: { privateKey: CryptoKey; publicJwk: JWK }
let ed25519: { privateKey: CryptoKey; publicJwk: JWK }

const keyPair = async (alg: string, kid: string) => {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg } }
}

beforeAll(async () => {
  es256 = await keyPair("ES256", "card-es")
  ed25519 = await keyPair("EdDSA", "card-ed")
})

const resolver = (): CardKeyResolver => jwksKeyResolver({ keys: [es256.publicJwk, ed25519.publicJwk] })
const sign = (c: AgentCard = card) => Effect.runPromise(signCard(c, { key: es256.privateKey, kid: "card-es", alg: "ES256" }))
const verify = (c: object, r: CardKeyResolver = resolver()) => Effect.runPromise(Effect.result(verifyCard(c, r)))
const reasonOf = async (c: object) => {
  const result = await verify(c)
  return Result.isFailure(result) ? result.failure.reason : "ok"
}

describe("signCard / verifyCard", () => {
  it("signs a card that verifies, also after a JSON round trip with other key order and spacing", async () => {
    const signed = await sign()
    expect(signed.signatures).toHaveLength(1)
    const header = JSON.parse(new TextDecoder().decode(Buffer.from(signed.signatures![0]!.protected, "base64url")))
    expect(header).toEqual({ alg: "ES256", typ: "JOSE", kid: "card-es" })
    expect(await verify(signed)).toEqual(Result.succeed([{ index: 0, alg: "ES256", kid: "card-es" }]))
    const reordered = Object.fromEntries(Object.entries(JSON.parse(JSON.stringify(signed, null, 2)) as object).reverse())
    expect(await reasonOf(reordered)).toBe("ok")
  })

  it("is a standard detached JWS over the canonical card without signatures", async () => {
    const signed = await sign()
    const { signatures, ...unsigned } = signed
    const payload = Buffer.from(canonicalize(unsigned)).toString("base64url")
    const compact = `${signatures![0]!.protected}.${payload}.${signatures![0]!.signature}`
    const { payload: bytes } = await compactVerify(compact, es256.publicJwk)
    expect(new TextDecoder().decode(bytes)).toBe(canonicalize(unsigned))
  })

  const mutations: ReadonlyArray<readonly [string, (c: Record<string, unknown>) => void]> = [
    ["protocolVersion", (c) => (c["protocolVersion"] = "0.3.1")],
    ["name", (c) => (c["name"] = "Route Plannerr")],
    ["description", (c) => (c["description"] = "Plans routes!")],
    ["url", (c) => (c["url"] = "https://evil.example/a2a/v1")],
    ["preferredTransport", (c) => (c["preferredTransport"] = "HTTP+JSON")],
    ["additionalInterfaces", (c) => (c["additionalInterfaces"] = [])],
    ["provider", (c) => (c["provider"] = { organization: "Example", url: "https://example.org" })],
    ["version", (c) => (c["version"] = "1.2.1")],
    ["capabilities", (c) => (c["capabilities"] = { streaming: true, pushNotifications: true })],
    ["securitySchemes", (c) => (c["securitySchemes"] = {})],
    ["security", (c) => (c["security"] = [])],
    ["defaultInputModes", (c) => (c["defaultInputModes"] = ["text/plain", "image/png"])],
    ["defaultOutputModes", (c) => (c["defaultOutputModes"] = ["application/json", "text/plain"])],
    ["skills", (c) => (c["skills"] = [])],
    ["supportsAuthenticatedExtendedCard", (c) => (c["supportsAuthenticatedExtendedCard"] = false)],
    ["removed field", (c) => delete c["provider"]],
    ["added field", (c) => (c["iconUrl"] = "https://agent.example/icon.png")],
    ["nested value", (c) => ((c["skills"] as Array<{ tags: Array<string> }>)[0]!.tags[1] = "routes")],
    ["nested number type", (c) => ((c["capabilities"] as Record<string, unknown>)["streaming"] = 1)]
  ]
  it.each(mutations)("fails after changing %s", async (_name, mutate) => {
    const signed = structuredClone(await sign()) as unknown as Record<string, unknown>
    expect(await reasonOf(signed)).toBe("ok")
    mutate(signed)
    expect(await reasonOf(signed)).toBe("invalid-signature")
  })

  it("fails after any change to the signature or its protected header", async () => {
    const signed = await sign()
    const sig = signed.signatures![0]!
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1)
    for (const i of [0, 10, sig.signature.length - 3]) {
      expect(await reasonOf({ ...signed, signatures: [{ ...sig, signature: flip(sig.signature, i) }] }))
        .toBe("invalid-signature")
    }
    // A re-encoded header with one more member: same key id, but no longer the signed bytes.
    const header = Buffer.from(JSON.stringify({ alg: "ES256", typ: "JOSE", kid: "card-es", x: 1 })).toString("base64url")
    expect(await reasonOf({ ...signed, signatures: [{ ...sig, protected: header }] })).toBe("invalid-signature")
    expect(await reasonOf({ ...signed, signatures: [{ ...sig, protected: "!!" }] })).toBe("malformed")
    expect(await reasonOf({ ...signed, signatures: [{ signature: sig.signature }] })).toBe("malformed")
  })

  it("refuses a signature spelled with other unused bits in its last character", async () => {
    const signed = await sign()
    const sig = signed.signatures![0]!
    // An ES256 signature is 64 bytes: 86 base64url characters, the last carrying 4 unused bits.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    const last = alphabet.indexOf(sig.signature.at(-1)!)
    const sibling = alphabet[(last & ~0b1111) | ((last + 1) & 0b1111)]!
    const respelled = sig.signature.slice(0, -1) + sibling
    expect(Buffer.from(respelled, "base64url")).toEqual(Buffer.from(sig.signature, "base64url"))
    expect(await reasonOf({ ...signed, signatures: [{ ...sig, signature: respelled }] })).toBe("malformed")
  })

  it("reports an unsigned card and a signature by an unknown key", async () => {
    expect(await reasonOf(card)).toBe("unsigned")
    expect(await reasonOf({ ...card, signatures: [] })).toBe("unsigned")
    const other = await keyPair("ES256", "unknown-kid")
    const signed = await Effect.runPromise(signCard(card, { key: other.privateKey, kid: "unknown-kid", alg: "ES256" }))
    expect(await reasonOf(signed)).toBe("no-key")
  })

  it("keeps earlier signatures valid when another party signs, and skips signatures of unknown keys", async () => {
    const stranger = await keyPair("ES256", "stranger")
    const byStranger = await Effect.runPromise(signCard(card, { key: stranger.privateKey, kid: "stranger", alg: "ES256" }))
    const both = await Effect.runPromise(signCard(byStranger, { key: ed25519.privateKey, kid: "card-ed", alg: "EdDSA" }))
    expect(both.signatures).toHaveLength(2)
    expect(await verify(both)).toEqual(Result.succeed([{ index: 1, alg: "EdDSA", kid: "card-ed" }]))
  })

  it("refuses HMAC and 'none' by default, even with a resolver that hands out a secret", async () => {
    const secret = new Uint8Array(32).fill(7)
    const signed = await Effect.runPromise(signCard(card, { key: secret, kid: "hmac", alg: "HS256" }))
    const result = await verify(signed, () => Effect.succeed(secret))
    expect(Result.isFailure(result) && result.failure.reason).toBe("invalid-signature")
    const allowed = await Effect.runPromise(
      Effect.result(verifyCard(signed, () => Effect.succeed(secret), { algorithms: ["HS256"] }))
    )
    expect(Result.isSuccess(allowed)).toBe(true)
  })

  describe("with a key set fetched over HTTP", () => {
    let server: Server
    let jwksUrl: URL
    let requests = 0
    beforeAll(async () => {
      server = createServer((_req, res) => {
        requests += 1
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({ keys: [es256.publicJwk] }))
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      jwksUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`)
    })
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

    it("verifies against the remote JWKS and fails for a tampered card", async () => {
      const signed = await sign()
      const remote = jwksKeyResolver(jwksUrl)
      expect(Result.isSuccess(await verify(signed, remote))).toBe(true)
      expect(requests).toBe(1)
      const tampered = { ...signed, name: "Other" }
      const result = await verify(tampered, remote)
      expect(Result.isFailure(result) && result.failure.reason).toBe("invalid-signature")
    })
  })
})
