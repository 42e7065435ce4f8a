/**
 * API keys in a header, query parameter or cookie, where the card's `APIKeySecurityScheme` says.
 *
 * @module
 */
import { Effect } from "effect"
import { AuthFailure, type Authenticator } from "./authenticator.ts"
import { readCookie, type AuthRequest } from "./auth-request.ts"
import type { Principal } from "./principal.ts"

/** Where the key comes from: a static map of key to principal, or your own lookup. */
export type ApiKeySource =
  | { readonly keys: Readonly<Record<string, Principal>> }
  | { readonly verify: (key: string) => Effect.Effect<Principal | undefined, AuthFailure> }

const encoder = new TextEncoder()

const digestHex = async (text: string): Promise<string> =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))), (b) =>
    b.toString(16).padStart(2, "0")).join("")

const staticKeyLookup = (keys: Readonly<Record<string, Principal>>) => {
  // Digests are computed once, on first use (Web Crypto digests are async).
  let table: Promise<Map<string, Principal>> | undefined
  const load = () =>
    (table ??= Promise.all(
      Object.entries(keys).map(async ([key, principal]) => [await digestHex(key), principal] as const)
    ).then((entries) => new Map(entries)))
  return (key: string): Effect.Effect<Principal | undefined> =>
    Effect.promise(async () => (await load()).get(await digestHex(key)))
}

/** The key a request presents for an API-key scheme, or `undefined`. */
export const presentedApiKey = (
  request: AuthRequest,
  scheme: { readonly in: "header" | "query" | "cookie"; readonly name: string }
): string | undefined => {
  switch (scheme.in) {
    case "header":
      return request.headers.get(scheme.name) ?? undefined
    case "query":
      return request.url.searchParams.get(scheme.name) ?? undefined
    case "cookie":
      return readCookie(request, scheme.name)
  }
}

/**
 * An authenticator for `apiKey` schemes. Static keys are compared by their SHA-256 digest, so
 * lookup time does not depend on how much of a guessed key is right. Prefer `header` over `query`:
 * query strings end up in access logs.
 *
 * @example
 * apiKeyAuthenticator({ keys: { [process.env.PARTNER_KEY!]: { id: "partner-a" } } })
 */
export const apiKeyAuthenticator = (source: ApiKeySource): Authenticator => {
  const lookup = "keys" in source ? staticKeyLookup(source.keys) : source.verify
  return (request, { scheme }) =>
    Effect.gen(function* () {
      if (scheme.type !== "apiKey") {
        return yield* Effect.die(`apiKeyAuthenticator bound to a ${scheme.type} scheme`)
      }
      const key = presentedApiKey(request, scheme)
      if (key === undefined) return undefined
      if (key === "") return yield* new AuthFailure({ reason: "invalid_request", message: "empty API key" })
      const principal = yield* lookup(key)
      if (principal === undefined) {
        return yield* new AuthFailure({ reason: "invalid_credentials", message: "unknown API key" })
      }
      return principal
    })
}
