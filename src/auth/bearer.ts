/**
 * `Authorization: Bearer` tokens for `http`/`bearer`, `oauth2` and `openIdConnect` schemes (the
 * latter two send access tokens as bearer tokens, RFC 6750).
 *
 * @module
 */
import { Effect } from "effect"
import type { JWTPayload } from "jose"
import { AuthFailure, type Authenticator } from "./authenticator.ts"
import type { AuthRequest } from "./auth-request.ts"
import type { JwtVerifier } from "./jwt-verifier.ts"
import type { Principal } from "./principal.ts"

// RFC 6750 section 2.1: b64token.
const b64token = /^[A-Za-z0-9\-._~+/]+=*$/

/**
 * The credentials of `Authorization: <scheme> <credentials>` when the scheme matches
 * (case-insensitively), `undefined` when the header is absent or names another scheme.
 */
export const authorizationCredentials = (request: AuthRequest, scheme: string): string | undefined => {
  const header = request.headers.get("authorization")
  if (header === null) return undefined
  const space = header.indexOf(" ")
  const name = space < 0 ? header : header.slice(0, space)
  if (name.toLowerCase() !== scheme.toLowerCase()) return undefined
  return space < 0 ? "" : header.slice(space + 1).trim()
}

/** The default principal of a token: `sub` (or `client_id`, `azp` for client tokens), all claims kept. */
export const principalFromClaims = (claims: JWTPayload): Principal | undefined => {
  const id = [claims.sub, claims["client_id"], claims["azp"]].find((v): v is string => typeof v === "string" && v !== "")
  return id === undefined ? undefined : { id, claims }
}

/** Options of {@link bearerAuthenticator}. */
export interface BearerOptions {
  readonly verify: JwtVerifier
  /** Maps verified claims to a principal; default {@link principalFromClaims}. */
  readonly toPrincipal?: (claims: JWTPayload) => Principal | undefined
}

/**
 * A bearer-token authenticator; bind it to `http` (scheme `bearer`), `oauth2` or `openIdConnect`
 * schemes. A request without a bearer token has no credentials for this scheme.
 *
 * @example
 * bearerAuthenticator({ verify: jwtVerifier({ jwksUrl, issuer, audience }) })
 */
export const bearerAuthenticator = (options: BearerOptions): Authenticator => (request) =>
  Effect.gen(function* () {
    const token = authorizationCredentials(request, "bearer")
    if (token === undefined) return undefined
    if (!b64token.test(token)) {
      return yield* new AuthFailure({ reason: "invalid_request", message: "malformed bearer token" })
    }
    const claims = yield* options.verify(token)
    const principal = (options.toPrincipal ?? principalFromClaims)(claims)
    if (principal === undefined) {
      return yield* new AuthFailure({ reason: "invalid_credentials", message: "token names no subject" })
    }
    return principal
  })
