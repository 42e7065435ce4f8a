/**
 * Signed agent cards through our client: a card signed by the server (`cardSigning`) verifies on
 * the bytes as served, any change to any byte of it fails, and only keys the caller trusts count.
 */
import { Effect, Result } from "effect"
import { exportJWK, generateKeyPair, type JSONWebKeySet } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AgentCard } from "../../schemas/index.ts"
import { serveNode } from "../adapters/node.ts"
import type { Listening } from "../adapters/listening.ts"
import { signCard } from "../card/sign-card.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { freePort } from "../../testing/server/free-port.ts"
import { testAgent } from "../../testing/server/test-agent.ts"
import {
  CardVerificationError,
  discoverVerifiedCard,
  verifyAgentCardText,
  type CardVerificationOptions
} from "./card-verification.ts"
import { A2AClient, userText } from "./client.ts"
import { invalidAnswerReason } from "./errors.ts"

let privateKey: CryptoKey
let jwks: JSONWebKeySet
let strangerJwks: JSONWebKeySet
let signed: Listening
let unsigned: Listening

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true })
  privateKey = pair.privateKey
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "card-1", alg: "ES256" }] }
  const stranger = await generateKeyPair("ES256", { extractable: true })
  strangerJwks = { keys: [{ ...(await exportJWK(stranger.publicKey)), kid: "card-1", alg: "ES256" }] }
  // A signed card names the configured public URL: the port is chosen before the server is built.
  const port = await freePort()
  signed = await serveNode(
    await A2AServer.make(testAgent(), { publicUrl: `http://127.0.0.1:${port}`, cardSigning: { key: privateKey, kid: "card-1", alg: "ES256" } }),
    { port }
  )
  unsigned = await serveNode(await A2AServer.make(testAgent()))
})
afterAll(async () => {
  await signed?.close({ graceMs: 0 })
  await unsigned?.close({ graceMs: 0 })
})

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.result(effect))
const failureOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<E> => {
  const result = await run(effect)
  if (Result.isSuccess(result)) throw new Error("expected a failure")
  return result.failure
}
const reasonOf = (error: unknown) =>
  error instanceof CardVerificationError ? error.reason : invalidAnswerReason(error as never) ?? String(error)

const servedText = async (base: string) => (await fetch(`${base}/.well-known/agent-card.json`)).text()

/** A fetch that serves `body` for card URLs and forwards everything else. */
const cardFetch = (body: (original: string) => string): typeof fetch => async (input, init) => {
  const url = String(input instanceof Request ? input.url : input)
  if (!url.endsWith("/.well-known/agent-card.json")) return fetch(input, init)
  const original = await (await fetch(url, init)).text()
  return new Response(body(original), { headers: { "content-type": "application/json" } })
}

