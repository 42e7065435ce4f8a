/**
 * Authentication end to end, per security scheme: a request without credentials, with wrong ones,
 * with valid ones of a principal that may not call, and with right ones, over JSON-RPC
 * (`message/send`) and over SSE (`message/stream`). A refusal is an HTTP answer (status,
 * `WWW-Authenticate`, JSON body) and leaves no task behind.
 */
import { createServer as createHttpsServer, request as httpsRequest, type Server as HttpsServer } from "node:https"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SecurityScheme } from "../../schemas/index.ts"
import { nodeClientCertificate } from "../adapters/node-client-certificate.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import type { PeerCertificateInfo } from "../auth/auth-request.ts"
import type { Authenticator } from "../auth/authenticator.ts"
import { bearerAuthenticator } from "../auth/bearer.ts"
import { jwtVerifier } from "../auth/jwt-verifier.ts"
import { mutualTlsAuthenticator } from "../auth/mutual-tls.ts"
import { oidcJwtVerifier } from "../auth/oidc.ts"
import type { Principal } from "../auth/principal.ts"
import { A2AServer, type A2AServerHandle } from "./a2a-server.ts"
import type { AuthenticationOptions } from "./authentication.ts"
import { startIdentityProvider, type IdentityProvider } from "../../testing/server/identity-provider.ts"
import { readAnswer, textMessage, wireCall, type WireAnswer, type WireCallOptions } from "../../testing/server/wire-call.ts"
import { testAgent } from "../../testing/server/test-agent.ts"
import { makeTlsFixture, opensslAvailable, type Credentials, type TlsFixture } from "../../testing/server/tls-fixture.ts"

const realm = "a2a-test"
/** Valid credentials of this principal are refused by the authorization hook (403). */
const authorize = (principal: Principal) => Effect.succeed(principal.id !== "blocked")

/** Credentials as a request carries them: headers, and a query string for `in: "query"` keys. */
interface Presented {
  readonly headers?: Record<string, string>
  readonly query?: string
}

/** What a scheme's refusal of wrong or forbidden credentials looks like. */
interface Refusal {
  readonly status: 401 | 403
  readonly challenge: string | null
  readonly reason: string
  readonly message: string
  readonly schemes: ReadonlyArray<string>
}

interface SchemeCase {
  readonly scheme: SecurityScheme
  readonly scopes?: ReadonlyArray<string>
  readonly authenticator: Authenticator
  readonly missingChallenge: string
  readonly right: () => Promise<Presented>
  /** The principal the right credentials stand for. */
  readonly principal: string
  readonly wrong: () => Promise<Presented>
  readonly wrongRefusal: Refusal
  readonly forbidden: () => Promise<Presented>
  readonly forbiddenRefusal: Refusal
}

const forbiddenByHook: Refusal = { status: 403, challenge: null, reason: "forbidden", message: "not permitted", schemes: [] }

const apiKeyCase = (location: "header" | "query" | "cookie", name: string): SchemeCase => {
  const present = (key: string): Presented =>
    location === "header"
      ? { headers: { [name]: key } }
      : location === "query"
      ? { query: `${name}=${encodeURIComponent(key)}` }
      : { headers: { cookie: `theme=dark; ${name}=${key}` } }
  const challenge = `ApiKey realm="${realm}", in="${location}", name="${name}"`
  return {
    scheme: { type: "apiKey", in: location, name },
    authenticator: apiKeyAuthenticator({ keys: { "key-alice-1": { id: "alice" }, "key-blocked-1": { id: "blocked" } } }),
    missingChallenge: challenge,
    right: async () => present("key-alice-1"),
    principal: "alice",
    wrong: async () => present("key-alice-2"),
    wrongRefusal: { status: 401, challenge, reason: "invalid_credentials", message: "unknown API key", schemes: [`key-${location}`] },
    forbidden: async () => present("key-blocked-1"),
    forbiddenRefusal: forbiddenByHook
  }
}

const bearer = (token: string): Presented => ({ headers: { authorization: `Bearer ${token}` } })

