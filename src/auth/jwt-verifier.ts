/**
 * JWT access-token verification (signature, issuer, audience, time) for bearer, OAuth 2 and
 * OpenID Connect schemes, on `jose` and Web Crypto.
 *
 * @module
 */
import { Clock, Effect } from "effect"
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  type KeyInput
} from "jose"
import { AuthFailure } from "./authenticator.ts"

/** Verifies a compact JWT; succeeds with its verified claims. */
export type JwtVerifier = (token: string) => Effect.Effect<JWTPayload, AuthFailure>

/** Where verification keys come from. */
export type JwtKeySource =
  /** One key (public key, JWK, or HMAC secret). */
  | { readonly key: KeyInput }
  /** A key set in memory. */
  | { readonly jwks: JSONWebKeySet }
  /** A JWKS URL, fetched with `fetch` (default: global) and cached by `jose`. */
  | { readonly jwksUrl: URL | string; readonly fetch?: typeof fetch; readonly timeoutMs?: number }
  /** Any `jose` key resolver. */
  | { readonly getKey: JWTVerifyGetKey }

/** What a token must satisfy besides its signature. */
export interface JwtClaimRules {
  /** Accepted `iss` value(s). */
  readonly issuer: string | ReadonlyArray<string>
  /** Accepted `aud` value(s): this agent's identifier at the authorization server. */
  readonly audience: string | ReadonlyArray<string>
  /** Accepted algorithms; default: asymmetric ones only (no `none`, no HMAC unless listed). */
  readonly algorithms?: ReadonlyArray<string>
  /** Allowed clock skew for `exp`, `nbf`, `iat`; default 60 s. */
  readonly clockToleranceSeconds?: number
  /** Refuse tokens issued longer ago than this (needs `iat`). */
  readonly maxTokenAgeSeconds?: number
  /** Claims that must be present, e.g. `["sub"]`. `exp` is always required. */
  readonly requiredClaims?: ReadonlyArray<string>
  /** Required `typ` header, e.g. `at+jwt` (RFC 9068). */
  readonly typ?: string
}

const asymmetric = [
  "ES256", "ES384", "ES512", "EdDSA", "Ed25519", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"
]

/** Resolves a {@link JwtKeySource} to what `jwtVerify` takes. */
export const jwtKey = (source: JwtKeySource): KeyInput | JWTVerifyGetKey => {
  if ("key" in source) return source.key
  if ("jwks" in source) return createLocalJWKSet(source.jwks)
  if ("getKey" in source) return source.getKey
  return createRemoteJWKSet(new URL(source.jwksUrl), {
    ...(source.fetch === undefined ? {} : { [customFetch]: source.fetch }),
    ...(source.timeoutMs === undefined ? {} : { timeoutDuration: source.timeoutMs })
  })
}

const invalidCodes = new Set([
  "ERR_JWT_EXPIRED",
  "ERR_JWT_CLAIM_VALIDATION_FAILED",
  "ERR_JWT_INVALID",
  "ERR_JWS_INVALID",
  "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
  "ERR_JOSE_ALG_NOT_ALLOWED",
  "ERR_JOSE_NOT_SUPPORTED",
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
  "ERR_JWK_INVALID"
])

/**
 * Classifies a `jose` error: a problem with the token is `invalid_credentials`; a key set that
 * cannot be fetched or read (timeout, network, non-200, not a JWKS) is `unavailable`, so the
 * caller answers 503 rather than telling the client its token is bad.
 */
export const toAuthFailure = (cause: unknown): AuthFailure => {
  const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined
  if (typeof code === "string" && invalidCodes.has(code)) {
    const claim = (cause as { claim?: unknown }).claim
    const message = code === "ERR_JWT_EXPIRED"
      ? "token expired"
      : typeof claim === "string"
      ? `token claim "${claim}" check failed`
      : "token signature or format is invalid"
    return new AuthFailure({ reason: "invalid_credentials", message, cause })
  }
  return new AuthFailure({ reason: "unavailable", message: "token keys could not be obtained", cause })
}

/** Checks the claim rules on a token with a key resolved lazily per call. */
export const verifyJwtWith = (
  token: string,
  key: KeyInput | JWTVerifyGetKey,
  rules: JwtClaimRules
): Effect.Effect<JWTPayload, AuthFailure> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.tryPromise({
      try: async () =>
        (await jwtVerify(token, key as JWTVerifyGetKey, {
          issuer: typeof rules.issuer === "string" ? rules.issuer : [...rules.issuer],
          audience: typeof rules.audience === "string" ? rules.audience : [...rules.audience],
          algorithms: [...(rules.algorithms ?? asymmetric)],
          clockTolerance: rules.clockToleranceSeconds ?? 60,
          currentDate: new Date(now),
          requiredClaims: ["exp", ...(rules.requiredClaims ?? [])],
          ...(rules.maxTokenAgeSeconds === undefined ? {} : { maxTokenAge: rules.maxTokenAgeSeconds }),
          ...(rules.typ === undefined ? {} : { typ: rules.typ })
        })).payload,
      catch: toAuthFailure
    }))

/**
 * A JWT verifier over a fixed key source. Time comes from Effect's `Clock` (tests use `TestClock`).
 *
 * @example
 * const verify = jwtVerifier({ jwksUrl: "https://idp.example/jwks", issuer: "https://idp.example", audience: "https://agent.example" })
 */
export const jwtVerifier = (options: JwtKeySource & JwtClaimRules): JwtVerifier => {
  const key = jwtKey(options)
  return (token) => verifyJwtWith(token, key, options)
}
