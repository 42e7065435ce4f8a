/**
 * Which A2A version a request speaks, read from its `A2A-Version` header or, without one, its `A2A-Version`
 * query parameter (spec 1.0 §3.6). Absent or empty means 0.3, as the spec requires (0.3 clients send no
 * header); `0.3` is 0.3 (1.x clients send it to 0.3 interfaces); `1.0` is 1.0. A patch number is ignored
 * (`1.0.1` is 1.0, §3.6). Anything else is a version this server does not speak: VersionNotSupportedError.
 *
 * @module
 */
import type { HttpServerRequest } from "effect/http"
import { VersionNotSupported } from "../../schemas/error-catalogue.ts"

/** The protocol versions this server speaks. */
export type ProtocolVersion = "0.3" | "1.0"

/** The versions, newest first (the order the card lists interfaces in). */
export const protocolVersions: ReadonlyArray<ProtocolVersion> = ["1.0", "0.3"]

/** The request header (and query parameter) that names the version. */
export const versionHeader = "a2a-version"

/** The outcome of {@link negotiateVersion}. */
export type Negotiated =
  | { readonly _tag: "Version"; readonly version: ProtocolVersion }
  | { readonly _tag: "Unsupported"; readonly error: VersionNotSupported }

const v03: Negotiated = { _tag: "Version", version: "0.3" }
const v10: Negotiated = { _tag: "Version", version: "1.0" }

/** The version a header or query value names (see the module comment). */
export const versionOf = (value: string | undefined | null): Negotiated => {
  const v = value?.trim() ?? ""
  if (v === "") return v03
  if (/^0\.3(\.\d+)?$/.test(v)) return v03
  if (/^1\.0(\.\d+)?$/.test(v)) return v10
  const shown = v.length > 20 ? `${v.slice(0, 19)}…` : v
  return {
    _tag: "Unsupported",
    error: new VersionNotSupported({ message: `A2A-Version ${JSON.stringify(shown)} is not supported; this agent speaks 0.3 and 1.0` })
  }
}

const queryVersion = (url: string): string | null => {
  const at = url.indexOf("?")
  if (at < 0) return null
  const query = new URLSearchParams(url.slice(at + 1))
  return query.get("A2A-Version") ?? query.get("a2a-version")
}

/** The version of `request`: its header, else its query parameter, else 0.3. */
export const negotiateVersion = (request: HttpServerRequest.HttpServerRequest): Negotiated => {
  const header = request.headers[versionHeader]
  return versionOf(header !== undefined && header.trim() !== "" ? header : queryVersion(request.url))
}