const cases = (idp: IdentityProvider): Record<string, SchemeCase> => ({
  "key-header": apiKeyCase("header", "X-API-Key"),
  "key-query": apiKeyCase("query", "api_key"),
  "key-cookie": apiKeyCase("cookie", "session"),
  jwt: {
    scheme: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
    authenticator: bearerAuthenticator({
      verify: jwtVerifier({ jwksUrl: idp.jwksUrl, issuer: idp.issuer, audience: idp.audience })
    }),
    missingChallenge: `Bearer realm="${realm}"`,
    right: async () => bearer(await idp.token({ sub: "alice" })),
    principal: "alice",
    // Signed by a key that claims the provider's kid.
    wrong: async () => bearer(await idp.token({ sub: "alice" }, { forged: true })),
    wrongRefusal: {
      status: 401,
      challenge: `Bearer realm="${realm}", error="invalid_token", error_description="token signature or format is invalid"`,
      reason: "invalid_credentials",
      message: "token signature or format is invalid",
      schemes: ["jwt"]
    },
    forbidden: async () => bearer(await idp.token({ sub: "blocked" })),
    forbiddenRefusal: forbiddenByHook
  },
  oauth2: {
    scheme: {
      type: "oauth2",
      oauth2MetadataUrl: idp.oauthMetadataUrl,
      flows: { clientCredentials: { tokenUrl: `${idp.issuer}/token`, scopes: { "agent:use": "Use the agent" } } }
    },
    scopes: ["agent:use"],
    authenticator: bearerAuthenticator({ verify: oidcJwtVerifier({ discoveryUrl: idp.oauthMetadataUrl, audience: idp.audience }) }),
    missingChallenge: `Bearer realm="${realm}", scope="agent:use"`,
    right: async () => bearer(await idp.token({ sub: "client-alice", scope: "agent:use other" })),
    principal: "client-alice",
    wrong: async () => bearer(await idp.token({ sub: "client-alice", scope: "agent:use" }, { expiresIn: -600 })),
    wrongRefusal: {
      status: 401,
      challenge: `Bearer realm="${realm}", scope="agent:use", error="invalid_token", error_description="token expired"`,
      reason: "invalid_credentials",
      message: "token expired",
      schemes: ["oauth2"]
    },
    // A valid token without the scope the requirement names.
    forbidden: async () => bearer(await idp.token({ sub: "client-alice", scope: "other" })),
    forbiddenRefusal: {
      status: 403,
      challenge: `Bearer realm="${realm}", scope="agent:use", error="insufficient_scope"`,
      reason: "insufficient_scope",
      message: "the credentials lack a required scope",
      schemes: ["oauth2"]
    }
  },
  oidc: {
    scheme: { type: "openIdConnect", openIdConnectUrl: idp.openIdConfigurationUrl },
    authenticator: bearerAuthenticator({
      verify: oidcJwtVerifier({ discoveryUrl: idp.openIdConfigurationUrl, issuer: idp.issuer, audience: idp.audience })
    }),
    missingChallenge: `Bearer realm="${realm}"`,
    right: async () => bearer(await idp.token({ sub: "alice@idp" })),
    principal: "alice@idp",
    wrong: async () => bearer(await idp.token({ sub: "alice@idp" }, { audience: "https://some-other-agent.test" })),
    wrongRefusal: {
      status: 401,
      challenge: `Bearer realm="${realm}", error="invalid_token", error_description="token claim \\"aud\\" check failed"`,
      reason: "invalid_credentials",
      message: 'token claim "aud" check failed',
      schemes: ["oidc"]
    },
    forbidden: async () => bearer(await idp.token({ sub: "blocked" })),
    forbiddenRefusal: forbiddenByHook
  }
})

/** A server whose card requires scheme `name` alone. */
const securedServer = (
  name: string,
  scheme: Pick<SchemeCase, "scheme" | "authenticator" | "scopes">,
  clientCertificate?: AuthenticationOptions["clientCertificate"]
) =>
  A2AServer.make(
    testAgent({ securitySchemes: { [name]: scheme.scheme }, security: [{ [name]: [...(scheme.scopes ?? [])] }] }),
    {
      authentication: {
        authenticators: { [name]: scheme.authenticator },
        authorize,
        realm,
        ...(clientCertificate === undefined ? {} : { clientCertificate })
      }
    }
  )

