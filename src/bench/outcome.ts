/**
 * What one request of a load run gives: whether its answer was accepted and, if not, the kind of failure.
 *
 * @module
 */

/** The binding a load run speaks. */
export type BenchTransport = "JSONRPC" | "HTTP+JSON"

/** The A2A version a load run speaks. */
export type BenchVersion = "1.0" | "0.3"

/**
 * Why an answer was not accepted. `kind` groups failures in the report: `HTTP 503`, `JSON-RPC -32001`,
 * `A2A error -32001` (a REST error frame), `validation: chunk out of order`, `transport: ECONNRESET`,
 * `timeout`.
 */
export interface OutcomeError {
  readonly kind: string
  readonly message: string
}

/** One request (a send, a stream read to its end, or a stream cut and resumed). */
export interface RequestOutcome {
  readonly ok: boolean
  readonly error?: OutcomeError
  /** `performance.now()` when the request went out. */
  readonly startMs: number
  /** From the request to the end of the answer. */
  readonly latencyMs: number
  /** From the request to the first SSE event (streams). */
  readonly firstEventMs?: number
  /** SSE events received (streams). */
  readonly events: number
  /** Artifact chunks received (streams). */
  readonly chunks: number
  /** Response body bytes. */
  readonly bytes: number
}

/** Why a stream of `events` events cannot be cut after `dropAfter` and resumed, and what to do instead. */
export const tooShortToCut = (events: number, dropAfter: number): string =>
  `the agent's stream for this message has ${events} event${events === 1 ? "" : "s"}, the last one final, so cutting it ` +
  `after ${dropAfter} leaves nothing to resume: ` +
  (events > 1
    ? `cut it earlier (--drop-after ${events - 1} or less; dropAfter), or send a message whose stream is longer`
    : "send a message whose stream is longer (one event cannot be cut and resumed)")
