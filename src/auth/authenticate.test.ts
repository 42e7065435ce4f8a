import { Effect, Exit, Result } from "effect"
import { generateKeyPair, SignJWT } from "jose"
import { beforeAll, describe, expect, it } from "vitest"
import { apiKeyAuthenticator } from "./api-key.ts"
import type { AuthRequest } from "./auth-request.ts"
import { authenticate, AuthRefusal, checkAuthPolicy, type AuthPolicy, type AuthTarget } from "./authenticate.ts"
import { AuthFailure, type Authenticator } from "./authenticator.ts"
import { bearerAuthenticator } from "./bearer.ts"
import { challengeFor, quoted } from "./challenge.ts"
import { jwtVerifier } from "./jwt-verifier.ts"
import { mutualTlsAuthenticator } from "./mutual-tls.ts"
import { anonymous } from "./principal.ts"
import { FORBIDDEN_CODE, refusalResponse, UNAUTHENTICATED_CODE } from "./refusal-response.ts"

type SecurityCard = AuthPolicy["card"]

const card: SecurityCard = {
  securitySchemes: {
    oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://idp.example/token", scopes: { read: "", admin: "" } } } },
    apikey: { type: "apiKey", in: "header", name: "X-API-Key" },
    mtls: { type: "mutualTLS" }
  },
  security: [{ oauth: ["read"] }, { apikey: [], mtls: [] }],
  skills: [
    { id: "admin", name: "Admin", description: "", tags: [], security: [{ oauth: ["admin"] }] },
    { id: "plain", name: "Plain", description: "", tags: [] }
  ]
}

let signingKey: CryptoKey
let verifyKey: CryptoKey
beforeAll(async () => {
  const pair = await generateKeyPair("ES256")
  signingKey = pair.privateKey
  verifyKey = pair.publicKey
})
const token = (scope: string, key = signingKey) =>
  new SignJWT({ scope }).setProtectedHeader({ alg: "ES256" }).setIssuer("https://idp.example").setAudience("agent")
    .setSubject("user-1").setIssuedAt().setExpirationTime("5m").sign(key)

const authenticators = (): Record<string, Authenticator> => ({
  oauth: bearerAuthenticator({ verify: jwtVerifier({ key: verifyKey, issuer: "https://idp.example", audience: "agent" }) }),
  apikey: apiKeyAuthenticator({ keys: { "k-svc": { id: "svc", claims: { team: "ops" } } } }),
  mtls: mutualTlsAuthenticator({ bySubject: { "CN=svc": { id: "svc-cert", claims: { team: "cert-team" } } } })
})

const request = (init: { authorization?: string; apiKey?: string; cert?: boolean } = {}): AuthRequest => {
  const headers = new Headers()
  if (init.authorization !== undefined) headers.set("authorization", init.authorization)
  if (init.apiKey !== undefined) headers.set("x-api-key", init.apiKey)
  return {
    headers,
    url: new URL("https://agent.example/a2a"),
    ...(init.cert === true ? { clientCertificate: { authorized: true, subject: "CN=svc", fingerprint256: "00" } } : {})
  }
}

const run = (policy: Partial<AuthPolicy>, req: AuthRequest, target?: AuthTarget) =>
  Effect.runPromise(
    Effect.result(authenticate({ card, authenticators: authenticators(), ...policy }, req, target))
  )
const refusal = (result: Result.Result<unknown, AuthRefusal>): AuthRefusal => {
  if (Result.isSuccess(result)) throw new Error("expected a refusal")
  return result.failure
}

