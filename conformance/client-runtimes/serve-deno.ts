/**
 * `Serve` on Deno with `Deno.serve`. A response body that errors makes Deno drop the connection,
 * which is the mid-stream cut the resume checks rely on.
 *
 * @module
 */
import type { Serve, WebHandler } from "./serve.ts"

interface DenoServer {
  readonly addr: { readonly port: number }
  shutdown(): Promise<void>
}
declare const Deno: {
  serve(options: { port: number; hostname: string; onListen: () => void }, handler: WebHandler): DenoServer
}

/**
 * `shutdown()` is graceful: it waits for every handler to answer, and the scripted agent has paths that
 * never do (`/silent`). Closing is therefore bounded; the check program exits explicitly afterwards.
 */
const SHUTDOWN_BOUND_MS = 1_000

/** Serves a Web handler with `Deno.serve` on 127.0.0.1, port 0. */
export const serveDeno: Serve = async (handler) => {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, handler)
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        server.shutdown(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_BOUND_MS)
        })
      ])
      clearTimeout(timer)
    }
  }
}
