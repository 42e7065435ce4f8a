/**
 * `Serve` on Bun with `Bun.serve`. The idle timeout is off: Bun would otherwise close a quiet
 * connection after 10 s, and the idle-timeout check must see the client give up, not the server.
 * A response body that errors makes Bun reset the connection, which is the mid-stream cut the resume
 * checks rely on.
 *
 * @module
 */
import type { Serve, WebHandler } from "./serve.ts"

interface BunServer {
  readonly port: number
  stop(closeActiveConnections?: boolean): Promise<void>
}
declare const Bun: {
  serve(options: { port: number; hostname: string; idleTimeout: number; fetch: WebHandler }): BunServer
}

/** Serves a Web handler with `Bun.serve` on 127.0.0.1, port 0. */
export const serveBun: Serve = async (handler) => {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: handler })
  return { url: `http://127.0.0.1:${server.port}`, close: () => server.stop(true) }
}
