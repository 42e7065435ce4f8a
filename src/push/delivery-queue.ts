/**
 * The push delivery queue: POSTs Task snapshots to webhooks, per (task, config) strictly in order
 * with one request in flight, retrying transient failures with backoff, and reporting every
 * attempt and outcome to an event sink. Time flows through Effect's Clock, so `TestClock` drives
 * the retries in tests.
 *
 * @module
 */
import { Clock, Duration, Effect, FiberSet, Latch, type Scope, Semaphore } from "effect"
import type { PushNotificationConfig, Task } from "../../schemas/index.ts"
import { isSafeHeaderValue } from "./config-check.ts"
import { LaneBook, type LaneItem } from "./lane-book.ts"
export type { LaneItem } from "./lane-book.ts"
import { PushEvent, type PushEventBase } from "./push-events.ts"
import type { PushTransport } from "./push-transport.ts"
import { backoffDelay, classifyStatus, type RetryOptions, retryPolicy } from "./retry-policy.ts"
import { type PushSigner, tokenOnlySigner } from "./signer.ts"
import { redactUrl, type UrlGuard, WebhookRefused } from "./url-guard.ts"

/** Bounds of the queue. */
export interface QueueLimits {
  /** Snapshots queued per (task, config) behind the one in flight (default 16). */
  readonly perTaskConfig?: number
  /** Snapshots queued over all tasks (default 10 000). */
  readonly total?: number
  /** Requests in flight at once over all webhooks (default 16). */
  readonly concurrency?: number
}

/** What one notification carries: its body and `Content-Type`. */
export interface PushPayload {
  readonly body: string
  readonly contentType: string
}

/** The default payload: the Task snapshot as JSON (A2A 0.3's notification). */
export const taskPayload = (task: Task): PushPayload => ({ body: JSON.stringify(task), contentType: "application/json" })

/** Options of {@link PushSender.make}. */
export interface PushSenderOptions {
  /**
   * The payload of a snapshot for a config (default {@link taskPayload}): a server writes each config's
   * notifications in the protocol version it was registered in.
   */
  readonly payload?: (task: Task, config: PushNotificationConfig) => PushPayload
  readonly transport: PushTransport
  /** Checked again before every attempt, so a DNS change after the config was set cannot slip through. */
  readonly guard: UrlGuard
  /** Authentication headers (default: the config's token only, no JWT). */
  readonly signer?: PushSigner
  readonly retry?: RetryOptions
  readonly limits?: QueueLimits
  /** Bound on one request (default 10 000 ms). */
  readonly timeoutMs?: number
  /** The audit seam: receives every {@link PushEvent}. Its failures are ignored. */
  readonly onEvent?: (event: PushEvent) => Effect.Effect<void>
  /** The tracing seam, when the server traces: spans around each delivery and attempt, and their headers. */
  readonly trace?: PushTrace
}

/** What one attempt came to, for its span. */
export interface AttemptResult {
  readonly _tag: "delivered" | "retry" | "reject" | "refused"
  readonly status?: number | undefined
}

/** Spans of deliveries: one per snapshot and webhook, a child per attempt, whose context the request carries. */
export interface PushTrace {
  /** Runs every attempt at one snapshot to one webhook. */
  readonly delivery: <A>(item: LaneItem, effect: Effect.Effect<A>) => Effect.Effect<A>
  /** Runs one attempt (number `attempt`, from 1). */
  readonly attempt: <A extends AttemptResult>(attempt: number, effect: Effect.Effect<A>) => Effect.Effect<A>
  /** The W3C trace-context headers of the attempt running now. */
  readonly headers: () => Readonly<Record<string, string>>
}

