/**
 * A real identity provider on 127.0.0.1 for authentication tests: OpenID Connect discovery
 * (`/.well-known/openid-configuration`), RFC 8414 OAuth metadata
 * (`/.well-known/oauth-authorization-server`) and a JWKS (`/jwks.json`), with ES256 tokens
 * issued in-process. A second key that claims the same `kid` signs forged tokens.
 *
 * @module
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose"

/** Options of one issued token. */
export interface TokenOptions {
  /** Sign with the forger's key (same `kid`, not in the JWKS). */
  readonly forged?: boolean
  /** Seconds until `exp`; negative for an expired token. Default 300. */
  readonly expiresIn?: number
  /** Overrides `aud`. */
  readonly audience?: string
}

/** A running identity provider. */
export interface IdentityProvider {
  readonly issuer: string
  readonly jwksUrl: string
  readonly openIdConfigurationUrl: string
  readonly oauthMetadataUrl: string
  /** The audience tokens are issued for by default. */
  readonly audience: string
  /** Paths requested so far, in order. */
  readonly requests: ReadonlyArray<string>
  readonly token: (claims: JWTPayload, options?: TokenOptions) => Promise<string>
  readonly close: () => Promise<void>
}

const KID = "idp-key-1"

/** Starts an identity provider on a free loopback port. */
export const startIdentityProvider = async (audience = "https://agent.test/a2a"): Promise<IdentityProvider> => {
  const genuine = await generateKeyPair("ES256", { extractable: true })
  const forger = await generateKeyPair("ES256")
  const jwks = { keys: [{ ...(await exportJWK(genuine.publicKey)), kid: KID, alg: "ES256", use: "sig" }] }
  const requests: Array<string> = []
  let issuer = ""
  const server = createServer((req, res) => {
    requests.push(req.url ?? "")
    const json = (body: unknown) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    switch (req.url) {
      case "/.well-known/openid-configuration":
      case "/.well-known/oauth-authorization-server":
        return json({
          issuer,
          jwks_uri: `${issuer}/jwks.json`,
          token_endpoint: `${issuer}/token`,
          authorization_endpoint: `${issuer}/authorize`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["ES256"]
        })
      case "/jwks.json":
        return json(jwks)
      default:
        res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    issuer,
    jwksUrl: `${issuer}/jwks.json`,
    openIdConfigurationUrl: `${issuer}/.well-known/openid-configuration`,
    oauthMetadataUrl: `${issuer}/.well-known/oauth-authorization-server`,
    audience,
    requests,
    token: (claims, options = {}) => {
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", kid: KID, typ: "at+jwt" })
        .setIssuer(issuer)
        .setAudience(options.audience ?? audience)
        .setIssuedAt(now - 10)
        .setExpirationTime(now + (options.expiresIn ?? 300))
        .sign(options.forged === true ? forger.privateKey : genuine.privateKey)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
