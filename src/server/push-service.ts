/**
 * Push notifications on the server: the webhook guard, the signing keys, the delivery queue fed
 * by every task change, the JWKS document, and the check of configs as they arrive.
 */
import { Effect, type Scope } from "effect"
import { InvalidParams, type ProtocolError } from "../../schemas/error-catalogue.ts"
import type { PushNotificationConfig } from "../../schemas/index.ts"
import type { AuditEventInput } from "../audit/audit-event.ts"
import { checkPushConfig } from "../push/config-check.ts"
import { PushSender, type PushPayload, type QueueLimits, taskPayload } from "../push/delivery-queue.ts"
import { jwksResponse, makePushKeySet, type PushKeySet } from "../push/jwks.ts"
import type { PushEvent } from "../push/push-events.ts"
import { fetchTransport, type PushTransport } from "../push/push-transport.ts"
import type { RetryOptions } from "../push/retry-policy.ts"
import { makePushSigner, type PushSigner, tokenOnlySigner } from "../push/signer.ts"
import { makeUrlGuard, type DnsResolver } from "../push/url-guard.ts"
import type { TaskRuntime } from "../runtime/task-runtime.ts"
import type { Task } from "../../schemas/index.ts"
import { taskJson } from "../../schemas/v1/v1-json.ts"
import { pushVersionOf } from "./push-dialect.ts"
import type { Telemetry } from "../telemetry/telemetry.ts"
import { pushTrace, recordPushEvent } from "../telemetry/push-telemetry.ts"

/** How the server delivers push notifications (used when the card declares `pushNotifications`). */
export interface PushOptions {
  /**
   * Resolves webhook host names. The adapters export one per runtime (`nodeDnsResolver`, ...).
   * Without it only IP-literal webhook URLs can be delivered to: configs naming a host are kept
   * (a name that does not resolve when it is set is not refused) but every delivery fails its lookup.
   */
  readonly resolveDns?: DnsResolver
  /** CIDRs, addresses or exact host names webhooks may reach although private (tests, local development). */
  readonly allow?: ReadonlyArray<string>
  /** How a notification is sent. Default: Web `fetch`, connecting to the checked address. */
  readonly transport?: PushTransport
  /** The signing keys; default: a fresh ES256 key generated at startup. Rotate with `keys.rotate()`. */
  readonly keys?: PushKeySet
  /** The `iss` of the tokens. Default: the server's `publicUrl`, else the card's `url`. */
  readonly issuer?: string
  readonly retry?: RetryOptions
  readonly limits?: QueueLimits
  readonly timeoutMs?: number
  /**
   * Push configs one task may hold (default 10): one more, by `set` or inline on `message/send`,
   * is refused with -32602; replacing a config by its id always works. Sets the runtime's
   * `maxPushConfigsPerTask`.
   */
  readonly maxConfigsPerTask?: number
}

/** The running push side of a server. */
export interface PushService {
  /**
   * Refuses a config whose URL or header values are unsafe, as InvalidParams. A host name that does
   * not resolve right now passes: delivery resolves, checks and pins it on every attempt.
   */
  readonly check: (config: PushNotificationConfig) => Effect.Effect<void, ProtocolError>
  /** The JWKS document answer for `/.well-known/jwks.json`. */
  readonly jwks: Effect.Effect<Response>
  readonly keys: PushKeySet
  /** Delivers what is queued (bounded by `drain`), then stops. */
  readonly shutdown: Effect.Effect<void>
}

/**
 * A notification in the version its config was registered in: 0.3, the Task as JSON; 1.0, a
 * `StreamResponse` holding the Task, as `application/a2a+json` (spec 1.0 §4.3.3).
 */
const payloadFor = (task: Task, config: PushNotificationConfig): PushPayload =>
  pushVersionOf(config) === "1.0" ? { body: `{"task":${taskJson(task)}}`, contentType: "application/a2a+json" } : taskPayload(task)

