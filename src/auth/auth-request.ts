/**
 * What an authenticator sees of a request: transport-level facts only (A2A carries identity in
 * HTTP, never in the JSON-RPC payload).
 *
 * @module
 */

/**
 * The client certificate of a mutual-TLS connection, as the runtime adapter reports it. The
 * library never parses TLS: the adapter (node:https `getPeerCertificate`, a proxy header it
 * trusts, ...) fills this in.
 */
export interface PeerCertificateInfo {
  /** Whether the TLS layer verified the certificate chain against its trusted CAs. */
  readonly authorized: boolean
  /** The subject distinguished name as the adapter renders it, e.g. `CN=client-a,O=Example`. */
  readonly subject: string
  /** The issuer distinguished name, rendered like `subject`. */
  readonly issuer?: string
  /** SHA-256 fingerprint of the DER certificate, hex; colons and case do not matter. */
  readonly fingerprint256: string
  readonly serialNumber?: string
  /** Subject alternative names, e.g. `DNS:client.example`, `URI:spiffe://example/agent`. */
  readonly subjectAltNames?: ReadonlyArray<string>
  /** End of validity, ISO 8601. */
  readonly validTo?: string
}

/** The request facts authenticators read. */
export interface AuthRequest {
  readonly headers: Headers
  readonly url: URL
  /** Parsed cookies when the host already has them; otherwise the `Cookie` header is parsed. */
  readonly cookies?: Readonly<Record<string, string>>
  /** Present only on mutual-TLS connections where the client sent a certificate. */
  readonly clientCertificate?: PeerCertificateInfo
}

/** Builds an {@link AuthRequest} from a Web `Request` (the certificate comes from the adapter). */
export const authRequestFrom = (request: Request, clientCertificate?: PeerCertificateInfo): AuthRequest => ({
  headers: request.headers,
  url: new URL(request.url),
  ...(clientCertificate === undefined ? {} : { clientCertificate })
})

/**
 * The value of cookie `name`: from `request.cookies` when given, else from the `Cookie` header
 * (RFC 6265 syntax; surrounding double quotes removed, no percent-decoding).
 */
export const readCookie = (request: AuthRequest, name: string): string | undefined => {
  if (request.cookies !== undefined) return request.cookies[name]
  const header = request.headers.get("cookie")
  if (header === null) return undefined
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=")
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue
    const value = pair.slice(eq + 1).trim()
    return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
  }
  return undefined
}
