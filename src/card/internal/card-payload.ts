/**
 * The bytes an agent card signature covers, shared by signer and verifier.
 *
 * @module
 */
import { canonicalBytes } from "../canonicalize.ts"

/**
 * The JWS payload of a card: RFC 8785 canonical JSON (UTF-8) of the card without its
 * `signatures` member, so every signature covers the same bytes and signatures can be added
 * independently.
 */
export const cardPayload = (card: object): Uint8Array => {
  const { signatures: _signatures, ...unsigned } = card as Record<string, unknown>
  return canonicalBytes(unsigned)
}
