/**
 * Verifies agent card signatures made by `signCard` (or any signer following the same rule:
 * detached JWS over the RFC 8785 canonical card without `signatures`).
 *
 * Verify the card as received (the parsed JSON), not a schema-decoded copy: decoding drops
 * members the schema does not know, and the signature covers them too.
 *
 * @module
 */
import { Data, Effect, Schema } from "effect"
import {
  base64url,
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  flattenedVerify,
  type JSONWebKeySet,
  type JWSHeaderParameters,
  type KeyInput
} from "jose"
import { AgentCardSignature } from "../../schemas/index.ts"
import { cardPayload } from "./internal/card-payload.ts"

/** Why a card did not verify. */
export type CardVerificationReason =
  /** No `signatures`, or an empty list. */
  | "unsigned"
  /** A signature entry is not a well-formed JWS, or the card has no canonical JSON form. */
  | "malformed"
  /** No signature names a key the resolver knows. */
  | "no-key"
  /** A signature made with a known key does not match the card: the card or signature changed. */
  | "invalid-signature"

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const CardVerificationErrorBase: ReturnType<typeof Data.TaggedError<"CardVerificationError">> = Data.TaggedError("CardVerificationError")

/** The typed failure of {@link verifyCard}. `index` points into `signatures` where relevant. */
export class CardVerificationError extends CardVerificationErrorBase<{
  readonly reason: CardVerificationReason
  readonly message: string
  readonly index?: number
  readonly cause?: unknown
}> {}

/**
 * Finds the public key for one signature from its headers (protected merged over unprotected).
 * Answer `undefined` for a key you do not know: that signature is then skipped, so a card may
 * carry signatures of several parties.
 */
export type CardKeyResolver = (
  header: JWSHeaderParameters,
  index: number
) => Effect.Effect<KeyInput | undefined, CardVerificationError>

/**
 * A base64url text is only accepted in its one canonical spelling: the last character may carry
 * unused bits, and a verifier that ignored them would accept bytes that differ from the signed ones.
 */
export const canonicalBase64url = (text: unknown): boolean => {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) return false
  try {
    return base64url.encode(base64url.decode(text)) === text
  } catch {
    return false
  }
}

/** A signature that verified. */
export interface VerifiedCardSignature {
  readonly index: number
  readonly alg: string
  readonly kid?: string
}

/** Options of {@link verifyCard}. */
export interface VerifyCardOptions {
  /** Accepted algorithms; default: the asymmetric JWS algorithms (no `none`, no HMAC). */
  readonly algorithms?: ReadonlyArray<string>
}

const defaultAlgorithms = [
  "ES256", "ES384", "ES512", "EdDSA", "Ed25519", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"
]

const decodeSignatures = Schema.decodeUnknownEffect(Schema.Array(AgentCardSignature))

/**
 * Verifies a card. Succeeds with the verified signatures when at least one signature verifies
 * and no signature whose key is known fails (signatures over the same bytes cannot disagree
 * unless something changed).
 *
 * @example
 * const verified = yield* verifyCard(JSON.parse(text), jwksKeyResolver(publishedJwks))
 */
export const verifyCard = (
  card: object,
  resolveKey: CardKeyResolver,
  options: VerifyCardOptions = {}
): Effect.Effect<ReadonlyArray<VerifiedCardSignature>, CardVerificationError> =>
  Effect.gen(function* () {
    const raw = (card as { readonly signatures?: unknown }).signatures
    if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) {
      return yield* new CardVerificationError({ reason: "unsigned", message: "the card carries no signature" })
    }
    const signatures = yield* Effect.mapError(
      decodeSignatures(raw),
      (cause) => new CardVerificationError({ reason: "malformed", message: "signatures are malformed", cause })
    )
    const payload = yield* Effect.try({
      try: () => base64url.encode(cardPayload(card)),
      catch: (cause) => new CardVerificationError({ reason: "malformed", message: "card has no canonical form", cause })
    })
    const algorithms = [...(options.algorithms ?? defaultAlgorithms)]
    const verified: Array<VerifiedCardSignature> = []
    for (const [index, sig] of signatures.entries()) {
      if (!canonicalBase64url(sig.protected) || !canonicalBase64url(sig.signature)) {
        return yield* new CardVerificationError({ reason: "malformed", message: `signature ${index} is not canonical base64url`, index })
      }
      const header = yield* Effect.try({
        try: () => ({ ...(sig.header ?? {}), ...decodeProtectedHeader({ protected: sig.protected }) }),
        catch: (cause) =>
          new CardVerificationError({ reason: "malformed", message: "protected header is not JSON", index, cause })
      })
      const key = yield* resolveKey(header as JWSHeaderParameters, index)
      if (key === undefined) continue
      yield* Effect.tryPromise({
        try: () =>
          flattenedVerify(
            {
              protected: sig.protected,
              signature: sig.signature,
              payload,
              ...(sig.header === undefined ? {} : { header: sig.header as JWSHeaderParameters })
            },
            key,
            { algorithms }
          ),
        catch: (cause) =>
          new CardVerificationError({
            reason: "invalid-signature",
            message: `signature ${index} does not match the card`,
            index,
            cause
          })
      })
      verified.push({ index, alg: String(header.alg), ...(header.kid === undefined ? {} : { kid: header.kid }) })
    }
    if (verified.length === 0) {
      return yield* new CardVerificationError({ reason: "no-key", message: "no signature names a known key" })
    }
    return verified
  })

/**
 * A resolver over a JSON Web Key Set: a set held in memory, or a URL you trust (the card's own
 * `jku` is not followed: a card must not choose the key that vouches for it). Keys are matched by
 * `kid`, `alg` and key type; a header no key matches resolves to `undefined`.
 */
export const jwksKeyResolver = (
  jwks: JSONWebKeySet | URL,
  options: { readonly fetch?: typeof fetch } = {}
): CardKeyResolver => {
  const getKey = jwks instanceof URL
    ? createRemoteJWKSet(jwks, options.fetch === undefined ? {} : { [customFetch]: options.fetch })
    : createLocalJWKSet(jwks)
  return (header, index) =>
    Effect.tryPromise({
      try: () => getKey(header, { payload: "", signature: "" }) as Promise<KeyInput>,
      catch: (cause) => cause
    }).pipe(
      Effect.catch((cause) =>
        isNoMatchingKey(cause)
          ? Effect.succeed(undefined)
          : Effect.fail(
            new CardVerificationError({ reason: "no-key", message: "key lookup in the key set failed", index, cause })
          )
      )
    )
}

const isNoMatchingKey = (cause: unknown): boolean =>
  typeof cause === "object" && cause !== null &&
  ((cause as { code?: unknown }).code === "ERR_JWKS_NO_MATCHING_KEY")
