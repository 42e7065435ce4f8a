/**
 * What the audit trail records: who called what, who was turned away, how tasks moved, which
 * extensions were used, and where push notifications went.
 *
 * @module
 */
import { Clock, Effect, Schema } from "effect"
import { TaskState } from "../../schemas/index.ts"
import { clipAuditFields } from "./clip-field.ts"

/** An ISO 8601 UTC timestamp as produced by `Date.prototype.toISOString`. */
export const IsoTimestamp: Schema.String = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/)
).annotate({ identifier: "IsoTimestamp" })

const at = { at: IsoTimestamp }

// Absent, never `undefined`: events are written as JSON, where a missing field has no value.
const opt = <S extends Schema.Top>(schema: S) => Schema.optionalKey(schema)

/** A JSON-RPC or REST call finished (or was refused before running). */
export const RequestAudited: Schema.Struct<{
  readonly method: Schema.String
  readonly principal: Schema.String
  readonly outcome: Schema.Literals<readonly ["ok", "error"]>
  readonly errorCode: Schema.optionalKey<Schema.Finite>
  readonly durationMs: Schema.Finite
  readonly requestId: Schema.optionalKey<
    Schema.Union<readonly [Schema.String, Schema.Finite, Schema.Null]>
  >
  readonly taskId: Schema.optionalKey<Schema.String>
  readonly at: Schema.String
  readonly kind: Schema.tag<"request">
}> = Schema.Struct({
  kind: Schema.tag("request"),
  ...at,
  method: Schema.String,
  /** The principal id only: claims may hold personal data that an audit file must not copy. */
  principal: Schema.String,
  outcome: Schema.Literals(["ok", "error"]),
  /** The JSON-RPC error code when `outcome` is `error`. */
  errorCode: opt(Schema.Finite),
  durationMs: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)),
  requestId: opt(Schema.Union([Schema.String, Schema.Finite, Schema.Null])),
  taskId: opt(Schema.String)
}).annotate({ identifier: "RequestAudited" })

/** Authentication or authorisation turned a request away. */
export const AuthRefused: Schema.Struct<{
  readonly schemes: Schema.$Array<Schema.String>
  readonly status: Schema.Literals<readonly [401, 403, 503]>
  readonly reason: Schema.String
  readonly method: Schema.optionalKey<Schema.String>
  readonly at: Schema.String
  readonly kind: Schema.tag<"auth-refused">
}> = Schema.Struct({
  kind: Schema.tag("auth-refused"),
  ...at,
  schemes: Schema.Array(Schema.String),
  status: Schema.Literals([401, 403, 503]),
  reason: Schema.String,
  method: opt(Schema.String)
}).annotate({ identifier: "AuthRefused" })

/** A task changed state; `from` is null when the task was created. */
export const TaskTransition: Schema.Struct<{
  readonly taskId: Schema.String
  readonly from: Schema.NullOr<typeof TaskState>
  readonly to: typeof TaskState
  readonly at: Schema.String
  readonly kind: Schema.tag<"task-transition">
}> = Schema.Struct({
  kind: Schema.tag("task-transition"),
  ...at,
  taskId: Schema.String,
  from: Schema.NullOr(TaskState),
  to: TaskState
}).annotate({ identifier: "TaskTransition" })

/** A client activated an extension for a request. */
export const ExtensionActivated: Schema.Struct<{
  readonly uri: Schema.String
  readonly method: Schema.optionalKey<Schema.String>
  readonly at: Schema.String
  readonly kind: Schema.tag<"extension-activated">
}> = Schema.Struct({
  kind: Schema.tag("extension-activated"),
  ...at,
  uri: Schema.String,
  method: opt(Schema.String)
}).annotate({ identifier: "ExtensionActivated" })

/** One delivery try of a push notification. */
export const PushAttempt: Schema.Struct<{
  readonly taskId: Schema.String
  readonly url: Schema.String
  readonly attempt: Schema.Int
  readonly outcome: Schema.Literals<readonly ["delivered", "retry", "failed"]>
  readonly httpStatus: Schema.optionalKey<Schema.Int>
  readonly reason: Schema.optionalKey<Schema.String>
  readonly at: Schema.String
  readonly kind: Schema.tag<"push-attempt">
}> = Schema.Struct({
  kind: Schema.tag("push-attempt"),
  ...at,
  taskId: Schema.String,
  /** The webhook URL; callers strip credentials (user info, token query parameters) first. */
  url: Schema.String,
  attempt: Schema.Int.check(Schema.isGreaterThan(0)),
  outcome: Schema.Literals(["delivered", "retry", "failed"]),
  httpStatus: opt(Schema.Int),
  reason: opt(Schema.String)
}).annotate({ identifier: "PushAttempt" })

/** The end of a push delivery: delivered, or abandoned after `attempt` tries (0: never sent, queue full). */
export const PushOutcome: Schema.Struct<{
  readonly taskId: Schema.String
  readonly url: Schema.String
  readonly attempt: Schema.Int
  readonly outcome: Schema.Literals<readonly ["delivered", "abandoned"]>
  readonly at: Schema.String
  readonly kind: Schema.tag<"push-outcome">
}> = Schema.Struct({
  kind: Schema.tag("push-outcome"),
  ...at,
  taskId: Schema.String,
  url: Schema.String,
  attempt: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  outcome: Schema.Literals(["delivered", "abandoned"])
}).annotate({ identifier: "PushOutcome" })

/** Every audit event, discriminated by `kind`. */
export const AuditEvent: Schema.Union<
  readonly [
    typeof RequestAudited,
    typeof AuthRefused,
    typeof TaskTransition,
    typeof ExtensionActivated,
    typeof PushAttempt,
    typeof PushOutcome
  ]
> = Schema.Union([
  RequestAudited,
  AuthRefused,
  TaskTransition,
  ExtensionActivated,
  PushAttempt,
  PushOutcome
]).annotate({ identifier: "AuditEvent" })
/** @see AuditEvent */
export type AuditEvent = Schema.Schema.Type<typeof AuditEvent>

/** The `kind` values of {@link AuditEvent}. */
export type AuditEventKind = AuditEvent["kind"]

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/** An audit event before it is timestamped. */
export type AuditEventInput = DistributiveOmit<AuditEvent, "at">

/**
 * Timestamps an event with Effect's `Clock` (so tests control time with `TestClock`) and clips
 * every string field to 256 characters (`AUDIT_FIELD_LIMIT`): fields come from requests, and
 * no request may grow the audit log by more than a bounded record.
 *
 * @example
 * const event = yield* auditEvent({ kind: "extension-activated", uri: "https://example.com/ext/v1" })
 */
export const auditEvent = (input: AuditEventInput): Effect.Effect<AuditEvent> =>
  Effect.map(Clock.currentTimeMillis, (ms) => ({ ...clipAuditFields(input), at: new Date(ms).toISOString() }) as AuditEvent)