/** A running delivery queue. */
export interface PushSender {
  /** Queues the snapshot for each config; returns at once. Ignored after shutdown. */
  readonly enqueue: (task: Task, configs: ReadonlyArray<PushNotificationConfig>) => Effect.Effect<void>
  /** {@link PushSender.enqueue} as a plain call, for synchronous listeners such as `TaskRuntime.onTaskChange`. */
  readonly offer: (task: Task, configs: ReadonlyArray<PushNotificationConfig>) => void
  /** Completes when nothing is queued or in flight. */
  readonly idle: Effect.Effect<void>
  /** Stops taking work, waits up to `drain` (default 0) for the queue to empty, then interrupts the rest. */
  readonly shutdown: (drain?: Duration.Input) => Effect.Effect<void>
}

type Outcome =
  | { readonly _tag: "delivered"; readonly status: number }
  | { readonly _tag: "retry"; readonly status?: number; readonly error?: string }
  | { readonly _tag: "reject"; readonly status: number }
  | { readonly _tag: "refused"; readonly refusal: WebhookRefused; readonly status?: number }

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e))

const make = (options: PushSenderOptions): Effect.Effect<PushSender, never, Scope.Scope> =>
  Effect.gen(function*() {
    const policy = yield* Effect.sync(() => retryPolicy(options.retry))
    const limits = options.limits ?? {}
    const book = new LaneBook({ perLane: Math.max(1, limits.perTaskConfig ?? 16), total: Math.max(1, limits.total ?? 10_000) })
    const permits = yield* Semaphore.make(Math.max(1, limits.concurrency ?? 16))
    const fibers = yield* FiberSet.make<void, never>()
    const run = yield* FiberSet.runtime(fibers)<never>()
    const idleLatch = yield* Latch.make(true)
    const signer = options.signer ?? tokenOnlySigner
    const payloadOf = options.payload ?? taskPayload
    const timeoutMs = options.timeoutMs ?? 10_000
    const sink = options.onEvent ?? (() => Effect.void)
    const emit = (event: PushEvent) => Effect.catchCause(Effect.suspend(() => sink(event)), () => Effect.void)
    let closed = false

    const base = (item: LaneItem): PushEventBase => ({
      taskId: item.taskId,
      configId: item.config.id ?? redactUrl(item.config.url),
      url: redactUrl(item.config.url),
      state: item.task.status.state
    })

    const attemptOnce = (item: LaneItem, { body, contentType }: PushPayload): Effect.Effect<Outcome> =>
      Effect.gen(function*() {
        const target = yield* options.guard.check(item.config.url)
        const auth = yield* signer.headers({ taskId: item.taskId, config: item.config, body })
        const headers: Record<string, string> = options.trace === undefined
          ? { "content-type": contentType, ...auth }
          : { "content-type": contentType, ...options.trace.headers(), ...auth }
        if (!Object.values(headers).every(isSafeHeaderValue)) {
          return yield* new WebhookRefused({ reason: "header-value", message: "a header value carries CR, LF or controls", url: redactUrl(item.config.url) })
        }
        const response = yield* Effect.tryPromise({
          try: (signal) => options.transport({ url: item.config.url, address: target.address, headers, body, timeoutMs, signal }),
          catch: describe
        }).pipe(
          // The transport bounds itself; this guards against one that does not.
          Effect.timeoutOrElse({ duration: Duration.millis(timeoutMs + 1000), orElse: () => Effect.fail("timed out") })
        )
        const status = response.status
        switch (classifyStatus(status)) {
          case "delivered":
            return { _tag: "delivered", status } as const
          case "retry":
            return { _tag: "retry", status } as const
          case "reject":
            return { _tag: "reject", status } as const
          case "redirect":
            return {
              _tag: "refused",
              status,
              refusal: new WebhookRefused({ reason: "redirect", message: `the webhook answered ${status}; redirects are not followed`, url: redactUrl(item.config.url) })
            } as const
        }
      }).pipe(
        Effect.catch((e): Effect.Effect<Outcome> =>
          Effect.succeed(
            e instanceof WebhookRefused
              ? (e.transient ? { _tag: "retry", error: e.message } : { _tag: "refused", refusal: e })
              : { _tag: "retry", error: e }
          )
        ),
        Effect.catchDefect((d) => Effect.succeed<Outcome>({ _tag: "retry", error: describe(d) }))
      )

    const deliver = (item: LaneItem) =>
      Effect.gen(function*() {
        const fields = base(item)
        const payload = payloadOf(item.task, item.config)
        for (let attempt = 1;; attempt++) {
          const started = yield* Clock.currentTimeMillis
          yield* emit(PushEvent.PushAttempt({ ...fields, attempt }))
          const once = attemptOnce(item, payload)
          const outcome = yield* permits.withPermits(1)(options.trace === undefined ? once : options.trace.attempt(attempt, once))
          const durationMs = (yield* Clock.currentTimeMillis) - started
          const status = "status" in outcome && outcome.status !== undefined ? { status: outcome.status } : {}
          switch (outcome._tag) {
            case "delivered":
              return yield* emit(PushEvent.PushDelivered({ ...fields, attempt, status: outcome.status, durationMs }))
            case "refused":
              return yield* emit(PushEvent.PushRefused({ ...fields, attempt, reason: outcome.refusal.reason, error: outcome.refusal.message, ...status, durationMs }))
            case "reject":
              return yield* emit(PushEvent.PushGaveUp({ ...fields, attempt, reason: "rejected", ...status, durationMs }))
            case "retry": {
              const error = outcome.error === undefined ? {} : { error: outcome.error }
              if (attempt >= policy.maxAttempts) {
                return yield* emit(PushEvent.PushGaveUp({ ...fields, attempt, reason: "attempts", ...status, ...error, durationMs }))
              }
              const delayMs = yield* backoffDelay(policy, attempt)
              yield* emit(PushEvent.PushRetrying({ ...fields, attempt, ...status, ...error, durationMs, delayMs }))
              yield* Effect.sleep(Duration.millis(delayMs))
            }
          }
        }
      })

    const runLane = (key: string): Effect.Effect<void> =>
      Effect.gen(function*() {
        while (true) {
          const item = yield* Effect.sync(() => {
            const next = book.take(key)
            if (next === undefined && book.size === 0) idleLatch.openUnsafe()
            return next
          })
          if (item === undefined) return
          yield* options.trace === undefined ? deliver(item) : options.trace.delivery(item, deliver(item))
        }
      })

    // Synchronous, so a runtime's synchronous change listener can call it and order is kept.
    const offer = (task: Task, configs: ReadonlyArray<PushNotificationConfig>) => {
      const events: Array<PushEvent> = []
      for (const config of configs) {
        if (closed) break
        const result = book.offer(task.id, config, task)
        if (result.start) {
          idleLatch.closeUnsafe()
          run(runLane(result.key))
        }
        for (const item of result.superseded) events.push(PushEvent.PushCoalesced(base(item)))
        if (result.dropped) {
          const fields = base({ key: result.key, taskId: task.id, config, task })
          events.push(PushEvent.PushGaveUp({ ...fields, attempt: 0, reason: "queue-full", durationMs: 0 }))
        }
      }
      if (events.length > 0) run(Effect.forEach(events, emit, { discard: true }))
    }

    const shutdown = (drain: Duration.Input = 0) =>
      Effect.gen(function*() {
        closed = true
        yield* Effect.timeout(idleLatch.await, drain).pipe(Effect.ignore)
        yield* FiberSet.clear(fibers)
        idleLatch.openUnsafe()
      })

    return {
      offer,
      enqueue: (task, configs) => Effect.sync(() => offer(task, configs)),
      idle: idleLatch.await,
      shutdown
    }
  })

/**
 * The push delivery queue.
 *
 * @example
 * const sender = yield* PushSender.make({ transport: fetchTransport(), guard, signer, onEvent })
 * yield* sender.enqueue(task, configs) // on every task state change
 */
export const PushSender = { make }
