/**
 * Where audit events go. The server holds one `AuditSink`; sinks decide ordering, retention and
 * storage. A bounded in-memory sink is the embedded default.
 *
 * @module
 */
import { Data, Effect } from "effect"
import type { AuditEvent } from "./audit-event.ts"

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const AuditSinkErrorBase: ReturnType<typeof Data.TaggedError<"AuditSinkError">> = Data.TaggedError("AuditSinkError")

/** A sink could not store an event (the write capability failed, or the event did not encode). */
export class AuditSinkError extends AuditSinkErrorBase<{
  readonly message: string
  readonly cause?: unknown
}> {}

/**
 * Receives audit events. `record` fails with {@link AuditSinkError} instead of dropping silently,
 * so the caller chooses between failing the request (fail closed) and logging the loss.
 */
export interface AuditSink {
  readonly record: (event: AuditEvent) => Effect.Effect<void, AuditSinkError>
}

/** An event with the sink-assigned sequence number (1-based, gap-free per sink). */
export interface AuditRecord {
  readonly seq: number
  readonly event: AuditEvent
}

/** The in-memory sink: the newest `capacity` records, and how many older ones were dropped. */
export interface MemoryAuditSink extends AuditSink {
  readonly snapshot: Effect.Effect<ReadonlyArray<AuditRecord>>
  readonly dropped: Effect.Effect<number>
}

/**
 * A bounded in-memory sink, for tests, development and short-lived diagnostics. Oldest records
 * are dropped first once `capacity` (default 1000) is reached.
 */
export const memoryAuditSink = (options: { readonly capacity?: number } = {}): Effect.Effect<MemoryAuditSink> =>
  Effect.sync(() => {
    const capacity = Math.max(1, options.capacity ?? 1000)
    const ring: Array<AuditRecord> = []
    let seq = 0
    let dropped = 0
    return {
      record: (event) =>
        Effect.sync(() => {
          seq += 1
          ring.push({ seq, event })
          if (ring.length > capacity) {
            ring.shift()
            dropped += 1
          }
        }),
      snapshot: Effect.sync(() => ring.slice()),
      dropped: Effect.sync(() => dropped)
    }
  })

/** Sends every event to each sink in order; the first failure stops the rest and is returned. */
export const fanOutAuditSink = (sinks: ReadonlyArray<AuditSink>): AuditSink => ({
  record: (event) => Effect.forEach(sinks, (sink) => sink.record(event), { discard: true })
})
