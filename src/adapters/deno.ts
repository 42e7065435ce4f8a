/**
 * Serving an A2A server with `Deno.serve`.
 */
import type { WebHandlerServer, Listening, ListenOptions } from "./listening.ts"

interface DenoHttpServer {
  readonly finished: Promise<void>
  shutdown(): Promise<void>
}
declare const Deno: {
  serve(
    options: {
      port: number
      hostname: string
      onListen: (addr: { hostname: string; port: number }) => void
    },
    handler: (request: Request) => Promise<Response>
  ): DenoHttpServer
}

/** Starts `server` on Deno; resolves once it listens. */
export const serveDeno = (server: WebHandlerServer, options: ListenOptions = {}): Promise<Listening> =>
  new Promise((resolve) => {
    const deno = Deno.serve(
      {
        port: options.port ?? 0,
        hostname: options.host ?? "127.0.0.1",
        onListen: ({ hostname, port }) => {
          const host = hostname.includes(":") ? `[${hostname}]` : hostname
          resolve({
            url: `http://${host}:${port}`,
            port,
            close: async (shutdown) => {
              // Streams end first (dispose), so Deno's graceful shutdown has no open response to wait for.
              await server.dispose(shutdown)
              await deno.shutdown()
            }
          })
        }
      },
      server.handler
    )
  })