describe("discoverVerifiedCard", () => {
  it("verifies the signed card of a served agent, and the client made from it works", async () => {
    const found = await Effect.runPromise(discoverVerifiedCard(signed.url, { keys: jwks }))
    expect(found.signatures).toEqual([{ index: 0, alg: "ES256", kid: "card-1" }])
    expect(found.cardUrl).toBe(`${signed.url}/.well-known/agent-card.json`)
    expect(found.card.url).toBe(`${signed.url}/`)
    const task = await Effect.runPromise(Effect.flatMap(
      A2AClient.make({ card: found.card }),
      (client) => client.sendMessage(userText("finish"))
    ))
    expect(task).toMatchObject({ kind: "task", status: { state: "completed" } })
  })

  it("finds the card at the origin when given a path below it", async () => {
    const found = await Effect.runPromise(discoverVerifiedCard(`${signed.url}/agents/x`, { keys: jwks }))
    expect(found.cardUrl).toBe(`${signed.url}/.well-known/agent-card.json`)
  })

  it("refuses a card whose signature was made by a key the caller does not trust", async () => {
    expect(reasonOf(await failureOf(discoverVerifiedCard(signed.url, { keys: strangerJwks })))).toBe("invalid-signature")
    const otherKid = { keys: strangerJwks.keys.map((k) => ({ ...k, kid: "someone-else" })) }
    expect(reasonOf(await failureOf(discoverVerifiedCard(signed.url, { keys: otherKid })))).toBe("no-key")
  })

  it("refuses a card changed in transit: a changed value, or a member added that the schema would drop", async () => {
    const changedUrl = cardFetch((text) => text.replace(`"url":"${signed.url}/"`, '"url":"https://attacker.test/"'))
    expect(reasonOf(await failureOf(discoverVerifiedCard(signed.url, { keys: jwks, fetch: changedUrl })))).toBe("invalid-signature")
    const added = cardFetch((text) => text.replace(/^\{/, '{"x-injected":true,'))
    expect(reasonOf(await failureOf(discoverVerifiedCard(signed.url, { keys: jwks, fetch: added })))).toBe("invalid-signature")
  })

  it("verifies members our schema does not know, before decoding drops them", async () => {
    const card = JSON.parse(await servedText(unsigned.url)) as AgentCard
    const withVendor = await Effect.runPromise(
      signCard({ ...card, "x-vendor": { tier: "gold" } } as AgentCard, { key: privateKey, kid: "card-1", alg: "ES256" })
    )
    const found = await Effect.runPromise(
      discoverVerifiedCard(unsigned.url, { keys: jwks, fetch: cardFetch(() => JSON.stringify(withVendor)) })
    )
    expect(found.signatures).toHaveLength(1)
    expect(found.card).not.toHaveProperty("x-vendor")
  })

  it("refuses an unsigned card unless signatures are optional", async () => {
    expect(reasonOf(await failureOf(discoverVerifiedCard(unsigned.url, { keys: jwks })))).toBe("unsigned")
    const optional = await Effect.runPromise(discoverVerifiedCard(unsigned.url, { keys: jwks, required: false }))
    expect(optional.signatures).toEqual([])
    // Optional signatures still have to verify when present.
    expect(reasonOf(await failureOf(discoverVerifiedCard(signed.url, { keys: strangerJwks, required: false }))))
      .toBe("invalid-signature")
  })

  it("takes the keys from a JWKS URL the caller trusts", async () => {
    const keysUrl = new URL("https://keys.example.test/card-keys.json")
    const withKeys: typeof fetch = async (input, init) =>
      String(input instanceof Request ? input.url : input) === keysUrl.href ? Response.json(jwks) : fetch(input, init)
    const found = await Effect.runPromise(discoverVerifiedCard(signed.url, { keys: keysUrl, fetch: withKeys }))
    expect(found.signatures).toHaveLength(1)
  })

  it("reports a missing card as NoAgentCard and a server error as a transport error", async () => {
    const missing: typeof fetch = async () => new Response("not here", { status: 404 })
    expect(reasonOf(await failureOf(discoverVerifiedCard(signed.url, { keys: jwks, fetch: missing })))).toBe("NoAgentCard")
    const broken: typeof fetch = async () => new Response("oops", { status: 500 })
    const error = await failureOf(discoverVerifiedCard(signed.url, { keys: jwks, fetch: broken }))
    expect(error).toMatchObject({ _tag: "A2AClientTransportError", reason: "HttpStatus", status: 500 })
  })
})

describe("verifyAgentCardText", () => {
  it("fails after any single byte of the served card changes", async () => {
    const text = await servedText(signed.url)
    const opts: CardVerificationOptions = { keys: jwks }
    expect(Result.isSuccess(await run(verifyAgentCardText(text, opts)))).toBe(true)
    const reasons = new Map<string, number>()
    for (let i = 0; i < text.length; i++) {
      const mutated = text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ 1) + text.slice(i + 1)
      const result = await run(verifyAgentCardText(mutated, opts))
      if (Result.isSuccess(result)) throw new Error(`a change at byte ${i} (${JSON.stringify(text.slice(i - 10, i + 10))}) still verifies`)
      const reason = reasonOf(result.failure)
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
    }
    expect([...reasons.values()].reduce((a, b) => a + b, 0)).toBe(text.length)
    expect(reasons.get("invalid-signature")).toBeGreaterThan(0)
  })

  it("refuses a signature spelled with different unused bits in its last base64url character", async () => {
    const raw = JSON.parse(await servedText(signed.url)) as { signatures: Array<{ signature: string }> }
    const signature = raw.signatures[0]!.signature
    // 64 signature bytes are 86 characters: the last one carries 4 unused bits.
    const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(signature.at(-1)!)
    const respelled = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[last ^ 1]!
    raw.signatures[0]!.signature = signature.slice(0, -1) + respelled
    const error = await failureOf(verifyAgentCardText(JSON.stringify(raw), { keys: jwks }))
    expect(error).toMatchObject({ _tag: "CardVerificationError", reason: "malformed", index: 0 })
  })
})
