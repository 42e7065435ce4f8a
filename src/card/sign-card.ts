/**
 * Signs agent cards: a detached JWS (RFC 7515 appendix F) in flattened JSON form, over the
 * RFC 8785 canonical card without its `signatures` member. The JWS `payload` is left out because
 * the card itself is the payload; verifiers rebuild it the same way.
 *
 * @module
 */
import { Data, Effect } from "effect"
import { FlattenedSign, type JWSHeaderParameters, type KeyInput } from "jose"
import type { AgentCard, AgentCardSignature } from "../../schemas/index.ts"
import { cardPayload } from "./internal/card-payload.ts"

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const CardSigningErrorBase: ReturnType<typeof Data.TaggedError<"CardSigningError">> = Data.TaggedError("CardSigningError")

/** Signing failed: the card has no canonical JSON form, or the key does not fit `alg`. */
export class CardSigningError extends CardSigningErrorBase<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** Options of {@link signCard}. */
export interface SignCardOptions {
  /** The private key (Web Crypto `CryptoKey`, a private JWK, or a secret for HMAC algorithms). */
  readonly key: KeyInput
  /** Key id, published with the public key (e.g. in the agent's JWKS). */
  readonly kid: string
  /** JWS algorithm, e.g. `ES256`, `EdDSA`, `RS256`. */
  readonly alg: string
  /** Where verifiers may find the key set; informational, verifiers choose whether to trust it. */
  readonly jku?: string
  /** Unprotected header members (not covered by the signature). */
  readonly header?: JWSHeaderParameters
}

/**
 * Returns the card with one more signature appended; existing signatures are kept and stay valid. Either
 * version's card: the signature covers the card as it is, which for a 1.0 card written without defaults
 * (ProtoJSON field presence) is the form spec 1.0 §8.4.1 canonicalizes.
 *
 * @example
 * const signed = yield* signCard(card, { key: privateKey, kid: "card-2025", alg: "ES256" })
 */
export const signCard = <C extends { readonly signatures?: ReadonlyArray<AgentCardSignature> | undefined }>(
  card: C,
  options: SignCardOptions
): Effect.Effect<C, CardSigningError> =>
  Effect.gen(function* () {
    const payload = yield* Effect.try({
      try: () => cardPayload(card),
      catch: (cause) => new CardSigningError({ message: "card has no canonical JSON form", cause })
    })
    const protectedHeader: JWSHeaderParameters = {
      alg: options.alg,
      typ: "JOSE",
      kid: options.kid,
      ...(options.jku === undefined ? {} : { jku: options.jku })
    }
    const jws = yield* Effect.tryPromise({
      try: () => {
        const signer = new FlattenedSign(payload).setProtectedHeader(protectedHeader)
        if (options.header !== undefined) signer.setUnprotectedHeader(options.header)
        return signer.sign(options.key)
      },
      catch: (cause) => new CardSigningError({ message: `signing with ${options.alg} failed`, cause })
    })
    const signature: AgentCardSignature = {
      protected: jws.protected ?? "",
      signature: jws.signature,
      ...(jws.header === undefined ? {} : { header: jws.header as Record<string, unknown> })
    }
    return { ...card, signatures: [...(card.signatures ?? []), signature] }
  })
