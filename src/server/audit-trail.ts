/**
 * The server's side of the audit seam: turns what happens (requests, refusals, extension
 * activations, task transitions, push deliveries) into audit events for the configured sink.
 *
 * A write that fails is never silent: it is counted (`failures`) and logged at error level. By
 * default the request it describes is still served; with `required`, it is not (see
 * {@link AuditOptions}).
 */
import { Cause, Effect } from "effect"
import { Internal } from "../../schemas/error-catalogue.ts"
import { auditEvent, type AuditEventInput } from "../audit/audit-event.ts"
import type { AuditSink } from "../audit/audit-sink.ts"

/** The `audit` option in full: the sink, and what a failing sink means for requests. */
export interface AuditOptions {
  readonly sink: AuditSink
  /**
   * Never serve a request unaudited. A request whose record cannot be written is answered with an
   * internal error (JSON-RPC -32603, REST 500) in place of its result, and after a failed write
   * every request is refused that way before it runs, until a record is written again (the
   * record of the next refusal is that test). Work a request had already started when its own
   * record failed is not undone. Default `false`: the request is served, the failure counted
   * and logged.
   */
  readonly required?: boolean
}

/** The `audit` option: a sink (failures are counted and logged), or {@link AuditOptions}. */
export type AuditConfig = AuditSink | AuditOptions

/** Records audit events; a no-op without a sink. */
export interface AuditTrail {
  readonly enabled: boolean
  /**
   * Records an event. A failed write is counted and logged; the Effect fails (with the error to
   * answer) only in `required` mode, so callers that cannot refuse anything use `Effect.ignore`.
   */
  readonly record: (input: AuditEventInput) => Effect.Effect<void, Internal>
  /** In `required` mode, fails while the last write failed: the request must not run. */
  readonly admit: Effect.Effect<void, Internal>
  /** How many events could not be recorded since the server started. */
  readonly failures: () => number
}

const isOptions = (config: AuditConfig): config is AuditOptions => "sink" in config && !("record" in config)

const unrecorded = new Internal({ message: "The audit trail could not record this request, so its result is withheld" })
const failing = new Internal({ message: "The audit trail is failing, so this request was not run" })

/** The trail writing to the configured sink, or a no-op trail when there is none. */
export const makeAuditTrail = (
  config: AuditConfig | undefined,
  /** Told of each event recorded (true) or dropped (false): the audit metrics, when they are kept. */
  onOutcome?: (recorded: boolean) => void
): AuditTrail => {
  if (config === undefined) {
    return { enabled: false, record: () => Effect.void, admit: Effect.void, failures: () => 0 }
  }
  const { sink, required = false } = isOptions(config) ? config : { sink: config }
  let failures = 0
  let healthy = true
  return {
    enabled: true,
    failures: () => failures,
    admit: Effect.suspend(() => (required && !healthy ? Effect.fail(failing) : Effect.void)),
    record: (input) =>
      auditEvent(input).pipe(
        Effect.flatMap((event) => sink.record(event)),
        Effect.matchCauseEffect({
          onSuccess: () =>
            Effect.sync(() => {
              healthy = true
              onOutcome?.(true)
            }),
          onFailure: (cause) =>
            Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.andThen(
              Effect.sync(() => {
                failures += 1
                healthy = false
                onOutcome?.(false)
              }),
              Effect.andThen(
                Effect.logError(`audit event "${input.kind}" could not be recorded`, cause),
                required ? Effect.fail(unrecorded) : Effect.void
              )
            )
        })
      )
  }
}
