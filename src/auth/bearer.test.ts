import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Result } from "effect"
import { TestClock } from "effect/testing"
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "jose"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { SecurityScheme } from "../../schemas/index.ts"
import type { AuthRequest } from "./auth-request.ts"
import type { Authenticator } from "./authenticator.ts"
import { bearerAuthenticator } from "./bearer.ts"
import { jwtVerifier } from "./jwt-verifier.ts"
import { oidcJwtVerifier } from "./oidc.ts"

// A small identity provider on 127.0.0.1: discovery document + JWKS, with switchable failures.
let server: Server
let origin: string
let signingKey: CryptoKey
let publicJwk: JWK
let otherKey: CryptoKey
const hits = { discovery: 0, jwks: 0 }
let failDiscovery = false
let failJwks = false
let advertisedIssuer: string | undefined

const audience = "https://agent.example/a2a"
const issuer = () => origin

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true })
  signingKey = pair.privateKey
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "idp-1", alg: "ES256", use: "sig" }
  otherKey = (await generateKeyPair("ES256")).privateKey
  server = createServer((req, res) => {
    if (req.url === "/.well-known/openid-configuration") {
      hits.discovery += 1
      if (failDiscovery) return void res.writeHead(500).end()
      res.writeHead(200, { "content-type": "application/json" })
      return void res.end(JSON.stringify({ issuer: advertisedIssuer ?? origin, jwks_uri: `${origin}/jwks` }))
    }
    if (req.url === "/jwks") {
      hits.jwks += 1
      if (failJwks) return void res.writeHead(503).end()
      res.writeHead(200, { "content-type": "application/json" })
      return void res.end(JSON.stringify({ keys: [publicJwk] }))
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
afterEach(() => {
  failDiscovery = false
  failJwks = false
  advertisedIssuer = undefined
})

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0)

const token = (claims: JWTPayload = {}, options: { key?: CryptoKey; iat?: number; exp?: number; kid?: string } = {}) =>
  new SignJWT({ scope: "read write", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: options.kid ?? "idp-1" })
    .setIssuer(String(claims.iss ?? issuer()))
    .setAudience(claims.aud ?? audience)
    .setSubject(claims.sub ?? "user-1")
    .setIssuedAt(options.iat ?? NOW / 1000)
    .setExpirationTime(options.exp ?? NOW / 1000 + 300)
    .sign(options.key ?? signingKey)

const scheme: SecurityScheme = { type: "http", scheme: "bearer", bearerFormat: "JWT" }
const request = (authorization?: string): AuthRequest => ({
  headers: new Headers(authorization === undefined ? {} : { authorization }),
  url: new URL("https://agent.example/a2a")
})
const run = (authenticator: Authenticator, req: AuthRequest, at = NOW) =>
  Effect.runPromise(
    Effect.gen(function* () {
      yield* TestClock.setTime(at)
      return yield* Effect.result(authenticator(req, { schemeName: "bearer", scheme }))
    }).pipe(Effect.provide(TestClock.layer()))
  )
const failureOf = (result: Result.Result<unknown, { reason: string; message: string }>) =>
  Result.isFailure(result) ? result.failure.reason : "ok"

describe("bearerAuthenticator + jwtVerifier (JWKS over HTTP)", () => {
  const counting = () => {
    let calls = 0
    const fetchImpl: typeof fetch = (input, init) => {
      calls += 1
      return fetch(input, init)
    }
    return { fetchImpl, calls: () => calls }
  }

  it("accepts a valid token and maps sub and claims to the principal, through the injected fetch", async () => {
    const { fetchImpl, calls } = counting()
    const auth = bearerAuthenticator({ verify: jwtVerifier({ jwksUrl: `${origin}/jwks`, fetch: fetchImpl, issuer: issuer(), audience }) })
    const result = await run(auth, request(`Bearer ${await token()}`))
    expect(Result.getOrThrow(result)).toMatchObject({ id: "user-1", claims: { scope: "read write", aud: audience } })
    expect(calls()).toBe(1)
    // The scheme name is case-insensitive (RFC 9110).
    expect(Result.isSuccess(await run(auth, request(`bearer ${await token()}`)))).toBe(true)
  })

  it("has no credentials when there is no bearer Authorization header", async () => {
    const auth = bearerAuthenticator({ verify: jwtVerifier({ jwksUrl: `${origin}/jwks`, issuer: issuer(), audience }) })
    expect(await run(auth, request())).toEqual(Result.succeed(undefined))
    expect(await run(auth, request("Basic dTpw"))).toEqual(Result.succeed(undefined))
  })

  it("refuses wrong issuer, wrong audience, unknown key, tampering and malformed tokens", async () => {
    const auth = bearerAuthenticator({ verify: jwtVerifier({ jwksUrl: `${origin}/jwks`, issuer: issuer(), audience }) })
    expect(failureOf(await run(auth, request(`Bearer ${await token({ iss: "https://evil.example" })}`))))
      .toBe("invalid_credentials")
    expect(failureOf(await run(auth, request(`Bearer ${await token({ aud: "https://other.example" })}`))))
      .toBe("invalid_credentials")
    expect(failureOf(await run(auth, request(`Bearer ${await token({}, { key: otherKey })}`))))
      .toBe("invalid_credentials")
    const good = await token()
    const [h, p, s] = good.split(".")
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, "base64url").toString()), sub: "admin" })).toString("base64url")}.${s}`
    expect(failureOf(await run(auth, request(`Bearer ${forged}`)))).toBe("invalid_credentials")
    expect(failureOf(await run(auth, request("Bearer ")))).toBe("invalid_request")
    expect(failureOf(await run(auth, request("Bearer a b")))).toBe("invalid_request")
    expect(failureOf(await run(auth, request("Bearer not-a-jwt")))).toBe("invalid_credentials")
  })

  it("checks time with the clock and the tolerance", async () => {
    const auth = bearerAuthenticator({
      verify: jwtVerifier({ jwksUrl: `${origin}/jwks`, issuer: issuer(), audience, clockToleranceSeconds: 30 })
    })
    const t = await token({}, { exp: NOW / 1000 + 60 })
    expect(failureOf(await run(auth, request(`Bearer ${t}`), NOW + 60_000 + 20_000))).toBe("ok")
    const expired = await run(auth, request(`Bearer ${t}`), NOW + 60_000 + 40_000)
    expect(Result.isFailure(expired) && expired.failure.message).toBe("token expired")
    const notYet = await token({ nbf: NOW / 1000 + 120 })
    expect(failureOf(await run(auth, request(`Bearer ${notYet}`)))).toBe("invalid_credentials")
    expect(failureOf(await run(auth, request(`Bearer ${notYet}`), NOW + 100_000))).toBe("ok")
    const fresh = bearerAuthenticator({
      verify: jwtVerifier({ jwksUrl: `${origin}/jwks`, issuer: issuer(), audience, maxTokenAgeSeconds: 60 })
    })
    const old = await token({}, { iat: NOW / 1000 - 600 })
    expect(failureOf(await run(fresh, request(`Bearer ${old}`)))).toBe("invalid_credentials")
  })

  it("reports an unreachable key set as unavailable, not as a bad token", async () => {
    failJwks = true
    const auth = bearerAuthenticator({ verify: jwtVerifier({ jwksUrl: `${origin}/jwks`, issuer: issuer(), audience }) })
    expect(failureOf(await run(auth, request(`Bearer ${await token()}`)))).toBe("unavailable")
  })

  it("verifies against a static key, refusing HMAC tokens unless allowed", async () => {
    const auth = bearerAuthenticator({ verify: jwtVerifier({ key: publicJwk, issuer: issuer(), audience }) })
    expect(failureOf(await run(auth, request(`Bearer ${await token()}`)))).toBe("ok")
    const secret = new Uint8Array(32).fill(1)
    const hs = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuer(issuer()).setAudience(audience)
      .setSubject("u").setIssuedAt(NOW / 1000).setExpirationTime(NOW / 1000 + 60).sign(secret)
    const hmac = bearerAuthenticator({ verify: jwtVerifier({ key: secret, issuer: issuer(), audience }) })
    expect(failureOf(await run(hmac, request(`Bearer ${hs}`)))).toBe("invalid_credentials")
    const allowed = bearerAuthenticator({ verify: jwtVerifier({ key: secret, issuer: issuer(), audience, algorithms: ["HS256"] }) })
    expect(failureOf(await run(allowed, request(`Bearer ${hs}`)))).toBe("ok")
  })

  it("falls back to client_id for tokens without sub, and refuses tokens naming nobody", async () => {
    const auth = bearerAuthenticator({ verify: jwtVerifier({ key: publicJwk, issuer: issuer(), audience }) })
    const noSub = await new SignJWT({ client_id: "svc-7" }).setProtectedHeader({ alg: "ES256" }).setIssuer(issuer())
      .setAudience(audience).setIssuedAt(NOW / 1000).setExpirationTime(NOW / 1000 + 60).sign(signingKey)
    expect(Result.getOrThrow(await run(auth, request(`Bearer ${noSub}`)))).toMatchObject({ id: "svc-7" })
    const nobody = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer(issuer())
      .setAudience(audience).setIssuedAt(NOW / 1000).setExpirationTime(NOW / 1000 + 60).sign(signingKey)
    expect(failureOf(await run(auth, request(`Bearer ${nobody}`)))).toBe("invalid_credentials")
  })
})

describe("oidcJwtVerifier (discovery over HTTP)", () => {
  it("discovers jwks_uri from the issuer once and reuses it", async () => {
    const before = { ...hits }
    const auth = bearerAuthenticator({ verify: oidcJwtVerifier({ issuer: issuer(), audience }) })
    for (let i = 0; i < 3; i++) {
      expect(Result.getOrThrow(await run(auth, request(`Bearer ${await token()}`)))).toMatchObject({ id: "user-1" })
    }
    expect(hits.discovery - before.discovery).toBe(1)
    expect(hits.jwks - before.jwks).toBe(1)
  })

  it("uses the scheme's openIdConnectUrl and the document's issuer; refreshes after the TTL", async () => {
    const before = { ...hits }
    const verify = oidcJwtVerifier({
      discoveryUrl: `${origin}/.well-known/openid-configuration`,
      audience,
      cacheTtlMs: 60_000
    })
    const auth = bearerAuthenticator({ verify })
    expect(failureOf(await run(auth, request(`Bearer ${await token()}`)))).toBe("ok")
    expect(failureOf(await run(auth, request(`Bearer ${await token({ iss: "https://evil.example" })}`))))
      .toBe("invalid_credentials")
    expect(hits.discovery - before.discovery).toBe(1)
    expect(failureOf(await run(auth, request(`Bearer ${await token()}`), NOW + 61_000))).toBe("ok")
    expect(hits.discovery - before.discovery).toBe(2)
    // Same jwks_uri: the key set is reused, so it is not fetched again.
    expect(hits.jwks - before.jwks).toBe(1)
  })

  it("does not cache a failed discovery, and answers unavailable meanwhile", async () => {
    const auth = bearerAuthenticator({ verify: oidcJwtVerifier({ issuer: issuer(), audience }) })
    failDiscovery = true
    expect(failureOf(await run(auth, request(`Bearer ${await token()}`)))).toBe("unavailable")
    failDiscovery = false
    expect(failureOf(await run(auth, request(`Bearer ${await token()}`)))).toBe("ok")
  })

  it("refuses a document that names another issuer than the expected one", async () => {
    advertisedIssuer = "https://impostor.example"
    const auth = bearerAuthenticator({ verify: oidcJwtVerifier({ issuer: issuer(), audience }) })
    expect(failureOf(await run(auth, request(`Bearer ${await token()}`)))).toBe("unavailable")
  })
})
