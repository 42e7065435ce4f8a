/**
 * What every runtime adapter takes and gives back.
 */
import type { Context } from "effect"

/**
 * The part of an A2A server an adapter needs: a Web handler and a way to shut it down. The
 * adapter passes the handler a context holding the `ListeningOrigin` it bound.
 */
export interface WebHandlerServer {
  readonly handler: (request: Request, context?: Context.Context<never>) => Promise<Response>
  readonly dispose: (options?: ShutdownOptions) => Promise<void>
}

/** How a shutdown treats running tasks. */
export interface ShutdownOptions {
  /**
   * How long running tasks may take to reach a terminal or interrupted state before they are
   * canceled. Default 5,000 ms; 0 cancels them at once.
   */
  readonly graceMs?: number
}

/**
 * Default time a client has to send a whole request (30 s): a JSON-RPC body of typical size takes
 * milliseconds, 30 s still carries the 10 MiB default body limit at about 3 Mbit/s, and a client that
 * holds a connection open by trickling bytes is cut well before it matters. Responses are not bounded.
 */
export const defaultRequestTimeoutMs = 30_000

/** Where to listen, and how long a client may take to send a request. */
export interface ListenOptions {
  /** Port 0 (the default) lets the system pick a free port. */
  readonly port?: number
  readonly host?: string
  /**
   * How long a client may take to send a request (default {@link defaultRequestTimeoutMs}); 0 turns
   * it off. Only receiving counts: a long answer, an SSE stream in particular, is never cut by it.
   * What each runtime can enforce differs; see the adapter.
   */
  readonly requestTimeoutMs?: number
}

/** A running server. */
export interface Listening {
  /** The origin, e.g. `http://127.0.0.1:41241`; without `publicUrl`, the agent card names it. */
  readonly url: string
  readonly port: number
  /** Ends open streams, applies the shutdown rule to running tasks, and stops listening. */
  readonly close: (options?: ShutdownOptions) => Promise<void>
}
