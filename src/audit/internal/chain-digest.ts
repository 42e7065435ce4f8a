/**
 * The link function shared by the hash-chained sink and its verifier: one place decides what is
 * hashed, so writer and checker cannot drift apart.
 *
 * @module
 */
import { canonicalRecord } from "./canonical-line.ts"

/** The `prev` of the first line of a chain that does not continue an earlier one. */
export const GENESIS_HASH = "0".repeat(64)

const encoder = new TextEncoder()

const toHex = (buffer: ArrayBuffer): string =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

/**
 * `hex(SHA-256(prev + canonical(body)))`, or HMAC-SHA-256 under `hmacKey`. `prev` is always 64 hex
 * characters, so the concatenation cannot be split two ways. `body` is the line without `prev`
 * and `hash`.
 */
export const chainDigest = async (
  prev: string,
  body: Readonly<Record<string, unknown>>,
  hmacKey?: CryptoKey
): Promise<string> => {
  const data = encoder.encode(prev + canonicalRecord(body))
  const digest = hmacKey === undefined
    ? await crypto.subtle.digest("SHA-256", data)
    : await crypto.subtle.sign("HMAC", hmacKey, data)
  return toHex(digest)
}
