/**
 * The digest that binds a push token to the body it came with: SHA-256 of the exact body
 * bytes, base64url-encoded (the `body_sha256` claim). Without it an intermediary could change
 * the Task JSON of a notification while its token still verified.
 */
import { Effect } from "effect"

/** The name of the claim. */
export const bodyDigestClaim = "body_sha256"

/** base64url(SHA-256(UTF-8 bytes of `body`)). */
export const bodyDigest = (body: string): Effect.Effect<string> =>
  Effect.promise(async () => {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)))
    let binary = ""
    for (const byte of digest) binary += String.fromCharCode(byte)
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
  })