const taskCount = async (server: A2AServerHandle) => (await Effect.runPromise(server.runtime.store.list())).length

const withPresented = (presented: Presented, options: WireCallOptions = {}): WireCallOptions => ({
  ...options,
  headers: { ...options.headers, ...presented.headers },
  ...(presented.query === undefined ? {} : { url: `http://127.0.0.1/?${presented.query}` })
})

/** Checks a refusal answer: status, challenge, cache header, and the JSON-RPC error body. */
/**
 * Credentials are judged from the headers before the body is read, so those refusals cannot echo the
 * request's id (null); the authorization hook's 403 needs the method, so it comes after the body, with the id.
 */
const expectRefusal = (answer: WireAnswer, refusal: Refusal, id: number) => {
  expect(answer.status).toBe(refusal.status)
  expect(answer.headers.get("www-authenticate")).toBe(refusal.challenge)
  expect(answer.headers.get("content-type")).toBe("application/json")
  expect(answer.headers.get("cache-control")).toBe("no-store")
  expect(answer.body).toEqual({
    jsonrpc: "2.0",
    id: refusal.reason === "forbidden" ? id : null,
    error: {
      code: refusal.status === 401 ? -32041 : -32043,
      message: refusal.message,
      data: { status: refusal.status, reason: refusal.reason, schemes: refusal.schemes }
    }
  })
}

const missing = (schemeName: string, challenge: string): Refusal => ({
  status: 401,
  challenge,
  reason: "missing_credentials",
  message: "authentication required",
  schemes: [schemeName]
})

/** Checks a successful answer: the task ran for `principal`, over JSON or SSE. */
const expectServed = (answer: WireAnswer, transport: "message/send" | "message/stream", principal: string, id: number) => {
  expect(answer.status).toBe(200)
  if (transport === "message/send") {
    expect(answer.headers.get("content-type")).toContain("application/json")
    expect(answer.body.id).toBe(id)
    expect(answer.body.result).toMatchObject({ kind: "task", status: { state: "completed" } })
    expect(answer.body.result.status.message.parts[0].text).toBe(`done for ${principal}`)
    return answer.body.result.id as string
  }
  expect(answer.headers.get("content-type")).toContain("text/event-stream")
  expect(answer.events.length).toBeGreaterThanOrEqual(2)
  expect(answer.events.every((e) => e.id === id && e.error === undefined)).toBe(true)
  expect(answer.events[0].result.kind).toBe("task")
  const last = answer.events.at(-1).result
  expect(last).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } })
  expect(last.status.message.parts[0].text).toBe(`done for ${principal}`)
  return answer.events[0].result.id as string
}

let idp: IdentityProvider
beforeAll(async () => {
  idp = await startIdentityProvider()
})
afterAll(() => idp.close())

describe.each(["key-header", "key-query", "key-cookie", "jwt", "oauth2", "oidc"])("scheme %s", (name) => {
  let server: A2AServerHandle
  let scheme: SchemeCase
  beforeAll(async () => {
    scheme = cases(idp)[name]!
    server = await securedServer(name, scheme)
  })
  afterAll(() => server.dispose({ graceMs: 0 }))

  describe.each(["message/send", "message/stream"] as const)("over %s", (method) => {
    const call = (presented: Presented, id: number) =>
      wireCall(server.handler, method, textMessage("hi"), withPresented(presented, { id }))

    it("refuses a request without credentials with 401 and a challenge, creating no task", async () => {
      const before = await taskCount(server)
      expectRefusal(await call({}, 11), missing(name, scheme.missingChallenge), 11)
      expect(await taskCount(server)).toBe(before)
    })

    it("refuses wrong credentials with 401, creating no task", async () => {
      const before = await taskCount(server)
      expectRefusal(await call(await scheme.wrong(), 12), scheme.wrongRefusal, 12)
      expect(await taskCount(server)).toBe(before)
    })

    it("refuses valid credentials of a principal without permission with 403, creating no task", async () => {
      const before = await taskCount(server)
      expectRefusal(await call(await scheme.forbidden(), 13), scheme.forbiddenRefusal, 13)
      expect(await taskCount(server)).toBe(before)
    })

    it("serves the right credentials, and the task belongs to their principal", async () => {
      const taskId = expectServed(await call(await scheme.right(), 14), method, scheme.principal, 14)
      const record = await Effect.runPromise(server.runtime.store.get(taskId))
      expect(record._tag === "Some" && record.value.owner).toBe(scheme.principal)
    })
  })
})