/**
 * The authentication of a notification: our signed JWT (`Authorization: Bearer`), as on 0.3, unless a 1.0
 * config gives credentials, which 1.0 says must be sent as `Authorization: <scheme> <credentials>`.
 */
const versionedSigner = (signer: PushSigner): PushSigner => ({
  headers: (input) => {
    const auth = input.config.authentication
    const given = pushVersionOf(input.config) === "1.0" && auth?.schemes[0] !== undefined && (auth.credentials ?? "") !== ""
    return given ? tokenOnlySigner.headers(input) : signer.headers(input)
  }
})

const noResolver: DnsResolver = (host) =>
  Promise.reject(new Error(`no DNS resolver is configured, so ${host} cannot be checked; pass push.resolveDns`))

/** Starts the push side for `runtime`: every task change is offered to the delivery queue. */
export const makePushService = (
  runtime: TaskRuntime,
  options: PushOptions,
  issuer: string,
  audit: (input: AuditEventInput) => Effect.Effect<void>,
  telemetry?: Telemetry
): Effect.Effect<PushService, never, Scope.Scope> =>
  Effect.gen(function* () {
    const guard = makeUrlGuard({ resolve: options.resolveDns ?? noResolver, allow: options.allow ?? [] })
    const keys = options.keys ?? (yield* makePushKeySet())
    const links = telemetry?.tracer === undefined ? undefined : pushTrace(telemetry)
    const sender = yield* PushSender.make({
      transport: options.transport ?? fetchTransport(),
      guard,
      signer: versionedSigner(makePushSigner({ issuer: options.issuer ?? issuer, keys })),
      payload: payloadFor,
      onEvent: telemetry === undefined
        ? (event) => Effect.forEach(toAudit(event), audit, { discard: true })
        : (event) => Effect.andThen(Effect.sync(() => recordPushEvent(telemetry, event)), Effect.forEach(toAudit(event), audit, { discard: true })),
      ...(links !== undefined ? { trace: links.trace } : {}),
      ...(options.retry !== undefined ? { retry: options.retry } : {}),
      ...(options.limits !== undefined ? { limits: options.limits } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {})
    })
    yield* runtime.onTaskChange((change) => {
      if (change.pushConfigs.length === 0) return
      links?.remember(change.task)
      sender.offer(change.task, change.pushConfigs)
    })
    return {
      check: (config) =>
        checkPushConfig(config, guard).pipe(
          Effect.asVoid,
          Effect.mapError((refused) => new InvalidParams({ message: `Push notification config refused: ${refused.message}` }))
        ),
      jwks: jwksResponse(keys),
      keys,
      shutdown: sender.shutdown("5 seconds")
    }
  })

/** Push events as audit events: each attempt with its result, and each delivery's outcome. */
const toAudit = (event: PushEvent): ReadonlyArray<AuditEventInput> => {
  const base = { taskId: event.taskId, url: event.url }
  const status = (s: number | undefined) => (s !== undefined ? { httpStatus: s } : {})
  switch (event._tag) {
    case "PushRetrying":
      return [{ kind: "push-attempt", ...base, attempt: event.attempt, outcome: "retry", ...status(event.status), ...(event.error !== undefined ? { reason: event.error } : {}) }]
    case "PushDelivered":
      return [
        { kind: "push-attempt", ...base, attempt: event.attempt, outcome: "delivered", httpStatus: event.status },
        { kind: "push-outcome", ...base, attempt: event.attempt, outcome: "delivered" }
      ]
    case "PushGaveUp":
    case "PushRefused": {
      const outcome: AuditEventInput = { kind: "push-outcome", ...base, attempt: event.attempt, outcome: "abandoned" }
      return event.attempt > 0
        ? [{ kind: "push-attempt", ...base, attempt: event.attempt, outcome: "failed", ...status(event.status), reason: event.reason }, outcome]
        : [outcome]
    }
    default:
      return []
  }
}
