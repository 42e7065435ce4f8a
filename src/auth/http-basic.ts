/**
 * HTTP Basic authentication (RFC 7617) for `http` schemes with `scheme: "basic"`.
 *
 * @module
 */
import { Effect } from "effect"
import { AuthFailure, type Authenticator } from "./authenticator.ts"
import { authorizationCredentials } from "./bearer.ts"
import type { Principal } from "./principal.ts"

/** Checks a user id and password; `undefined` for unknown users or wrong passwords. */
export type BasicVerify = (user: string, password: string) => Effect.Effect<Principal | undefined, AuthFailure>

const decodeBase64Utf8 = (text: string): string | undefined => {
  try {
    const binary = atob(text)
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

/** A Basic authenticator; only use it over HTTPS, the password travels in every request. */
export const basicAuthenticator = (verify: BasicVerify): Authenticator => (request) =>
  Effect.gen(function* () {
    const credentials = authorizationCredentials(request, "basic")
    if (credentials === undefined) return undefined
    const decoded = decodeBase64Utf8(credentials)
    const colon = decoded?.indexOf(":") ?? -1
    if (decoded === undefined || colon < 0) {
      return yield* new AuthFailure({ reason: "invalid_request", message: "malformed Basic credentials" })
    }
    const principal = yield* verify(decoded.slice(0, colon), decoded.slice(colon + 1))
    if (principal === undefined) {
      return yield* new AuthFailure({ reason: "invalid_credentials", message: "wrong user id or password" })
    }
    return principal
  })
