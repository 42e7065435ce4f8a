/**
 * Serving an A2A server on Node with `node:http`.
 *
 * Requests go straight to the server's Effect HTTP app through `@effect/platform-node`,
 * without building a Web `Request` and `Response` per call (the fast path). That package is an
 * optional peer dependency, loaded when `serveNode` first needs it: `web: true` serves through the
 * Web handler without it.
 *
 * Slow clients: `node:http` bounds the time to receive the headers (`headersTimeoutMs`, default
 * 10 s) and the whole request (`requestTimeoutMs`, default 30 s), answering 408 and closing the
 * connection. Both stop counting once the request is in, so SSE streams and long blocking calls
 * are not cut. `maxConnections` caps open connections (4,096 by default). Request bodies are bounded by
 * the server (`maxBodyBytes`, `maxBodyBytesInFlight`) and, on a secured card, read only once the headers
 * carry credentials that can pass.
 */
// First: stop with a clear message if the installed effect is not a supported version.
import "../../schemas/internal/effect-version.ts"

import { lookup } from "node:dns/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Effect, Exit, Scope } from "effect"
import { supportedPeers } from "../../schemas/internal/peer-version.ts"
import type { A2AServerHandle } from "../server/a2a-server.ts"
import { ListeningOrigin } from "../server/listening-origin.ts"
import { isRouteTarget } from "../server/request-target.ts"
import { defaultRequestTimeoutMs, type Listening, type ListenOptions, type WebHandlerServer } from "./listening.ts"

export { nodeClientCertificate } from "./node-client-certificate.ts"
export { nodePushTransport, type NodePushTransportOptions } from "./node-push-transport.ts"
export { type MetricsListening, serveMetrics, type ServeMetricsOptions } from "./node-metrics.ts"

/** Resolves webhook host names with the system resolver, for `push.resolveDns`. */
export const nodeDnsResolver = async (host: string): Promise<ReadonlyArray<string>> =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

/** A server that also exposes its Effect HTTP app (every A2A server does). */
export interface NodeServable extends WebHandlerServer {
  readonly app: A2AServerHandle["app"]
}

/**
 * Default time a client has to send the request headers on Node (10 s): headers are a few hundred
 * bytes that arrive with the first packets, so only a client holding the connection open waits longer.
 */
export const defaultHeadersTimeoutMs = 10_000

/** Options of {@link serveNode}. */
export interface NodeServeOptions extends ListenOptions {
  /** Serve through the Web handler instead of the fast path (for comparison and tests). */
  readonly web?: boolean
  /**
   * How long a client may take to send the request headers (default {@link defaultHeadersTimeoutMs},
   * at most `requestTimeoutMs`); 0 turns it off. Then the client gets 408 and the connection closes.
   */
  readonly headersTimeoutMs?: number
  /**
   * Open connections at most (default {@link defaultMaxConnections}; `Infinity` for none). Node closes a
   * connection beyond the cap as soon as it is accepted, before reading from it; open SSE streams and idle
   * keep-alive connections count.
   */
  readonly maxConnections?: number
}

/**
 * Default cap on open connections on Node: 4,096. Each connection costs a socket and its buffers whatever it
 * sends; the cap keeps a flood of them (or of slow ones) from exhausting the process. Raise it for more
 * concurrent SSE streams.
 */
export const defaultMaxConnections = 4_096

// How often Node looks for expired requests: often enough that a timeout is not overshot by much,
// rarely enough to cost nothing (every second for the default timeouts).
const checkingInterval = (...timeouts: ReadonlyArray<number>) => {
  const shortest = Math.min(...timeouts.filter((t) => t > 0))
  return Number.isFinite(shortest) ? Math.max(10, Math.min(1000, Math.floor(shortest / 4))) : 30_000
}

const nodeServerOptions = (options: NodeServeOptions) => {
  const requestTimeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs
  const wanted = options.headersTimeoutMs ?? defaultHeadersTimeoutMs
  // Node refuses a headers timeout above a (non-zero) request timeout: the request bound covers headers too.
  const headersTimeout = requestTimeout > 0 && (wanted === 0 || wanted > requestTimeout) ? requestTimeout : wanted
  return { requestTimeout, headersTimeout, connectionsCheckingInterval: checkingInterval(requestTimeout, headersTimeout) }
}

const platformNode = "@effect/platform-node"

/**
 * `@effect/platform-node`'s server module. It is an optional peer dependency (Bun and Deno servers, and
 * clients, never need it), so a missing one is reported here, saying what to install.
 */
