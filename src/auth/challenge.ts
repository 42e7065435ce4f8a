/**
 * `WWW-Authenticate` challenges (RFC 9110 section 11.6.1) for the schemes an agent card declares,
 * so a refused client learns what to send.
 *
 * Values per scheme type:
 * - `http`: the scheme itself, e.g. `Bearer realm="a2a"`, `Basic realm="a2a", charset="UTF-8"`
 * - `oauth2`, `openIdConnect`: `Bearer realm="a2a"`, plus `scope="..."` when the requirement
 *   names scopes (RFC 6750 section 3)
 * - `apiKey`: `ApiKey realm="a2a", in="header", name="X-API-Key"` (no registered scheme
 *   exists; the parameters repeat the card so the client can act without it)
 * - `mutualTLS`: `MutualTLS realm="a2a"` (informational; a certificate is not sent in HTTP)
 *
 * Bearer-style challenges add RFC 6750 `error` (`invalid_request`, `invalid_token`,
 * `insufficient_scope`) and `error_description` when presented credentials were refused.
 *
 * @module
 */
import type { SecurityScheme } from "../../schemas/index.ts"

/** The RFC 6750 error code of a refused bearer credential. */
export type BearerError = "invalid_request" | "invalid_token" | "insufficient_scope"

/** What to say about one scheme. */
export interface ChallengeDetail {
  readonly realm: string
  /** Scopes the requirement asks for. */
  readonly scopes?: ReadonlyArray<string>
  readonly error?: BearerError
  readonly errorDescription?: string
}

/**
 * A quoted-string (RFC 9110 section 5.6.4). Header values must be ISO-8859-1 without controls:
 * controls become spaces and other non-Latin-1 characters `?`, so `Headers` never throws.
 */
export const quoted = (value: string): string =>
  `"${value.replace(/[\u0000-\u001f\u007f]/g, " ").replace(/[^\u0000-\u00ff]/g, "?").replace(/["\\]/g, "\\$&")}"`

const params = (entries: ReadonlyArray<readonly [string, string | undefined]>): string =>
  entries.filter((e): e is readonly [string, string] => e[1] !== undefined).map(([k, v]) => `${k}=${quoted(v)}`).join(", ")

const authScheme = (scheme: SecurityScheme): string => {
  switch (scheme.type) {
    case "apiKey":
      return "ApiKey"
    case "mutualTLS":
      return "MutualTLS"
    case "oauth2":
    case "openIdConnect":
      return "Bearer"
    case "http": {
      // RFC 7235 auth-scheme token; canonical capitalisation for the registered ones.
      const name = scheme.scheme.replace(/[^A-Za-z0-9!#$%&'*+.^_`|~-]/g, "")
      const lower = name.toLowerCase()
      return lower === "bearer" ? "Bearer" : lower === "basic" ? "Basic" : lower === "digest" ? "Digest" : name || "Unknown"
    }
  }
}

/** One challenge for `scheme`, e.g. `Bearer realm="a2a", error="invalid_token"`. */
export const challengeFor = (scheme: SecurityScheme, detail: ChallengeDetail): string => {
  const name = authScheme(scheme)
  const bearerLike = name === "Bearer"
  const scope = detail.scopes !== undefined && detail.scopes.length > 0 ? detail.scopes.join(" ") : undefined
  const entries: Array<readonly [string, string | undefined]> = [["realm", detail.realm]]
  if (scheme.type === "apiKey") entries.push(["in", scheme.in], ["name", scheme.name])
  if (name === "Basic") entries.push(["charset", "UTF-8"])
  if (bearerLike || scheme.type === "apiKey" || scheme.type === "mutualTLS") entries.push(["scope", scope])
  if (bearerLike && detail.error !== undefined) {
    entries.push(["error", detail.error], ["error_description", detail.errorDescription])
  }
  return `${name} ${params(entries)}`
}

/** Joins challenges into one header value, dropping exact duplicates. */
export const joinChallenges = (challenges: ReadonlyArray<string>): string => [...new Set(challenges)].join(", ")
