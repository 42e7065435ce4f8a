/**
 * Token verification for `openIdConnect` (and `oauth2` with `oauth2MetadataUrl`) schemes: the
 * provider's metadata document names its issuer and `jwks_uri`; tokens are then checked like any
 * JWT.
 *
 * @module
 */
import { Clock, Effect } from "effect"
import type { JWTVerifyGetKey } from "jose"
import { AuthFailure } from "./authenticator.ts"
import { jwtKey, verifyJwtWith, type JwtClaimRules, type JwtVerifier } from "./jwt-verifier.ts"

/** Options of {@link oidcJwtVerifier}. Give `discoveryUrl`, `issuer`, or both. */
export type OidcVerifierOptions = Omit<JwtClaimRules, "issuer"> & OidcLocation & {
  readonly fetch?: typeof fetch
  /** How long the metadata is reused before it is fetched again; default one hour. */
  readonly cacheTtlMs?: number
  /** Bound on each metadata and JWKS fetch; default 5 s. */
  readonly timeoutMs?: number
}

/**
 * Where the metadata is. `discoveryUrl`: the scheme's `openIdConnectUrl`, or an RFC 8414
 * `oauth2MetadataUrl`; default `<issuer>/.well-known/openid-configuration`. `issuer`: the
 * expected issuer, which the document must name exactly; default the document's own.
 */
export type OidcLocation =
  | { readonly discoveryUrl: URL | string; readonly issuer?: string }
  | { readonly issuer: string }

interface Discovered {
  readonly issuer: string
  readonly jwksUri: string
  readonly getKey: JWTVerifyGetKey
  readonly fetchedAt: number
}

const unavailable = (message: string, cause?: unknown) => new AuthFailure({ reason: "unavailable", message, cause })

/**
 * A JWT verifier that discovers the provider's issuer and key set on first use and caches them
 * (`cacheTtlMs`). A failed discovery is not cached: the next request tries again, and meanwhile
 * tokens are refused as `unavailable` (HTTP 503), not as invalid.
 *
 * @example
 * const verify = oidcJwtVerifier({ discoveryUrl: scheme.openIdConnectUrl, audience: "https://agent.example" })
 * const authenticator = bearerAuthenticator({ verify })
 */
export const oidcJwtVerifier = (options: OidcVerifierOptions): JwtVerifier => {
  const discoveryUrl = new URL(
    "discoveryUrl" in options
      ? options.discoveryUrl
      : `${options.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`
  )
  const fetchImpl = options.fetch ?? globalThis.fetch
  const ttl = options.cacheTtlMs ?? 3_600_000
  const timeoutMs = options.timeoutMs ?? 5_000
  let current: Discovered | undefined
  let inFlight: Promise<Discovered> | undefined

  const discover = async (now: number): Promise<Discovered> => {
    const response = await fetchImpl(discoveryUrl, {
      headers: { accept: "application/json" },
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs)
    })
    if (!response.ok) throw new Error(`metadata answered HTTP ${response.status}`)
    const doc = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown }
    if (typeof doc.issuer !== "string" || typeof doc.jwks_uri !== "string") {
      throw new Error("metadata lacks issuer or jwks_uri")
    }
    if (options.issuer !== undefined && doc.issuer !== options.issuer) {
      throw new Error(`metadata names issuer ${doc.issuer}, expected ${options.issuer}`)
    }
    // Keep the key set (and jose's key cache) when the document still points at the same JWKS.
    const getKey = current?.jwksUri === doc.jwks_uri
      ? current.getKey
      : (jwtKey({ jwksUrl: doc.jwks_uri, fetch: fetchImpl, timeoutMs }) as JWTVerifyGetKey)
    return { issuer: doc.issuer, jwksUri: doc.jwks_uri, getKey, fetchedAt: now }
  }

  const metadata = (now: number): Effect.Effect<Discovered, AuthFailure> => {
    if (current !== undefined && now - current.fetchedAt < ttl) return Effect.succeed(current)
    return Effect.tryPromise({
      try: () => {
        inFlight ??= discover(now).then(
          (found) => {
            current = found
            inFlight = undefined
            return found
          },
          (error: unknown) => {
            inFlight = undefined
            throw error
          }
        )
        return inFlight
      },
      catch: (cause) => unavailable("identity provider metadata could not be fetched", cause)
    })
  }

  return (token) =>
    Clock.currentTimeMillis.pipe(
      Effect.flatMap(metadata),
      Effect.flatMap((found) => verifyJwtWith(token, found.getKey, { ...options, issuer: found.issuer }))
    )
}
