/**
 * Which request bodies are read as JSON: those sent with a JSON media type.
 *
 * Reading any body as JSON whatever its `Content-Type` lets a Web page post to an agent: a browser sends
 * `text/plain`, `application/x-www-form-urlencoded` and `multipart/form-data` across origins without asking
 * (no CORS preflight), with the user's cookies, HTTP basic credentials or client certificate. A JSON media
 * type cannot be sent that way, so requiring one closes that door. Accepted (case-insensitive):
 *
 * - `application/json` (what JSON-RPC and the official SDKs and kits send),
 * - `application/a2a+json` (A2A 1.0's media type), and any other `application/<name>+json` (RFC 6839),
 * - with any parameters, except a `charset` other than UTF-8: the body is always read as UTF-8.
 *
 * @module
 */

const mediaType = /^\s*application\/(?:json|[a-z0-9!#$&^_.-]+\+json)\s*(?:;(.*))?$/i

/** The value of a `charset` parameter in `params` (`; charset="utf-8"; q=1`), when there is one. */
const charsetOf = (params: string): string | undefined => {
  for (const param of params.split(";")) {
    const eq = param.indexOf("=")
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== "charset") continue
    return param.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase()
  }
  return undefined
}

/**
 * Whether a `Content-Type` header value names a JSON media type this server reads (see the module note).
 *
 * @example
 * isJsonMediaType("application/json; charset=utf-8") // true
 * isJsonMediaType("application/a2a+json") // true
 * isJsonMediaType("text/plain") // false
 */
export const isJsonMediaType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const match = mediaType.exec(contentType)
  if (match === null) return false
  const charset = match[1] === undefined ? undefined : charsetOf(match[1])
  return charset === undefined || charset === "utf-8" || charset === "utf8"
}
