/**
 * Serving an A2A server with `Deno.serve`.
 *
 * Slow clients: `Deno.serve` has no timeouts of its own, neither for headers nor for bodies, and
 * no connection cap (denoland/deno#3515). The adapter bounds what it can see: a request body must
 * arrive within `requestTimeoutMs` (default 30 s) of when the server starts reading it (once the
 * headers are in and have passed the checks before the body), or the request is answered 408 and
 * the server stops waiting for it. Deno offers no way to drop the connection itself: it stays
 * open until the client stops sending. A client that never finishes its headers is beyond the
 * adapter's reach too: put a reverse proxy with header and body timeouts in front of a Deno server
 * that faces the Internet.
 */
// First: stop with a clear message if the installed effect is not a supported version.
import "../../schemas/internal/effect-version.ts"

import { Context } from "effect"
import { CurrentBodyDeadline, makeBodyDeadline } from "../server/body-deadline.ts"
import { ListeningOrigin } from "../server/listening-origin.ts"
import { isRouteTarget } from "../server/request-target.ts"
import { defaultRequestTimeoutMs, type Listening, type ListenOptions, type WebHandlerServer } from "./listening.ts"

interface DenoHttpServer {
  readonly finished: Promise<void>
  shutdown(): Promise<void>
}
declare const Deno: {
  resolveDns(query: string, type: "A" | "AAAA"): Promise<Array<string>>
  serve(
    options: {
      port: number
      hostname: string
      onListen: (addr: { hostname: string; port: number }) => void
    },
    handler: (request: Request) => Promise<Response>
  ): DenoHttpServer
}

/** Resolves webhook host names with `Deno.resolveDns` (A and AAAA), for `push.resolveDns`. */
export const denoDnsResolver = async (host: string): Promise<ReadonlyArray<string>> => {
  if (host === "localhost") return ["127.0.0.1", "::1"]
  const [v4, v6] = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")])
  const addresses = [...(v4.status === "fulfilled" ? v4.value : []), ...(v6.status === "fulfilled" ? v6.value : [])]
  if (addresses.length === 0) throw new Error(`${host} does not resolve`)
  return addresses
}

/**
 * `handler` for the targets that may reach a route, checked on `request.url`, which Deno leaves as sent (a
 * Request built from it would resolve `/x/..` to `/`). The request is handed over as Deno made it.
 */
const routedHandler = (handler: (request: Request) => Promise<Response>): ((request: Request) => Promise<Response>) =>
  (incoming) => (isRouteTarget(incoming.url) ? handler(incoming) : Promise.resolve(new Response(null, { status: 404 })))

/** Starts `server` on Deno; resolves once it listens. */
export const serveDeno = (server: WebHandlerServer, options: ListenOptions = {}): Promise<Listening> =>
  new Promise((resolve) => {
    const ms = options.requestTimeoutMs ?? defaultRequestTimeoutMs
    // Every body is read under it (see body-deadline.ts): a body that came too late gets 408.
    const deadline = ms > 0 ? makeBodyDeadline(ms) : undefined
    // Set in `onListen`, which Deno calls before it serves any request.
    let context = Context.empty() as Context.Context<never>
    const deno = Deno.serve(
      {
        port: options.port ?? 0,
        hostname: options.host ?? "127.0.0.1",
        onListen: ({ hostname, port }) => {
          const host = hostname.includes(":") ? `[${hostname}]` : hostname
          const url = `http://${host}:${port}`
          const origin = Context.make(ListeningOrigin, url)
          context = deadline === undefined ? origin : Context.add(origin, CurrentBodyDeadline, deadline)
          resolve({
            url,
            port,
            close: async (shutdown) => {
              // Streams end first (dispose), so Deno's graceful shutdown has no open response to wait for.
              await server.dispose(shutdown)
              await deno.shutdown()
              deadline?.close()
            }
          })
        }
      },
      routedHandler((request) => server.handler(request, context))
    )
  })