describe("authenticate: requirement semantics", () => {
  it("gives the anonymous principal when the card has no requirement", async () => {
    expect(await run({ card: { ...card, security: [] } }, request())).toEqual(Result.succeed(anonymous))
    const { security: _s, ...noSecurity } = card
    expect(await run({ card: noSecurity }, request())).toEqual(Result.succeed(anonymous))
  })

  it("accepts the first alternative that passes (OR), tagging the principal with the scheme", async () => {
    const result = await run({}, request({ authorization: `Bearer ${await token("read")}` }))
    expect(Result.getOrThrow(result)).toMatchObject({ id: "user-1", scheme: "oauth", claims: { scope: "read" } })
  })

  it("needs every scheme of an AND-alternative and merges their principals", async () => {
    const keyOnly = refusal(await run({}, request({ apiKey: "k-svc" })))
    expect(keyOnly).toMatchObject({ status: 401, reason: "missing_credentials", schemes: ["oauth", "apikey", "mtls"] })
    expect(keyOnly.challenge).toBe(
      'Bearer realm="a2a", scope="read", ApiKey realm="a2a", in="header", name="X-API-Key", MutualTLS realm="a2a"'
    )
    const both = Result.getOrThrow(await run({}, request({ apiKey: "k-svc", cert: true })))
    expect(both).toMatchObject({ id: "svc", scheme: "apikey+mtls", claims: { team: "ops", subject: "CN=svc" } })
  })

  it("refuses wrong credentials with 401 and an RFC 6750 error in the challenge", async () => {
    const other = (await generateKeyPair("ES256")).privateKey
    const r = refusal(await run({}, request({ authorization: `Bearer ${await token("read", other)}` })))
    expect(r).toMatchObject({ status: 401, reason: "invalid_credentials" })
    expect(r.challenge).toContain('Bearer realm="a2a", scope="read", error="invalid_token", error_description="token signature')
    // Wrong credentials are not excused by a valid alternative's partial presence.
    const wrongKey = refusal(await run({}, request({ apiKey: "nope", cert: true })))
    expect(wrongKey).toMatchObject({ status: 401, reason: "invalid_credentials", message: "unknown API key" })
  })

  it("refuses a valid token without the required scope with 403 insufficient_scope", async () => {
    const r = refusal(await run({}, request({ authorization: `Bearer ${await token("write")}` })))
    expect(r).toMatchObject({ status: 403, reason: "insufficient_scope", schemes: ["oauth"] })
    expect(r.challenge).toBe('Bearer realm="a2a", scope="read", error="insufficient_scope"')
  })

  it("lets a targeted skill's security replace the card's", async () => {
    const read = `Bearer ${await token("read")}`
    expect(refusal(await run({}, request({ authorization: read }), { skill: "admin" })).status).toBe(403)
    const admin = await run({}, request({ authorization: `Bearer ${await token("read admin")}` }), { skill: "admin" })
    expect(Result.getOrThrow(admin)).toMatchObject({ id: "user-1" })
    const svc = refusal(await run({}, request({ apiKey: "k-svc", cert: true }), { skill: "admin" }))
    expect(svc).toMatchObject({ status: 401, schemes: ["oauth"] })
    // A skill without its own security, or an unknown skill, uses the card's.
    expect(Result.isSuccess(await run({}, request({ apiKey: "k-svc", cert: true }), { skill: "plain" }))).toBe(true)
    expect(Result.isSuccess(await run({}, request({ authorization: read }), { skill: "nope" }))).toBe(true)
  })

  it("treats {} as optional authentication, but still refuses wrong credentials", async () => {
    const optional: SecurityCard = { ...card, security: [{}, { apikey: [] }] }
    expect(await run({ card: optional }, request())).toEqual(Result.succeed(anonymous))
    expect(Result.getOrThrow(await run({ card: optional }, request({ apiKey: "k-svc" })))).toMatchObject({ id: "svc" })
    expect(refusal(await run({ card: optional }, request({ apiKey: "bad" }))).status).toBe(401)
  })

  it("asks authorize with the method and skill, refusing with 403", async () => {
    const seen: Array<unknown> = []
    const authorize = (p: { id: string }, t: AuthTarget) =>
      Effect.sync(() => {
        seen.push([p.id, t])
        return t.method !== "tasks/cancel"
      })
    const req = request({ authorization: `Bearer ${await token("read")}` })
    expect(Result.isSuccess(await run({ authorize }, req, { method: "message/send" }))).toBe(true)
    expect(refusal(await run({ authorize }, req, { method: "tasks/cancel" }))).toMatchObject({
      status: 403,
      reason: "forbidden"
    })
    expect(seen).toEqual([["user-1", { method: "message/send" }], ["user-1", { method: "tasks/cancel" }]])
  })

  it("answers 503 when a credential cannot be checked", async () => {
    const down: Authenticator = () => Effect.fail(new AuthFailure({ reason: "unavailable", message: "idp down" }))
    const r = refusal(await run({ authenticators: { ...authenticators(), oauth: down } }, request()))
    expect(r).toMatchObject({ status: 503, reason: "unavailable", schemes: ["oauth"] })
    expect(r.challenge).toBeUndefined()
  })

  it("checks each scheme once per request even when several alternatives name it", async () => {
    let calls = 0
    const counting: Authenticator = () => Effect.sync(() => (calls += 1, undefined))
    const twice: SecurityCard = { ...card, security: [{ apikey: [], mtls: [] }, { apikey: [] }] }
    await run({ card: twice, authenticators: { ...authenticators(), apikey: counting } }, request())
    expect(calls).toBe(1)
  })

  it("reports configuration problems, and treats a missing authenticator as a defect", async () => {
    const { mtls: _m, ...partial } = authenticators()
    const policy: AuthPolicy = { card: { ...card, security: [{ ghost: [] }, { mtls: [] }] }, authenticators: partial }
    expect(checkAuthPolicy(policy)).toEqual([
      'scheme "ghost" is not in securitySchemes',
      'scheme "ghost" has no authenticator',
      'scheme "mtls" has no authenticator'
    ])
    const exit = await Effect.runPromiseExit(authenticate({ card, authenticators: partial }, request()))
    expect(Exit.isFailure(exit) && exit.cause.reasons.map((r) => r._tag)).toEqual(["Die"])
  })
})

