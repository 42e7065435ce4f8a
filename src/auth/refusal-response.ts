/**
 * The HTTP answer to a refused request.
 *
 * A2A says authentication failures use HTTP status codes (401 with `WWW-Authenticate`, 403)
 * and defines no JSON-RPC error code for them. We still send a JSON body shaped like the
 * binding's errors, because peers read it: the official JS client turns a non-2xx JSON-RPC body
 * with `jsonrpc` and `error` into a typed error (otherwise it only reports "HTTP error"), and its
 * REST client does the same with a `{ code, message }` body. The codes are ours, in the
 * implementation-defined server range (-32000 to -32099), far from the A2A-assigned -32001...:
 *
 * | status | code | message |
 * | --- | --- | --- |
 * | 401 | -32041 ({@link UNAUTHENTICATED_CODE}) | Authentication required / the refusal's reason |
 * | 403 | -32043 ({@link FORBIDDEN_CODE}) | Forbidden / insufficient scope |
 * | 503 | -32603 (InternalError) | credentials cannot be checked right now |
 *
 * `error.data` carries `{ status, reason, schemes }` (scheme names are public in the card).
 *
 * @module
 */
import type { AuthRefusal } from "./authenticate.ts"

/** JSON-RPC error code of a 401 refusal (implementation-defined server error). */
export const UNAUTHENTICATED_CODE = -32041
/** JSON-RPC error code of a 403 refusal (implementation-defined server error). */
export const FORBIDDEN_CODE = -32043
const INTERNAL_CODE = -32603

/** The wire error object of a refusal: `{ code, message, data }`. */
export const refusalError = (refusal: AuthRefusal) => ({
  code: refusal.status === 401 ? UNAUTHENTICATED_CODE : refusal.status === 403 ? FORBIDDEN_CODE : INTERNAL_CODE,
  message: refusal.message,
  data: { status: refusal.status, reason: refusal.reason, schemes: refusal.schemes }
})

/** Options of {@link refusalResponse}. */
export interface RefusalResponseOptions {
  /** `jsonrpc` (default): a JSON-RPC error response; `rest`: the bare error object. */
  readonly binding?: "jsonrpc" | "rest"
  /**
   * `"1.0"` writes 1.0's shapes: on JSON-RPC the error without `data` (1.0's `data` is a list of typed details,
   * and these codes have none); on REST a `google.rpc.Status` body (`{ error: { code, status, message } }`).
   * Default `"0.3"`.
   */
  readonly version?: "0.3" | "1.0"
}

const statusNames: Readonly<Record<number, string>> = { 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 503: "UNAVAILABLE" }

const v1Body = (refusal: AuthRefusal, requestId: string | number | null | undefined, binding: "jsonrpc" | "rest") => {
  const { code, message } = refusalError(refusal)
  return binding === "rest"
    ? { error: { code: refusal.status, status: statusNames[refusal.status] ?? "UNKNOWN", message } }
    : { jsonrpc: "2.0", id: requestId ?? null, error: { code, message } }
}

/**
 * The `Response` for a refusal: its status, `WWW-Authenticate` when there is a challenge,
 * `Cache-Control: no-store`, and a JSON body (see the module note). `requestId` is the JSON-RPC
 * `id` when the envelope was read before authentication, otherwise `null`.
 *
 * @example
 * Effect.catchTag("AuthRefusal", (refusal) => Effect.succeed(refusalResponse(refusal, null)))
 */
export const refusalResponse = (
  refusal: AuthRefusal,
  requestId: string | number | null | undefined,
  options: RefusalResponseOptions = {}
): Response => {
  const error = refusalError(refusal)
  const body = options.version === "1.0"
    ? v1Body(refusal, requestId, options.binding ?? "jsonrpc")
    : options.binding === "rest" ? error : { jsonrpc: "2.0", id: requestId ?? null, error }
  const headers = new Headers({ "content-type": "application/json", "cache-control": "no-store" })
  if (refusal.challenge !== undefined && refusal.challenge !== "") headers.set("www-authenticate", refusal.challenge)
  return new Response(JSON.stringify(body), { status: refusal.status, headers })
}
