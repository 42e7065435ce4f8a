/**
 * Serving an A2A server with `Bun.serve`.
 *
 * Bun closes connections idle for 10 s by default, which would cut quiet SSE streams, so the
 * idle timeout is turned off here and heartbeats keep intermediaries awake.
 */
import { lookup } from "node:dns/promises"
import { Context } from "effect"
import { ListeningOrigin } from "../server/listening-origin.ts"
import type { WebHandlerServer, Listening, ListenOptions } from "./listening.ts"

/** Resolves webhook host names with Bun's resolver, for `push.resolveDns`. */
export const bunDnsResolver = async (host: string): Promise<ReadonlyArray<string>> =>
  (await lookup(host, { all: true })).map((entry) => entry.address)

interface BunServer {
  readonly port: number
  readonly hostname: string
  stop(closeActiveConnections?: boolean): Promise<void>
}
declare const Bun: {
  serve(options: {
    port: number
    hostname: string
    idleTimeout: number
    fetch: (request: Request) => Promise<Response>
  }): BunServer
}

/** Starts `server` on Bun; resolves once it listens. */
export const serveBun = async (server: WebHandlerServer, options: ListenOptions = {}): Promise<Listening> => {
  // Set once `Bun.serve` returns: it binds synchronously, and requests are handled on later turns.
  let origin = Context.empty() as Context.Context<never>
  const bun = Bun.serve({
    port: options.port ?? 0,
    hostname: options.host ?? "127.0.0.1",
    idleTimeout: 0,
    fetch: (request) => server.handler(request, origin)
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
