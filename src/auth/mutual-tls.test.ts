import { Effect, Result } from "effect"
import { describe, expect, it } from "vitest"
import type { AuthRequest, PeerCertificateInfo } from "./auth-request.ts"
import { mutualTlsAuthenticator } from "./mutual-tls.ts"

const fp = "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89"
const cert = (overrides: Partial<PeerCertificateInfo> = {}): PeerCertificateInfo => ({
  authorized: true,
  subject: "CN=client-a,O=Example",
  issuer: "CN=Example CA",
  fingerprint256: fp,
  ...overrides
})
const req = (clientCertificate?: PeerCertificateInfo): AuthRequest => ({
  headers: new Headers(),
  url: new URL("https://agent.example/a2a"),
  ...(clientCertificate === undefined ? {} : { clientCertificate })
})
const run = (auth: ReturnType<typeof mutualTlsAuthenticator>, request: AuthRequest) =>
  Effect.runPromise(Effect.result(auth(request, { schemeName: "mtls", scheme: { type: "mutualTLS" } })))

describe("mutualTlsAuthenticator", () => {
  it("maps a pinned fingerprint (any hex spelling) to a principal with certificate claims", async () => {
    const auth = mutualTlsAuthenticator({ byFingerprint: { [fp.replaceAll(":", "").toLowerCase()]: { id: "svc-a" } } })
    expect(Result.getOrThrow(await run(auth, req(cert())))).toEqual({
      id: "svc-a",
      claims: { subject: "CN=client-a,O=Example", issuer: "CN=Example CA", fingerprint256: fp.replaceAll(":", "").toLowerCase() }
    })
  })

  it("maps a subject, or defers to verify", async () => {
    const auth = mutualTlsAuthenticator({
      bySubject: { "CN=client-a,O=Example": { id: "client-a" } },
      verify: (c) => Effect.succeed(c.subjectAltNames?.includes("URI:spiffe://example/b") ? { id: "spiffe-b" } : undefined)
    })
    expect(Result.getOrThrow(await run(auth, req(cert())))).toMatchObject({ id: "client-a" })
    const b = cert({ subject: "CN=b", fingerprint256: "00", subjectAltNames: ["URI:spiffe://example/b"] })
    expect(Result.getOrThrow(await run(auth, req(b)))).toMatchObject({ id: "spiffe-b" })
    const stranger = await run(auth, req(cert({ subject: "CN=x", fingerprint256: "11" })))
    expect(Result.isFailure(stranger) && stranger.failure.reason).toBe("invalid_credentials")
  })

  it("has no credentials without a certificate and refuses one the TLS layer did not verify", async () => {
    const auth = mutualTlsAuthenticator({ bySubject: { "CN=client-a,O=Example": { id: "client-a" } } })
    expect(await run(auth, req())).toEqual(Result.succeed(undefined))
    const untrusted = await run(auth, req(cert({ authorized: false })))
    expect(Result.isFailure(untrusted) && untrusted.failure.message).toBe("client certificate not trusted")
  })
})
