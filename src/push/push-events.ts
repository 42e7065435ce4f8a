/**
 * What the delivery queue reports about every notification: each attempt and how it ended. These
 * events are the audit seam of push delivery: the server forwards them to its audit sink.
 *
 * @module
 */
import { Data } from "effect"
import type { TaskState } from "../../schemas/index.ts"
import type { RefusalReason } from "./url-guard.ts"

/** Fields every push event carries. `url` is redacted: no query string, no user info. */
export interface PushEventBase {
  readonly taskId: string
  /** The config's id; the URL stands in for configs without one. */
  readonly configId: string
  readonly url: string
  /** The task state in the snapshot being delivered. */
  readonly state: TaskState
}

/** Why the queue stopped trying to deliver a snapshot. */
export type GaveUpReason = "attempts" | "rejected" | "queue-full"

/** Every push event, discriminated by `_tag`. */
export type PushEvent = Data.TaggedEnum<{
  /** A POST is about to be made. */
  PushAttempt: PushEventBase & { readonly attempt: number }
  /** An attempt failed in a way worth retrying; the next one follows after `delayMs`. */
  PushRetrying: PushEventBase & {
    readonly attempt: number
    readonly status?: number
    readonly error?: string
    readonly durationMs: number
    readonly delayMs: number
  }
  /** The webhook answered 2xx. */
  PushDelivered: PushEventBase & { readonly attempt: number; readonly status: number; readonly durationMs: number }
  /**
   * Delivery ended without success: after the attempt bound (`attempts`), on a non-retryable answer
   * such as 400/401/404 (`rejected`), or because the queue was full (`queue-full`, attempt 0).
   */
  PushGaveUp: PushEventBase & {
    readonly attempt: number
    readonly reason: GaveUpReason
    readonly status?: number
    readonly error?: string
    readonly durationMs: number
  }
  /** The guard or the header check refused the webhook, or it answered with a redirect. Not retried. */
  PushRefused: PushEventBase & {
    readonly attempt: number
    readonly reason: RefusalReason
    readonly error: string
    readonly status?: number
    readonly durationMs: number
  }
  /** A queued snapshot was replaced by a newer one of the same task before it was sent (queue bound). */
  PushCoalesced: PushEventBase
}>

/** Constructors and matchers of {@link PushEvent}. */
export const PushEvent = Data.taggedEnum<PushEvent>()
