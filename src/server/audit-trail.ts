/**
 * The server's side of the audit seam: turns what happens (requests, refusals, extension
 * activations, task transitions, push deliveries) into audit events for the configured sink.
 *
 * A sink that fails never fails the request it describes; the loss is logged instead.
 */
import { Effect } from "effect"
import { auditEvent, type AuditEventInput } from "../audit/audit-event.ts"
import type { AuditSink } from "../audit/audit-sink.ts"

/** Records audit events; a no-op without a sink. */
export interface AuditTrail {
  readonly enabled: boolean
  readonly record: (input: AuditEventInput) => Effect.Effect<void>
}

/** The trail writing to `sink`, or a no-op trail when there is none. */
export const makeAuditTrail = (sink: AuditSink | undefined): AuditTrail =>
  sink === undefined
    ? { enabled: false, record: () => Effect.void }
    : {
      enabled: true,
      record: (input) =>
        auditEvent(input).pipe(
          Effect.flatMap((event) => sink.record(event)),
          Effect.catchAll((error) => Effect.logWarning("audit event lost", error))
        )
    }
