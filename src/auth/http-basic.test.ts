import { Effect, Result } from "effect"
import { describe, expect, it } from "vitest"
import type { AuthRequest } from "./auth-request.ts"
import { basicAuthenticator } from "./http-basic.ts"

const req = (authorization?: string): AuthRequest => ({
  headers: new Headers(authorization === undefined ? {} : { authorization }),
  url: new URL("https://agent.example/a2a")
})
const basic = (text: string) => `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}`

const auth = basicAuthenticator((user, password) =>
  Effect.succeed(user === "zoë" && password === "p:ss" ? { id: user } : undefined)
)
const run = (request: AuthRequest) =>
  Effect.runPromise(Effect.result(auth(request, { schemeName: "basic", scheme: { type: "http", scheme: "basic" } })))

describe("basicAuthenticator", () => {
  it("decodes UTF-8 credentials and splits at the first colon", async () => {
    expect(await run(req(basic("zoë:p:ss")))).toEqual(Result.succeed({ id: "zoë" }))
  })

  it("distinguishes absent, malformed and wrong credentials", async () => {
    expect(await run(req())).toEqual(Result.succeed(undefined))
    expect(await run(req("Bearer abc"))).toEqual(Result.succeed(undefined))
    const malformed = await run(req("Basic %%%"))
    expect(Result.isFailure(malformed) && malformed.failure.reason).toBe("invalid_request")
    const noColon = await run(req(basic("zoë")))
    expect(Result.isFailure(noColon) && noColon.failure.reason).toBe("invalid_request")
    const wrong = await run(req(basic("zoë:nope")))
    expect(Result.isFailure(wrong) && wrong.failure.reason).toBe("invalid_credentials")
  })
})
