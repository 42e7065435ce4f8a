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

/** Where to listen. Port 0 (the default) lets the system pick a free port. */
export interface ListenOptions {
  readonly port?: number
  readonly host?: string
}

/** A running server. */
export interface Listening {
  /** The origin, e.g. `http://127.0.0.1:41241`; without `publicUrl`, the agent card names it. */
  readonly url: string
  readonly port: number
  /** Ends open streams, applies the shutdown rule to running tasks, and stops listening. */
  readonly close: (options?: ShutdownOptions) => Promise<void>
}
