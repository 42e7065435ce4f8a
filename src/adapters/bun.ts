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
 */
// First: stop with a clear message if the installed effect is not a supported version.
import "../../schemas/internal/effect-version.ts"

import { lookup } from "node:dns/promises"
import { Context } from "effect"
import { ListeningOrigin } from "../server/listening-origin.ts"
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
declare const Bun: {
  serve(options: {
    port: number
    hostname: string
    idleTimeout: number
    fetch: (request: Request, server: BunRequestTimeouts) => Promise<Response>
  }): BunServer
}

// Bun's idleTimeout is in whole seconds, 255 at most; 0 turns it off.
const idleSeconds = (ms: number) => (ms <= 0 ? 0 : Math.min(255, Math.ceil(ms / 1000)))

const isEventStream = (response: Response) => response.headers.get("content-type")?.startsWith("text/event-stream") === true

/** Starts `server` on Bun; resolves once it listens. */
export const serveBun = async (server: WebHandlerServer, options: ListenOptions = {}): Promise<Listening> => {
  const idleTimeout = idleSeconds(options.requestTimeoutMs ?? defaultRequestTimeoutMs)
  // Set once `Bun.serve` returns: it binds synchronously, and requests are handled on later turns.
  let origin = Context.empty() as Context.Context<never>
  const bun = Bun.serve({
    port: options.port ?? 0,
    hostname: options.host ?? "127.0.0.1",
    idleTimeout,
    fetch: idleTimeout === 0
      ? (request) => server.handler(request, origin)
      : (request, timeouts) =>
        server.handler(request, origin).then((response) => {
          // The request is in; a stream may now stay quiet for as long as it needs.
          if (isEventStream(response)) timeouts.timeout(request, 0)
          return response
        })
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
