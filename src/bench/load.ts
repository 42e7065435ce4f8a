/**
 * The shape of a load run: how many requests at once, for how long or how many, and whether they arrive
 * at a fixed rate.
 *
 * - Closed model (no `rate`): `concurrency` workers each send the next request when the previous answer is
 *   in. Latency runs from the request to its answer.
 * - Open model (`rate`): requests are due at fixed times (`rate` per second) whatever the answers do; at
 *   most `concurrency` are in flight, the others wait their turn. Latency runs from the time a request was
 *   due, not from when a slot came free, so a slow server's queueing shows in the figures instead of
 *   lowering the offered load (no coordinated omission).
 *
 * @module
 */
import type { OutcomeError, RequestOutcome } from "./outcome.ts"

/** How the load is applied. */
export interface LoadShape {
  readonly concurrency: number
  /** Stop starting requests after this long. */
  readonly durationMs?: number
  /** Stop after this many requests. */
  readonly requests?: number
  /** Requests per second (open model). */
  readonly rate?: number
  /** Stops starting requests early (answers in flight are still awaited). */
  readonly signal?: AbortSignal
}

/** The failures of one kind. */
export interface ErrorTally {
  readonly kind: string
  count: number
  /** The first message of this kind. */
  readonly example: string
}

/** Everything a load run measured, as it goes. */
export class Tally {
  ok = 0
  failed = 0
  events = 0
  chunks = 0
  bytes = 0
  /** Latencies of accepted answers, ms. */
  readonly latencies: Array<number> = []
  /** Times to first event of accepted streams, ms. */
  readonly firstEvents: Array<number> = []
  readonly errors = new Map<string, ErrorTally>()
  /** When each request went out (`performance.now()`), open model only. */
  readonly arrivals: Array<number> = []

  record(outcome: RequestOutcome, dueMs: number | undefined): void {
    // In the open model a request's clock starts when it was due.
    const delay = dueMs === undefined ? 0 : outcome.startMs - dueMs
    if (outcome.ok) {
      this.ok++
      this.events += outcome.events
      this.chunks += outcome.chunks
      this.bytes += outcome.bytes
      this.latencies.push(outcome.latencyMs + delay)
      if (outcome.firstEventMs !== undefined) this.firstEvents.push(outcome.firstEventMs + delay)
    } else {
      this.failed++
      this.fail(outcome.error ?? { kind: "unknown", message: "no reason given" })
    }
  }

  private fail(error: OutcomeError) {
    const known = this.errors.get(error.kind)
    if (known === undefined) this.errors.set(error.kind, { kind: error.kind, count: 1, example: error.message })
    else known.count++
  }
}

/** The outcome of a load run. */
export interface LoadRun {
  readonly tally: Tally
  readonly elapsedMs: number
  /** Requests started. */
  readonly started: number
}

/** Runs `one` as `shape` says; `tally` may be read meanwhile (progress). */
export const runLoad = async (shape: LoadShape, one: () => Promise<RequestOutcome>, tally: Tally = new Tally()): Promise<LoadRun> => {
  const start = performance.now()
  const until = shape.durationMs === undefined ? Number.POSITIVE_INFINITY : start + shape.durationMs
  const total = shape.requests ?? Number.POSITIVE_INFINITY
  let started = 0
  const stopped = () => shape.signal?.aborted === true
  if (shape.rate === undefined) {
    const worker = async () => {
      while (started < total && performance.now() < until && !stopped()) {
        started++
        tally.record(await one(), undefined)
      }
    }
    await Promise.all(Array.from({ length: shape.concurrency }, worker))
  } else {
    started = await openModel(shape.rate, shape.concurrency, start, until, total, stopped, one, tally)
  }
  return { tally, elapsedMs: performance.now() - start, started }
}

const openModel = (
  rate: number,
  concurrency: number,
  start: number,
  until: number,
  total: number,
  stopped: () => boolean,
  one: () => Promise<RequestOutcome>,
  tally: Tally
): Promise<number> =>
  new Promise((resolve) => {
    const interval = 1000 / rate
    const waiting: Array<number> = []
    let scheduled = 0
    let launched = 0
    let inFlight = 0
    let closed = false
    const launch = (due: number) => {
      inFlight++
      launched++
      tally.arrivals.push(performance.now())
      void one().then((outcome) => {
        tally.record(outcome, due)
        inFlight--
        const next = waiting.shift()
        if (next !== undefined && !stopped()) launch(next)
        else if (closed && inFlight === 0) resolve(launched)
      })
    }
    const tick = () => {
      const now = performance.now()
      for (;;) {
        const due = start + scheduled * interval
        if (scheduled >= total || due >= until || stopped()) {
          closed = true
          if (stopped()) waiting.length = 0
          if (inFlight === 0 && waiting.length === 0) resolve(launched)
          return
        }
        if (due > now) break
        scheduled++
        if (inFlight < concurrency) launch(due)
        else waiting.push(due)
      }
      setTimeout(tick, Math.max(0, start + scheduled * interval - performance.now()))
    }
    tick()
  })
