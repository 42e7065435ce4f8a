/**
 * Request interceptors: hooks that see every outgoing HTTP request of a client (card fetches included)
 * and may add headers, and see every response's headers.
 *
 * Interceptors are plain (possibly async) functions so that Promise users and Effect users write them
 * the same way; the client runs them inside its Effects and turns a throw into a typed
 * `A2AClientTransportError` with reason `Request`.
 *
 * @module
 */

/** The request an interceptor may adjust. `headers` is mutable; everything else is informative. */
export interface OutgoingRequest {
  /** The URL the request goes to. */
  readonly url: string
  /** The JSON-RPC method, or `agent/card` for a card fetch. */
  readonly operation: string
  /** Headers about to be sent; set or delete entries here. */
  readonly headers: Headers
}

/** Hooks run around each HTTP exchange, in array order. */
export interface ClientInterceptor {
  /** A name for error messages. */
  readonly name?: string
  /** Runs before the request is sent. */
  readonly onRequest?: (request: OutgoingRequest) => void | Promise<void>
  /** Runs when response headers arrive (before the body is read). */
  readonly onResponse?: (response: Response, request: OutgoingRequest) => void | Promise<void>
}

/** A header value that cannot smuggle a second header or split the request. */
const checkHeaderValue = (name: string, value: string): string => {
  if (/[\r\n\0]/.test(value)) throw new TypeError(`the ${name} header value contains CR, LF or NUL`)
  return value
}

/** A credential given as a value or fetched per request (for rotating tokens). */
export type Credential = string | (() => string | Promise<string>)

/**
 * Adds an authentication header to every request.
 *
 * @example
 * ```ts
 * A2AClient.make({ url }, { interceptors: [authHeader({ token: () => tokens.current() })] })
 * authHeader({ header: "X-API-Key", scheme: null, token: "k-123" })
 * ```
 */
export const authHeader = (options: {
  /** The token, or a function returning it. */
  readonly token: Credential
  /** Defaults to `Authorization`. */
  readonly header?: string
  /** Prefix; defaults to `Bearer`. `null` sends the bare token (API keys). */
  readonly scheme?: string | null
}): ClientInterceptor => {
  const header = options.header ?? "Authorization"
  const scheme = options.scheme === undefined ? "Bearer" : options.scheme
  return {
    name: "authHeader",
    onRequest: async (request) => {
      const token = typeof options.token === "string" ? options.token : await options.token()
      const value = scheme === null ? token : `${scheme} ${token}`
      request.headers.set(header, checkHeaderValue(header, value))
    }
  }
}

/**
 * The header that activates A2A extensions for a request and echoes the activated ones back (A2A 0.3's
 * name; a request in 1.0 carries the same URIs as {@link V1_EXTENSIONS_HEADER}, which the client does).
 */
export const EXTENSIONS_HEADER = "X-A2A-Extensions"

/** A2A 1.0's name of the extensions header (spec 1.0 §3.2.6). */
export const V1_EXTENSIONS_HEADER = "A2A-Extensions"

/**
 * Asks the agent to activate extensions (by URI) on every request; `onActivated` receives the URIs the
 * agent echoed back, when it echoes any (in either version's header). The client sends them in the
 * header of the version it speaks.
 *
 * @example
 * ```ts
 * extensionsHeader(["https://example.com/ext/timestamps/v1"], (uris) => console.log(uris))
 * ```
 */
export const extensionsHeader = (
  uris: ReadonlyArray<string>,
  onActivated?: (uris: ReadonlyArray<string>, operation: string) => void
): ClientInterceptor => ({
  name: "extensionsHeader",
  onRequest: (request) => {
    if (uris.length === 0) return
    const merged = new Set(parseExtensionsHeader(request.headers.get(EXTENSIONS_HEADER)))
    for (const uri of uris) merged.add(uri)
    request.headers.set(EXTENSIONS_HEADER, checkHeaderValue(EXTENSIONS_HEADER, [...merged].join(", ")))
  },
  ...(onActivated === undefined ? {} : {
    onResponse: (response: Response, request: OutgoingRequest) => {
      const echoed = parseExtensionsHeader(response.headers.get(EXTENSIONS_HEADER) ?? response.headers.get(V1_EXTENSIONS_HEADER))
      if (echoed.length > 0) onActivated(echoed, request.operation)
    }
  })
})

/** Splits a comma-separated `X-A2A-Extensions` value into trimmed, unique URIs. */
export const parseExtensionsHeader = (value: string | null): ReadonlyArray<string> =>
  value === null ? [] : [...new Set(value.split(",").map((s) => s.trim()).filter((s) => s.length > 0))]
