/**
 * Serving an A2A server with `Bun.serve`.
 *
 * Slow clients: Bun itself closes a connection whose request headers take more than about 10 s
 * (fixed in Bun, not configurable here). The request body is bounded by Bun's `idleTimeout`, set
 * from `requestTimeoutMs` (default 30 s, rounded up to whole seconds, at most 255 s): Bun closes a
 * connection whose body has not arrived within about that time (it checks every few seconds), and
 * idle keep-alive connections. A handler still working on a request that is in is not cut.
 * The same timeout would cut an SSE stream that is quiet between heartbeats, so every
 * `text/event-stream` response is exempted with `server.timeout(request, 0)`. Bun has no cap on
 * connections.
 *
 * Request targets: a target that is not in normal form (`/x/..`, `/%2e%2e/`) is 404 here as everywhere,
 * although Bun resolves it before the handler runs (see `checkedRoutes`).
 */
// First: stop with a clear message if the installed effect is not a supported version.
import "../../schemas/internal/effect-version.ts"

import { lookup } from "node:dns/promises"
import { Context } from "effect"
import { ListeningOrigin } from "../server/listening-origin.ts"
import { isRoutableSegment, MAX_TARGET_SEGMENTS } from "../server/request-target.ts"
import { defaultRequestTimeoutMs, type Listening, type ListenOptions, type WebHandlerServer } from "./listening.ts"

/** Resolves webhook host names with Bun's resolver, for `push.resolveDns`. */
export const bunDnsResolver = async (host: string): Promise<ReadonlyArray<string>> =>
  (await lookup(host, { all: true })).map((entry) => entry.address)

interface BunServer {
  readonly port: number
  readonly hostname: string
  stop(closeActiveConnections?: boolean): Promise<void>
}
interface BunRequestTimeouts {
  /** Sets the idle timeout of one request's connection, in seconds; 0 turns it off. */
  timeout(request: Request, seconds: number): void
}
/** A request matched by one of `routes`, with its path parameters (percent-decoded). */
type BunRouteRequest = Request & { readonly params: Readonly<Record<string, string>> }
type BunHandler = (request: Request, server: BunRequestTimeouts) => Promise<Response>
declare const Bun: {
  serve(options: {
    port: number
    hostname: string
    idleTimeout: number
    routes: Record<string, (request: BunRouteRequest, server: BunRequestTimeouts) => Promise<Response> | Response>
    fetch: BunHandler
  }): BunServer
}

// Bun's idleTimeout is in whole seconds, 255 at most; 0 turns it off.
const idleSeconds = (ms: number) => (ms <= 0 ? 0 : Math.min(255, Math.ceil(ms / 1000)))

const isEventStream = (response: Response) => response.headers.get("content-type")?.startsWith("text/event-stream") === true

const notFound = () => new Response(null, { status: 404 })

/**
 * Bun resolves dot segments and backslashes before a handler sees `request.url` (`/x/..` arrives as `/`), but
 * matches `routes` on the target as it was sent. So the target is checked through routes: one per depth, a
 * parameter per segment, which hands the adapter each segment as sent (decoded), and a catch-all for what no
 * depth matches (an empty segment, or more than the routed depth): the same rule as on every other runtime
 * (request-target.ts).
 */
const checkedRoutes = (serve: BunHandler) => {
  const table: Record<string, (request: BunRouteRequest, server: BunRequestTimeouts) => Promise<Response> | Response> = {
    "/": serve
  }
  let pattern = ""
  for (let depth = 1; depth <= MAX_TARGET_SEGMENTS; depth++) {
    pattern += `/:s${depth}`
    table[pattern] = (request, server) => (Object.values(request.params).every(isRoutableSegment) ? serve(request, server) : notFound())
  }
  table["/*"] = notFound
  return table
}

/** Starts `server` on Bun; resolves once it listens. */
export const serveBun = async (server: WebHandlerServer, options: ListenOptions = {}): Promise<Listening> => {
  const idleTimeout = idleSeconds(options.requestTimeoutMs ?? defaultRequestTimeoutMs)
  // Set once `Bun.serve` returns: it binds synchronously, and requests are handled on later turns.
  let origin = Context.empty() as Context.Context<never>
  const handle: BunHandler = idleTimeout === 0
    ? (request) => server.handler(request, origin)
    : (request, timeouts) =>
      server.handler(request, origin).then((response) => {
        // The request is in; a stream may now stay quiet for as long as it needs.
        if (isEventStream(response)) timeouts.timeout(request, 0)
        return response
      })
  const bun = Bun.serve({
    port: options.port ?? 0,
    hostname: options.host ?? "127.0.0.1",
    idleTimeout,
    routes: checkedRoutes(handle),
    // What no route matches is no target of a route (`*`, for one).
    fetch: async () => notFound()
  })
  const host = bun.hostname.includes(":") ? `[${bun.hostname}]` : bun.hostname
  const url = `http://${host}:${bun.port}`
  origin = Context.make(ListeningOrigin, url)
  return {
    url,
    port: bun.port,
    close: async (shutdown) => {
      const stopping = bun.stop(false)
      await server.dispose(shutdown)
      await bun.stop(true)
      await stopping
    }
  }
}
