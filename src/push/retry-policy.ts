/**
 * When a failed notification is tried again, and how long the queue waits: exponential backoff with
 * full jitter (a uniformly random wait up to the exponential cap), which spreads the retries of many
 * tasks hitting one recovering webhook instead of sending them in waves.
 *
 * @module
 */
import { Effect, Random } from "effect"

/** Retry settings of the delivery queue. */
export interface RetryOptions {
  /** Cap of the first wait (default 500 ms); doubles per attempt. */
  readonly baseDelayMs?: number
  /** Largest wait (default 60 000 ms). */
  readonly maxDelayMs?: number
  /** Attempts per snapshot, the first included (default 8). */
  readonly maxAttempts?: number
}

/** {@link RetryOptions} with defaults filled in. */
export type RetryPolicy = Required<RetryOptions>

/** Fills in defaults and rejects nonsense (non-positive attempt bounds, negative delays). */
export const retryPolicy = (options: RetryOptions = {}): RetryPolicy => {
  const policy = {
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 60_000,
    maxAttempts: options.maxAttempts ?? 8
  }
  if (!(policy.maxAttempts >= 1) || !(policy.baseDelayMs >= 0) || !(policy.maxDelayMs >= policy.baseDelayMs)) {
    throw new RangeError("push retry: need maxAttempts >= 1 and 0 <= baseDelayMs <= maxDelayMs")
  }
  return policy
}

/** The wait after failed attempt number `attempt` (1-based), drawn from Effect's `Random`. */
export const backoffDelay = (policy: RetryPolicy, attempt: number): Effect.Effect<number> => {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempt - 1, 30))
  return Effect.map(Random.next, (r) => Math.floor(r * cap))
}

/** How the queue treats a webhook's status code. */
export type StatusVerdict = "delivered" | "redirect" | "retry" | "reject"

/**
 * 2xx delivered; 3xx is a refused redirect (never followed); 408, 425, 429 and 5xx are worth
 * retrying; any other status means the webhook does not want this notification.
 */
export const classifyStatus = (status: number): StatusVerdict => {
  if (status >= 200 && status < 300) return "delivered"
  if (status >= 300 && status < 400) return "redirect"
  if (status === 408 || status === 425 || status === 429 || status >= 500) return "retry"
  return "reject"
}
