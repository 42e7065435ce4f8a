import { Effect, Result } from "effect"
import { describe, expect, it } from "vitest"
import type { APIKeySecurityScheme } from "../../schemas/index.ts"
import { apiKeyAuthenticator } from "./api-key.ts"
import { readCookie, type AuthRequest } from "./auth-request.ts"
import { AuthFailure } from "./authenticator.ts"

const req = (init: { headers?: Record<string, string>; url?: string; cookies?: Record<string, string> } = {}): AuthRequest => ({
  headers: new Headers(init.headers ?? {}),
  url: new URL(init.url ?? "https://agent.example/a2a"),
  ...(init.cookies === undefined ? {} : { cookies: init.cookies })
})

const keys = { "k-alice": { id: "alice" }, "k-bob": { id: "bob", claims: { scopes: ["admin"] } } }

const run = (scheme: APIKeySecurityScheme, request: AuthRequest, auth = apiKeyAuthenticator({ keys })) =>
  Effect.runPromise(Effect.result(auth(request, { schemeName: "key", scheme })))

describe("apiKeyAuthenticator", () => {
  it("reads the key from a header", async () => {
    const scheme: APIKeySecurityScheme = { type: "apiKey", in: "header", name: "X-API-Key" }
    expect(await run(scheme, req({ headers: { "x-api-key": "k-bob" } }))).toEqual(Result.succeed(keys["k-bob"]))
    expect(await run(scheme, req())).toEqual(Result.succeed(undefined))
    const wrong = await run(scheme, req({ headers: { "x-api-key": "k-mallory" } }))
    expect(Result.isFailure(wrong) && wrong.failure.reason).toBe("invalid_credentials")
    const empty = await run(scheme, req({ headers: { "x-api-key": "" } }))
    expect(Result.isFailure(empty) && empty.failure.reason).toBe("invalid_request")
  })

  it("reads the key from the query string", async () => {
    const scheme: APIKeySecurityScheme = { type: "apiKey", in: "query", name: "api_key" }
    expect(await run(scheme, req({ url: "https://agent.example/a2a?api_key=k-alice" }))).toEqual(Result.succeed({ id: "alice" }))
    expect(await run(scheme, req({ headers: { api_key: "k-alice" } }))).toEqual(Result.succeed(undefined))
  })

  it("reads the key from a cookie, parsed from the header or given by the host", async () => {
    const scheme: APIKeySecurityScheme = { type: "apiKey", in: "cookie", name: "session" }
    expect(await run(scheme, req({ headers: { cookie: 'theme=dark; session="k-alice"; x=1' } })))
      .toEqual(Result.succeed({ id: "alice" }))
    expect(await run(scheme, req({ cookies: { session: "k-bob" } }))).toEqual(Result.succeed(keys["k-bob"]))
    expect(await run(scheme, req({ headers: { cookie: "sessionx=k-alice" } }))).toEqual(Result.succeed(undefined))
  })

  it("delegates to a verify function", async () => {
    const scheme: APIKeySecurityScheme = { type: "apiKey", in: "header", name: "X-API-Key" }
    const auth = apiKeyAuthenticator({
      verify: (key) =>
        key === "revoked"
          ? Effect.fail(new AuthFailure({ reason: "invalid_credentials", message: "revoked" }))
          : Effect.succeed(key.startsWith("svc-") ? { id: key } : undefined)
    })
    expect(await run(scheme, req({ headers: { "x-api-key": "svc-1" } }), auth)).toEqual(Result.succeed({ id: "svc-1" }))
    const unknown = await run(scheme, req({ headers: { "x-api-key": "nope" } }), auth)
    expect(Result.isFailure(unknown) && unknown.failure.message).toBe("unknown API key")
    const revoked = await run(scheme, req({ headers: { "x-api-key": "revoked" } }), auth)
    expect(Result.isFailure(revoked) && revoked.failure.message).toBe("revoked")
  })
})

describe("readCookie", () => {
  it("finds a cookie by exact name", () => {
    const r = req({ headers: { cookie: "a=1; ab=2;b=3" } })
    expect([readCookie(r, "a"), readCookie(r, "ab"), readCookie(r, "b"), readCookie(r, "c")]).toEqual(["1", "2", "3", undefined])
  })
})
