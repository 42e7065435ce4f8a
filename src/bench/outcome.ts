/**
 * What one request of a load run gives: whether its answer was accepted and, if not, the kind of failure.
 *
 * @module
 */

/** The binding a load run speaks. */
export type BenchTransport = "JSONRPC" | "HTTP+JSON"

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
