/**
 * The one capability the client checks need from their host runtime: serving a Web-standard handler
 * on 127.0.0.1, port 0. Each runtime supplies it with its own native server (`serve-node.ts`,
 * `serve-bun.ts`, `serve-deno.ts`), so the checks exercise that runtime's `fetch` against that
 * runtime's server, with no other runtime in the loop.
 *
 * @module
 */

/** A Web-standard request handler, as `Bun.serve`, `Deno.serve` and the node bridge take it. */
export type WebHandler = (request: Request) => Promise<Response>

/** A running server. */
export interface Served {
  /** The origin, `http://127.0.0.1:<port>`. */
  readonly url: string
  /** Stops listening and drops open connections. */
  readonly close: () => Promise<void>
}

/** Starts `handler` on a fresh loopback port; resolves once it listens. */
export type Serve = (handler: WebHandler) => Promise<Served>