describe("refusalResponse", () => {
  it("answers 401 with WWW-Authenticate and a JSON-RPC error body carrying the request id", async () => {
    const r = refusal(await run({}, request()))
    const response = refusalResponse(r, 7)
    expect(response.status).toBe(401)
    expect(response.headers.get("www-authenticate")).toBe(r.challenge)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: UNAUTHENTICATED_CODE,
        message: "authentication required",
        data: { status: 401, reason: "missing_credentials", schemes: ["oauth", "apikey", "mtls"] }
      }
    })
  })

  it("answers 403 with id null before the envelope is read, and a bare error for REST", async () => {
    const r = new AuthRefusal({ status: 403, reason: "forbidden", message: "not permitted", schemes: [] })
    const rpc = refusalResponse(r, undefined)
    expect(rpc.status).toBe(403)
    expect(rpc.headers.has("www-authenticate")).toBe(false)
    expect(await rpc.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: FORBIDDEN_CODE } })
    const rest = refusalResponse(r, null, { binding: "rest" })
    expect(await rest.json()).toEqual({
      code: FORBIDDEN_CODE,
      message: "not permitted",
      data: { status: 403, reason: "forbidden", schemes: [] }
    })
  })
})

describe("challenges", () => {
  it("quote parameters safely for an HTTP header", () => {
    expect(quoted('a "b" \\ c\r\nd \u20ac')).toBe('"a \\"b\\" \\\\ c  d ?"')
    const value = challengeFor({ type: "http", scheme: "bearer" }, {
      realm: "a2a",
      error: "invalid_token",
      errorDescription: 'bad "token"\r\nSet-Cookie: x=1'
    })
    expect(() => new Headers({ "www-authenticate": value })).not.toThrow()
    expect(value).toBe('Bearer realm="a2a", error="invalid_token", error_description="bad \\"token\\"  Set-Cookie: x=1"')
  })

  it("name Basic and other HTTP schemes by their registered spelling", () => {
    expect(challengeFor({ type: "http", scheme: "basic" }, { realm: "a2a" })).toBe('Basic realm="a2a", charset="UTF-8"')
    expect(challengeFor({ type: "openIdConnect", openIdConnectUrl: "https://idp/" }, { realm: "r", scopes: ["openid"] }))
      .toBe('Bearer realm="r", scope="openid"')
  })
})
