/**
 * Mutual TLS: the runtime adapter hands over the verified client certificate; this maps it to a
 * principal. Nothing here touches TLS.
 *
 * @module
 */
import { Effect } from "effect"
import { AuthFailure, type Authenticator } from "./authenticator.ts"
import type { PeerCertificateInfo } from "./auth-request.ts"
import type { Principal } from "./principal.ts"

/** How certificates map to principals; the first rule that knows the certificate wins. */
export interface MutualTlsOptions {
  /** SHA-256 fingerprints (hex, colons and case ignored) to principals: pinning. */
  readonly byFingerprint?: Readonly<Record<string, Principal>>
  /** Exact subject DNs (as the adapter renders them) to principals. */
  readonly bySubject?: Readonly<Record<string, Principal>>
  /** Anything else, e.g. SPIFFE IDs in `subjectAltNames`. */
  readonly verify?: (certificate: PeerCertificateInfo) => Effect.Effect<Principal | undefined, AuthFailure>
}

/** Lowercase hex without separators, the form fingerprints are compared in. */
export const normalizeFingerprint = (fingerprint: string): string => fingerprint.replace(/[^0-9a-fA-F]/g, "").toLowerCase()

/**
 * An authenticator for `mutualTLS` schemes. No certificate means no credentials; a certificate
 * the TLS layer did not verify, or one no rule knows, is refused. The principal's claims carry
 * the certificate's subject, issuer and fingerprint.
 */
export const mutualTlsAuthenticator = (options: MutualTlsOptions): Authenticator => {
  const pins = new Map(
    Object.entries(options.byFingerprint ?? {}).map(([fp, principal]) => [normalizeFingerprint(fp), principal])
  )
  const subjects = new Map(Object.entries(options.bySubject ?? {}))
  return (request) =>
    Effect.gen(function* () {
      const cert = request.clientCertificate
      if (cert === undefined) return undefined
      if (!cert.authorized) {
        return yield* new AuthFailure({ reason: "invalid_credentials", message: "client certificate not trusted" })
      }
      const fingerprint = normalizeFingerprint(cert.fingerprint256)
      const found = pins.get(fingerprint) ?? subjects.get(cert.subject) ??
        (options.verify === undefined ? undefined : yield* options.verify(cert))
      if (found === undefined) {
        return yield* new AuthFailure({ reason: "invalid_credentials", message: "client certificate not recognised" })
      }
      const certificateClaims = {
        subject: cert.subject,
        fingerprint256: fingerprint,
        ...(cert.issuer === undefined ? {} : { issuer: cert.issuer })
      }
      return { ...found, claims: { ...certificateClaims, ...found.claims } }
    })
}
