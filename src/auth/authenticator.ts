/**
 * The authentication seam: one `Authenticator` per security scheme the agent card declares.
 *
 * @module
 */
import { Data, type Effect } from "effect"
import type { SecurityScheme } from "../../schemas/index.ts"
import type { AuthRequest } from "./auth-request.ts"
import type { Principal } from "./principal.ts"

/** Why presented credentials were not accepted. */
export type AuthFailureReason =
  /** The credential is syntactically wrong (e.g. an empty bearer token). */
  | "invalid_request"
  /** The credential is well-formed but wrong: unknown key, bad signature, expired, wrong audience. */
  | "invalid_credentials"
  /** The credential could not be checked now (identity provider or key set unreachable). */
  | "unavailable"

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const AuthFailureBase: ReturnType<typeof Data.TaggedError<"AuthFailure">> = Data.TaggedError("AuthFailure")

/** Credentials were presented for a scheme and refused. Absent credentials are not a failure. */
export class AuthFailure extends AuthFailureBase<{
  readonly reason: AuthFailureReason
  readonly message: string
  readonly cause?: unknown
}> {}

/** The scheme an authenticator is asked to check, as the card declares it. */
export interface AuthContext {
  readonly schemeName: string
  readonly scheme: SecurityScheme
}

/**
 * Checks one scheme's credentials: a `Principal` when they are valid, `undefined` when the request
 * carries none for this scheme, {@link AuthFailure} when they are wrong.
 */
export type Authenticator = (
  request: AuthRequest,
  context: AuthContext
) => Effect.Effect<Principal | undefined, AuthFailure>

/**
 * The scopes a principal holds, read from OAuth-style claims: `scope` (space separated),
 * `scp` (array or string) or `scopes` (array). Requirement scopes are checked against these.
 */
export const grantedScopes = (principal: Principal): ReadonlySet<string> => {
  const claims = principal.claims ?? {}
  const out = new Set<string>()
  for (const value of [claims["scope"], claims["scp"], claims["scopes"]]) {
    if (typeof value === "string") for (const s of value.split(" ")) if (s !== "") out.add(s)
    if (Array.isArray(value)) for (const s of value) if (typeof s === "string") out.add(s)
  }
  return out
}