/** `method` with a plain message, presenting `presented`. */
const call = (server: A2AServerHandle, method: string, presented: Presented) =>
  wireCall(server.handler, method, textMessage("hi"), withPresented(presented))

describe("refusals seen by the runtime", () => {
  it("a refused request never reaches the runtime: no task stored, none hosted", async () => {
    const scheme = cases(idp)["key-header"]!
    const server = await securedServer("key-header", scheme)
    try {
      for (const presented of [{}, await scheme.wrong(), await scheme.forbidden()]) {
        await call(server, "message/send", presented)
        await call(server, "message/stream", presented)
      }
      expect(await taskCount(server)).toBe(0)
      expect(server.runtime.hosted()).toBe(0)
    } finally {
      await server.dispose({ graceMs: 0 })
    }
  })

  it("a malformed bearer token is invalid_request (401), not a missing credential", async () => {
    const server = await securedServer("jwt", cases(idp)["jwt"]!)
    try {
      const answer = await call(server, "message/send", { headers: { authorization: "Bearer not a token" } })
      expect(answer.status).toBe(401)
      expect(answer.headers.get("www-authenticate")).toBe(
        `Bearer realm="${realm}", error="invalid_request", error_description="malformed bearer token"`
      )
      expect(answer.body.error.data.reason).toBe("invalid_request")
    } finally {
      await server.dispose({ graceMs: 0 })
    }
  })

  it("an unreachable identity provider answers 503 (credentials cannot be checked), creating no task", async () => {
    const gone = await startIdentityProvider()
    const token = await gone.token({ sub: "alice" })
    const discoveryUrl = gone.openIdConfigurationUrl
    await gone.close()
    const server = await securedServer("oidc", {
      scheme: { type: "openIdConnect", openIdConnectUrl: discoveryUrl },
      authenticator: bearerAuthenticator({ verify: oidcJwtVerifier({ discoveryUrl, audience: gone.audience, timeoutMs: 2_000 }) })
    })
    try {
      for (const method of ["message/send", "message/stream"] as const) {
        const answer = await call(server, method, bearer(token))
        expect(answer.status).toBe(503)
        expect(answer.body.error).toMatchObject({ code: -32603, data: { status: 503, reason: "unavailable", schemes: ["oidc"] } })
      }
      expect(await taskCount(server)).toBe(0)
    } finally {
      await server.dispose({ graceMs: 0 })
    }
  })

  it("OIDC discovery runs once and is cached across requests", async () => {
    const fresh = await startIdentityProvider()
    const scheme: SchemeCase = { ...cases(fresh)["oidc"]! }
    const server = await securedServer("oidc", scheme)
    try {
      for (let i = 0; i < 3; i++) expect((await call(server, "message/send", await scheme.right())).status).toBe(200)
      expect(fresh.requests.filter((p) => p === "/.well-known/openid-configuration")).toHaveLength(1)
      expect(fresh.requests.filter((p) => p === "/jwks.json")).toHaveLength(1)
    } finally {
      await server.dispose({ graceMs: 0 })
      await fresh.close()
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Mutual TLS over a real node:https server with client certificates made by openssl.

/** A JSON-RPC call over HTTPS presenting `client` (or no certificate). */
const httpsCall = (url: string, ca: string, client: Credentials | undefined, method: string, id: number) =>
  new Promise<WireAnswer>((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: textMessage("hi") })
    const req = httpsRequest(url, {
      method: "POST",
      ca,
      agent: false,
      ...(client === undefined ? {} : { cert: client.cert, key: client.key }),
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      timeout: 5_000
    }, (res) => {
      const headers = new Headers()
      for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v)
      const response = new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status: res.statusCode ?? 0, headers })
      readAnswer(response).then(resolve, reject)
    })
    req.on("error", reject)
    req.on("timeout", () => req.destroy(new Error("https request timed out")))
    req.end(body)
  })

