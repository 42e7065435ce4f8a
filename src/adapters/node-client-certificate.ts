/// <reference types="node" preserve="true" />
// Kept in the declarations: they name `node:net` types, which a project on TypeScript 6 or later sees only
// when its own `types` lists node or a declaration asks for them.
/**
 * Mutual TLS on Node: the client certificate of a `node:https` (or `node:tls`) connection as the
 * `PeerCertificateInfo` the `mutualTlsAuthenticator` reads. TLS itself stays Node's business; the
 * server is told what the handshake established.
 *
 * @example
 * ```ts
 * // import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
 * const server = await A2AServer.make(agent, {
 *   authentication: { authenticators: { mtls: mutualTlsAuthenticator({ byFingerprint }) }, clientCertificate: nodeClientCertificate }
 * })
 * const requests = Effect.runSync(Scope.make()) // close it with the server: it ends running requests
 * const https = createServer({ key, cert, ca, requestCert: true, rejectUnauthorized: false },
 *   Effect.runSync(NodeHttpServer.makeHandler(server.app, { scope: requests })))
 * ```
 */
import type { IncomingMessage } from "node:http"
import type { Socket } from "node:net"
import type { PeerCertificate, TLSSocket } from "node:tls"
import type { HttpServerRequest } from "effect/http"
import type { PeerCertificateInfo } from "../auth/auth-request.ts"

type DistinguishedName = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

// RFC 4514 section 2.4: characters that need a backslash inside an attribute value.
const escapeValue = (value: string): string =>
  value
    .replace(/[\\,+"<>;=]/g, "\\$&")
    .replace(/^[ #]/, "\\$&")
    .replace(/ $/, "\\ ")

/**
 * A distinguished name as RFC 4514 writes it: most specific attribute first (`CN=client-a,O=Example`
 * for a certificate whose subject sequence is `O=Example, CN=client-a`).
 */
export const renderDistinguishedName = (name: DistinguishedName | undefined): string => {
  if (name === undefined || name === null) return ""
  const attributes = Object.entries(name).flatMap(([type, value]) =>
    value === undefined ? [] : (typeof value === "string" ? [value] : [...value]).map((v) => `${type}=${escapeValue(v)}`))
  return attributes.reverse().join(",")
}

const isoDate = (text: string | undefined): string | undefined => {
  if (text === undefined) return undefined
  const date = new Date(text)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

/**
 * The client certificate of a TLS socket, or `undefined` for a plain socket or a client that sent
 * none. `authorized` is the handshake's verdict against the server's `ca` (with
 * `rejectUnauthorized: false` an untrusted certificate reaches the application, which refuses it).
 */
export const peerCertificateOf = (socket: Socket | undefined): PeerCertificateInfo | undefined => {
  const tls = socket as TLSSocket | undefined
  if (tls === undefined || typeof tls.getPeerCertificate !== "function") return undefined
  const peer = tls.getPeerCertificate(false) as PeerCertificate | Record<string, never> | null
  if (peer === null || !("fingerprint256" in peer) || peer.fingerprint256 === undefined) return undefined
  const validTo = isoDate(peer.valid_to)
  const subjectAltNames = peer.subjectaltname?.split(/,\s*/).filter((s) => s !== "")
  return {
    authorized: tls.authorized === true,
    subject: renderDistinguishedName(peer.subject as DistinguishedName | undefined),
    issuer: renderDistinguishedName(peer.issuer as DistinguishedName | undefined),
    fingerprint256: peer.fingerprint256,
    ...(peer.serialNumber === undefined ? {} : { serialNumber: peer.serialNumber }),
    ...(subjectAltNames === undefined || subjectAltNames.length === 0 ? {} : { subjectAltNames }),
    ...(validTo === undefined ? {} : { validTo })
  }
}

/**
 * The client certificate of a request served by `@effect/platform-node` (whose `source` is Node's
 * `IncomingMessage`): pass it as `authentication.clientCertificate`.
 */
export const nodeClientCertificate = (request: HttpServerRequest.HttpServerRequest): PeerCertificateInfo | undefined =>
  peerCertificateOf((request.source as Partial<IncomingMessage> | undefined)?.socket)
