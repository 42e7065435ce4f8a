/**
 * One HTTP exchange of the client: headers, interceptors, abort on release, and the mapping of fetch
 * failures to `A2AClientTransportError`. Knows nothing about JSON-RPC or REST.
 *
 * @module
 */
import { Effect, type Scope } from "effect"
import { currentSpan, currentTraceState, observing, traceparentOf } from "../telemetry/trace-context.ts"
import { A2AClientTransportError } from "./errors.ts"
import { type ClientInterceptor, EXTENSIONS_HEADER, type OutgoingRequest, parseExtensionsHeader, V1_EXTENSIONS_HEADER } from "./interceptors.ts"
import type { ProtocolVersion } from "./transport.ts"

/** What every exchange needs from the client's configuration. */
export interface HttpConfig {
  /** The fetch to use (injectable: tests, proxies, runtimes without a global fetch). */
  readonly fetch: typeof globalThis.fetch
  /** Run in order before each request and after its response headers. */
  readonly interceptors: ReadonlyArray<ClientInterceptor>
  /** Static headers sent with every request. */
  readonly headers: Readonly<Record<string, string>>
}

/** One request to send. */
export interface HttpRequest {
  readonly url: string
  readonly method: "GET" | "POST" | "DELETE"
  /** JSON-RPC method name (also for REST calls) or `agent/card`, for interceptors and messages. */
  readonly operation: string
  readonly accept: string
  readonly body?: string | undefined
  /** Per-call headers, applied after the static ones and before interceptors. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /**
   * The A2A version the request speaks: sent as `A2A-Version`, and the extensions asked for (in either
   * spelling) go in that version's header (`A2A-Extensions` in 1.0, `X-A2A-Extensions` in 0.3).
   */
  readonly version?: ProtocolVersion | undefined
}

/** The request header that names the A2A version (spec 1.0 §3.6). */
export const VERSION_HEADER = "A2A-Version"

/**
 * Moves every extension URI asked for, whichever spelling of the header carried it, into the header of
 * `version`, so one client setting (`extensionsHeader`, `headers`, `callExtension`) reaches either version.
 */
const spellExtensions = (headers: Headers, version: ProtocolVersion): void => {
  const [own, other] = version === "1.0" ? [V1_EXTENSIONS_HEADER, EXTENSIONS_HEADER] : [EXTENSIONS_HEADER, V1_EXTENSIONS_HEADER]
  const foreign = headers.get(other)
  if (foreign === null) return
  const merged = new Set([...parseExtensionsHeader(headers.get(own)), ...parseExtensionsHeader(foreign)])
  headers.delete(other)
  if (merged.size > 0) headers.set(own, [...merged].join(", "))
}

const describeCause = (cause: unknown): string => {
  const inner = (cause as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  if (inner !== undefined && inner !== null) {
    if (typeof inner.code === "string") return inner.code
    if (typeof inner.message === "string") return inner.message
  }
  return cause instanceof Error ? cause.message : String(cause)
}

const requestError = (url: string, message: string, cause: unknown) =>
  new A2AClientTransportError({ reason: "Request", message, url, cause })

/**
 * Sends a request and yields the Response once its headers arrived. The request is aborted when the
 * surrounding Scope closes, so a body nobody reads to the end never keeps the connection open.
 */
export const exchange = (
  config: HttpConfig,
  request: HttpRequest
): Effect.Effect<Response, A2AClientTransportError, Scope.Scope> =>
  Effect.suspend(() => observing() ? tracedExchange(config, request) : exchangeOnce(config, request, false))

/** The URL a span names: without query or fragment, which may carry credentials. */
const spanUrl = (url: string): string => url.replace(/[?#].*$/, "")

/**
 * An exchange in an `a2a.client.request` client span (until the response headers arrived), whose context the
 * request carries as `traceparent`: the agent called continues the caller's trace.
 */
const tracedExchange = (config: HttpConfig, request: HttpRequest) =>
  Effect.withSpan(
    Effect.tap(exchangeOnce(config, request, true), (response) => Effect.annotateCurrentSpan("http.response.status_code", response.status)),
    "a2a.client.request",
    {
      kind: "client",
      attributes: {
        "a2a.method": request.operation,
        ...(request.version !== undefined ? { "a2a.version": request.version } : {}),
        "http.request.method": request.method,
        "url.full": spanUrl(request.url)
      },
      captureStackTrace: false
    }
  )

const exchangeOnce = (
  config: HttpConfig,
  request: HttpRequest,
  traced: boolean
): Effect.Effect<Response, A2AClientTransportError, Scope.Scope> =>
  Effect.gen(function*() {
    const headers = yield* Effect.try({
      try: () => {
        const h = new Headers(config.headers)
        h.set("Accept", request.accept)
        if (request.body !== undefined) h.set("Content-Type", "application/json")
        for (const [k, v] of Object.entries(request.headers ?? {})) h.set(k, v)
        if (request.version !== undefined) h.set(VERSION_HEADER, request.version)
        if (traced) {
          const span = currentSpan()
          if (span !== undefined) h.set("traceparent", traceparentOf(span))
          const state = currentTraceState()
          if (span !== undefined && state !== undefined && !h.has("tracestate")) h.set("tracestate", state)
        }
        return h
      },
      catch: (cause) => requestError(request.url, `invalid request header: ${describeCause(cause)}`, cause)
    })
    const outgoing: OutgoingRequest = { url: request.url, operation: request.operation, headers }
    for (const interceptor of config.interceptors) {
      if (interceptor.onRequest === undefined) continue
      const hook = interceptor.onRequest
      yield* Effect.tryPromise({
        try: async () => hook(outgoing),
        catch: (cause) =>
          requestError(
            request.url,
            `interceptor ${interceptor.name ?? "(unnamed)"} failed: ${describeCause(cause)}`,
            cause
          )
      })
    }
    if (request.version !== undefined) spellExtensions(headers, request.version)
    const controller = yield* Effect.acquireRelease(
      Effect.sync(() => new AbortController()),
      (c) => Effect.sync(() => c.abort())
    )
    const response = yield* Effect.tryPromise({
      try: () =>
        config.fetch(request.url, {
          method: request.method,
          headers,
          signal: controller.signal,
          ...(request.body === undefined ? {} : { body: request.body })
        }),
      catch: (cause) =>
        new A2AClientTransportError({
          reason: "Unreachable",
          message: `cannot reach ${request.url}: ${describeCause(cause)}`,
          url: request.url,
          cause
        })
    })
    for (const interceptor of config.interceptors) {
      if (interceptor.onResponse === undefined) continue
      const hook = interceptor.onResponse
      yield* Effect.tryPromise({
        try: async () => hook(response, outgoing),
        catch: (cause) =>
          requestError(
            request.url,
            `interceptor ${interceptor.name ?? "(unnamed)"} failed on the response: ${describeCause(cause)}`,
            cause
          )
      })
    }
    return response
  })

/** The media type of a response, lower-cased, without parameters (`text/event-stream`). */
export const mediaType = (response: Response): string =>
  (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase()

/** A transport error for a request that did not complete within its timeout. */
export const timeoutError = (url: string, operation: string, ms: number): A2AClientTransportError =>
  new A2AClientTransportError({
    reason: "Timeout",
    message: `${operation} to ${url} did not complete within ${ms} ms`,
    url
  })
