/**
 * How our server proves itself to a webhook: the client's opaque token echoed in
 * `X-A2A-Notification-Token`, and a short-lived ES256 JWT in `Authorization: Bearer`, bound to the
 * webhook URL (`aud`) and the task (`taskId`), with a fresh `jti` per request so receivers can refuse
 * replays. A new token is signed for every attempt, so a retry never reuses a `jti`.
 *
 * @module
 */
import { bodyDigest, bodyDigestClaim } from "./body-digest.ts"
import { Clock, Effect } from "effect"
import * as jose from "jose"
import type { PushNotificationConfig } from "../../schemas/index.ts"
import { pushSigningAlg, type PushKeySet } from "./jwks.ts"

/** The header that carries the config's `token`. */
export const notificationTokenHeader = "X-A2A-Notification-Token"

/** What a signed notification is about. */
export interface SignInput {
  readonly taskId: string
  readonly config: PushNotificationConfig
  /** The exact body that will be sent; its digest is signed with it. */
  readonly body: string
}

/** Produces the authentication headers of one notification. */
export interface PushSigner {
  readonly headers: (input: SignInput) => Effect.Effect<Record<string, string>>
}

/** Options of {@link makePushSigner}. */
export interface PushSignerOptions {
  /** `iss`: this server's public base URL, as receivers know it. */
  readonly issuer: string
  readonly keys: PushKeySet
}

/** The claims of a push token, beyond the registered ones. */
export interface PushTokenClaims extends jose.JWTPayload {
  readonly taskId: string
  /** base64url SHA-256 of the body (see `body-digest.ts`). */
  readonly body_sha256: string
}

const wantsBearer = (config: PushNotificationConfig) => {
  const schemes = config.authentication?.schemes ?? []
  return schemes.length === 0 || schemes.some((s) => s.toLowerCase() === "bearer")
}

const tokenHeader = (config: PushNotificationConfig): Record<string, string> =>
  config.token === undefined ? {} : { [notificationTokenHeader]: config.token }

/**
 * Signs with the key set's current key. Which `Authorization` header is sent follows the config's
 * `authentication.schemes`: none given, or `Bearer` among them, gets our JWT (the credentials field is
 * not used as a bearer token: the webhook verifies us through the JWKS); another scheme with
 * `credentials` gets `<scheme> <credentials>`; another scheme without credentials gets no header.
 *
 * @example
 * const signer = makePushSigner({ issuer: "https://agent.example.com", keys })
 * const headers = yield* signer.headers({ taskId: task.id, config })
 */
export const makePushSigner = (options: PushSignerOptions): PushSigner => ({
  headers: ({ taskId, config, body }) =>
    Effect.gen(function*() {
      const headers = tokenHeader(config)
      if (!wantsBearer(config)) {
        const scheme = config.authentication?.schemes[0]
        const credentials = config.authentication?.credentials
        if (scheme !== undefined && credentials !== undefined) headers["Authorization"] = `${scheme} ${credentials}`
        return headers
      }
      const key = yield* options.keys.current
      const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const claims: PushTokenClaims = { taskId, [bodyDigestClaim]: yield* bodyDigest(body) }
      const jwt = yield* Effect.promise(() =>
        new jose.SignJWT(claims)
          .setProtectedHeader({ alg: pushSigningAlg, kid: key.kid, typ: "JWT" })
          .setIssuer(options.issuer)
          .setAudience(config.url)
          .setIssuedAt(now)
          .setExpirationTime(now + options.keys.tokenTtlSeconds)
          .setJti(crypto.randomUUID())
          .sign(key.privateKey)
      )
      headers["Authorization"] = `Bearer ${jwt}`
      return headers
    })
})

/** A signer that sends only the config's token (and scheme credentials): for servers without keys. */
export const tokenOnlySigner: PushSigner = {
  headers: ({ config }) =>
    Effect.sync(() => {
      const headers = tokenHeader(config)
      const scheme = config.authentication?.schemes[0]
      const credentials = config.authentication?.credentials
      if (scheme !== undefined && credentials !== undefined) headers["Authorization"] = `${scheme} ${credentials}`
      return headers
    })
}