const loadNodeHttpServer = async (): Promise<typeof NodeHttpServer> => {
  try {
    return await import("@effect/platform-node/NodeHttpServer")
  } catch (cause) {
    const code = (cause as { code?: unknown } | null)?.code
    if (code !== "ERR_MODULE_NOT_FOUND" || !String((cause as Error).message).includes(platformNode)) throw cause
    throw new Error(
      `serveNode needs ${platformNode} ${supportedPeers[platformNode]}, an optional peer dependency of a2a-actors ` +
        `that is not installed: install it (\`npm install ${platformNode}@${supportedPeers[platformNode]}\`), ` +
        "or pass `web: true` to serve through the Web handler without it.",
      { cause }
    )
  }
}

/**
 * Starts `server` on Node; resolves once it listens. Requests are handled from then on, knowing
 * the bound origin (`ListeningOrigin`).
 */
export const serveNode = async (server: NodeServable, options: NodeServeOptions = {}): Promise<Listening> => {
  const platform = options.web === true ? undefined : await loadNodeHttpServer()
  const http = createServer(nodeServerOptions(options))
  http.maxConnections = options.maxConnections ?? defaultMaxConnections
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject)
    http.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const address = http.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  const url = `http://${host}:${address.port}`
  // The request fibers of the fast path belong to this scope; closing it ends any still running.
  const requests = Effect.runSync(Scope.make())
  // Nothing is read from the socket before this listener is attached: it is added in the same tick.
  const origin = Context.make(ListeningOrigin, url)
  http.on("request", platform === undefined
    ? webBridge((request) => server.handler(request, origin))
    // The origin is part of the handler's context, so requests pay nothing for it. The default tracer
    // records nothing, so the platform skips its per-request span by itself.
    : Effect.runSync(platform.makeHandler(server.app, { scope: requests }).pipe(
      Effect.provideService(ListeningOrigin, url)
    )))
  return {
    url,
    port: address.port,
    close: async (shutdown) => {
      const closed = closeServer(http)
      await server.dispose(shutdown)
      http.closeAllConnections()
      await Effect.runPromise(Scope.close(requests, Exit.void))
      await closed
    }
  }
}

const closeServer = (http: Server) =>
  new Promise<void>((resolve) => http.close(() => resolve()))

/**
 * A Web `Request` whose `signal` is the bridge's own, aborted when the client goes away before its answer is
 * complete. Handing that signal to the `Request` constructor (`init.signal`) would make it follow it with a
 * signal of its own, a listener, a weak reference and a finalization record per request, all for a signal that
 * almost never aborts; the handler reads `request.signal` and gets the bridge's signal itself.
 */
class NodeWebRequest extends Request {
  readonly #clientGone: AbortSignal
  constructor(url: string, init: RequestInit, clientGone: AbortSignal) {
    super(url, init)
    this.#clientGone = clientGone
  }
  override get signal(): AbortSignal {
    return this.#clientGone
  }
}

/** Adapts a Web handler to `node:http`, streaming the response body of an event stream. */
const webBridge = (handler: (request: Request) => Promise<Response>) =>
  (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
    // The Request built below resolves `/x/..` to `/`: the target is checked as sent (request-target.ts).
    if (!isRouteTarget(req.url ?? "/")) return void res.writeHead(404).end()
    const controller = new AbortController()
    // The client went away before the answer was complete; once it is sent, nothing is left to abort
    // (and an abort would build its DOMException for nobody).
    res.on("close", () => {
      if (!res.writableFinished) controller.abort()
    })
    const hasBody = req.method !== "GET" && req.method !== "HEAD"
    const request = new NodeWebRequest(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: req.method ?? "GET",
      headers: req.headers as Record<string, string>,
      ...(hasBody ? { body: req as unknown as ReadableStream<Uint8Array>, duplex: "half" } : {})
    } as RequestInit, controller.signal)
    handler(request).then(async (response) => {
      const headers = Object.fromEntries(response.headers)
      if (response.body === null) return void res.writeHead(response.status, headers).end()
      // An answer that is not a stream is whole once made: one write with its length, not chunks.
      if (!isEventStream(response.headers.get("content-type"))) {
        const body = new Uint8Array(await response.arrayBuffer())
        headers["content-length"] = String(body.byteLength)
        return void res.writeHead(response.status, headers).end(body)
      }
      res.writeHead(response.status, headers)
      const reader = response.body.getReader()
      controller.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}))
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        res.write(value)
      }
      res.end()
    }).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  }

const isEventStream = (contentType: string | null) => contentType !== null && contentType.toLowerCase().startsWith("text/event-stream")