describe.skipIf(!opensslAvailable())("scheme mtls (node:https, client certificates from openssl; skipped without the openssl command)", () => {
  let tls: TlsFixture
  let server: A2AServerHandle
  let https: HttpsServer
  let url: string
  // The request fibers of the Node handler belong to this scope, closed after the server.
  const requests = Effect.runSync(Scope.make())
  const seen: Array<PeerCertificateInfo | undefined> = []

  beforeAll(async () => {
    tls = makeTlsFixture()
    server = await securedServer("mtls", {
      scheme: { type: "mutualTLS" },
      authenticator: mutualTlsAuthenticator({
        byFingerprint: { [tls.clientA.fingerprint256]: { id: "agent-a" } },
        bySubject: { "CN=client-b,O=Example": { id: "blocked" } }
      })
    }, (request) => {
      const certificate = nodeClientCertificate(request)
      seen.push(certificate)
      return certificate
    })
    https = createHttpsServer(
      { key: tls.server.key, cert: tls.server.cert, ca: tls.ca, requestCert: true, rejectUnauthorized: false },
      Effect.runSync(NodeHttpServer.makeHandler(server.app, { scope: requests }))
    )
    await new Promise<void>((resolve) => https.listen(0, "127.0.0.1", () => resolve()))
    url = `https://127.0.0.1:${(https.address() as AddressInfo).port}/`
  })
  afterAll(async () => {
    https?.closeAllConnections()
    await new Promise<void>((resolve) => (https === undefined ? resolve() : https.close(() => resolve())))
    await server?.dispose({ graceMs: 0 })
    await Effect.runPromise(Scope.close(requests, Exit.void))
  })

  const challenge = `MutualTLS realm="${realm}"`

  describe.each(["message/send", "message/stream"] as const)("over %s", (method) => {
    it("refuses a connection without a client certificate with 401, creating no task", async () => {
      const before = await taskCount(server)
      expectRefusal(await httpsCall(url, tls.ca, undefined, method, 21), missing("mtls", challenge), 21)
      expect(await taskCount(server)).toBe(before)
    })

    it("refuses a self-signed certificate that copies a known subject (401), creating no task", async () => {
      const before = await taskCount(server)
      expectRefusal(await httpsCall(url, tls.ca, tls.impostor, method, 22), {
        status: 401,
        challenge,
        reason: "invalid_credentials",
        message: "client certificate not trusted",
        schemes: ["mtls"]
      }, 22)
      expect(await taskCount(server)).toBe(before)
    })

    it("refuses a trusted certificate whose principal lacks permission with 403, creating no task", async () => {
      const before = await taskCount(server)
      expectRefusal(await httpsCall(url, tls.ca, tls.clientB, method, 23), forbiddenByHook, 23)
      expect(await taskCount(server)).toBe(before)
    })

    it("serves the pinned client certificate", async () => {
      const taskId = expectServed(await httpsCall(url, tls.ca, tls.clientA, method, 24), method, "agent-a", 24)
      const record = await Effect.runPromise(server.runtime.store.get(taskId))
      expect(record._tag === "Some" && record.value.owner).toBe("agent-a")
    })
  })

  it("nodeClientCertificate reports what the TLS handshake established", async () => {
    seen.length = 0
    await httpsCall(url, tls.ca, tls.clientA, "message/send", 31)
    await httpsCall(url, tls.ca, tls.impostor, "message/send", 32)
    await httpsCall(url, tls.ca, undefined, "message/send", 33)
    expect(seen).toHaveLength(3)
    expect(seen[0]).toMatchObject({
      authorized: true,
      subject: "CN=client-a,O=Example",
      issuer: "CN=Test CA,O=a2a-actors tests",
      fingerprint256: tls.clientA.fingerprint256,
      subjectAltNames: ["URI:spiffe://example.test/agent-a"]
    })
    expect(new Date(seen[0]!.validTo!).getTime()).toBeGreaterThan(Date.now())
    expect(seen[1]).toMatchObject({ authorized: false, subject: "CN=client-a,O=Example", fingerprint256: tls.impostor.fingerprint256 })
    expect(seen[2]).toBeUndefined()
  })
})
