/**
 * How a notification leaves the process. The delivery queue hands the transport the address the
 * guard checked; the transport must connect there and nowhere else, keep the URL's host name for
 * the Host header and TLS, and never follow a redirect.
 *
 * @module
 */

/** One notification POST. */
export interface PushRequest {
  /** The webhook URL as configured (its host name is the Host header and the TLS server name). */
  readonly url: string
  /** The checked IP address to connect to. */
  readonly address: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeoutMs: number
  /** Aborted when the queue shuts down mid-request. */
  readonly signal?: AbortSignal
}

/** The part of the webhook's answer the queue needs. */
export interface PushResponse {
  readonly status: number
}

/**
 * Sends one notification; rejects on network errors and timeouts. A 3xx must come back as its
 * status, not be followed.
 */
export type PushTransport = (request: PushRequest) => Promise<PushResponse>

/** Options of {@link fetchTransport}. */
export interface FetchTransportOptions {
  /** The fetch to use (default `globalThis.fetch`). */
  readonly fetch?: typeof globalThis.fetch
  /**
   * What to do with https URLs, which Web fetch cannot pin to an address: `"by-name"` (default)
   * connects by host name, `"refuse"` rejects them (use a pinning transport instead).
   */
  readonly https?: "by-name" | "refuse"
}

/**
 * A transport on Web `fetch`, for every runtime.
 *
 * - http: the request goes to the checked IP (the URL's host is replaced by it) with `Host` set to
 *   the original host. Bun sends that Host header; Node (undici) and Deno replace it with the IP, so
 *   a receiver behind name-based virtual hosting needs the pinning transport from the Node adapter.
 * - https: fetch offers no way to pin the address while keeping SNI and certificate checks, so it
 *   connects by name and the runtime resolves again. A rebinding to an internal address then has
 *   to present a certificate valid for the attacker's host name, which internal services do not
 *   have; still, prefer the pinning transport where one exists.
 */
export const fetchTransport = (options: FetchTransportOptions = {}): PushTransport => {
  const doFetch = options.fetch ?? globalThis.fetch
  return async (request) => {
    const url = new URL(request.url)
    const headers = new Headers(request.headers)
    let target = url
    if (url.protocol === "http:") {
      target = new URL(url)
      target.hostname = request.address.includes(":") ? `[${request.address}]` : request.address
      headers.set("host", url.host)
    } else if (options.https === "refuse") {
      throw new Error("https webhooks need a transport that pins the address")
    }
    const response = await doFetch(target, {
      method: "POST",
      headers,
      body: request.body,
      redirect: "manual",
      signal: request.signal === undefined
        ? AbortSignal.timeout(request.timeoutMs)
        : AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)])
    })
    // The body is not needed; cancelling frees the connection. Not awaited: a peer that never ends
    // its body must not hold the delivery.
    response.body?.cancel().catch(() => undefined)
    // Browsers hide redirects as opaque status-0 responses: report them as the redirect they are.
    return { status: response.type === "opaqueredirect" ? 302 : response.status }
  }
}
