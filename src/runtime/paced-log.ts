/**
 * Soft backpressure for a task's event log: an agent that outruns its live readers waits a bounded
 * time for them instead of pushing them into a snapshot resynchronisation.
 *
 * The log itself never waits (DESIGN: a slow reader never stalls the agent). This wrapper only adds a
 * pause point that the task host takes between agent actions: when the slowest live reader is more
 * than 3/4 of the window behind, the agent waits until that reader is back under 1/2 of the window.
 * A reader that makes no progress for `stallMs` is abandoned: it is no longer waited for, and falls
 * back to the log's snapshot resync. So the agent is never held more than `stallMs` per reader.
 */
import { Clock, Effect, Stream } from "effect"
import type { EventLog } from "./event-log.ts"
import { waitForWake } from "./wake.ts"

/** Where one live reader stands. */
interface Reader {
  /** Sequence number of the last event it pulled (or where it started). */
  seq: number
  /** No longer waited for: it stalled once for the whole bound. */
  abandoned: boolean
}

/** A log whose producer can pace itself on its readers. */
export interface PacedLog<E> {
  /** The log, with subscriptions that report their progress. */
  readonly log: EventLog<E>
  /**
   * Succeeds at once unless a live reader lags more than 3/4 of the window; then waits until it is back
   * under 1/2 of the window, abandoning any reader that makes no progress for `stallMs`.
   */
  readonly pace: Effect.Effect<void>
  /** Whether `pace` may wait now (a live reader lags more than 3/4 of the window); false: it succeeds at once. */
  readonly isPacing: () => boolean
  /** Whether anyone ever subscribed (only then can a client hold a sequence number to resume from). */
  readonly everRead: () => boolean
}

/** Wraps `log` (of window `window`) with reader tracking; `stallMs` bounds each wait for one reader. */
export const pacedLog = <E>(log: EventLog<E>, window: number, stallMs: number): PacedLog<E> => {
  const readers = new Set<Reader>()
  let everRead = false
  const high = Math.floor((window * 3) / 4)
  const low = Math.floor(window / 2)
  // Wake-ups of a waiting producer; only armed while it waits, so readers pay one size check otherwise.
  let wakers: Array<() => void> = []
  const wake = () => {
    if (wakers.length === 0) return
    const ws = wakers
    wakers = []
    for (const w of ws) w()
  }

  const slowest = (): Reader | undefined => {
    let slow: Reader | undefined
    for (const r of readers) if (!r.abandoned && (slow === undefined || r.seq < slow.seq)) slow = r
    return slow
  }
  // Where the slowest live reader stands (Infinity: none), refreshed whenever a reader moves, comes, goes or
  // is abandoned, so the producer's check after each event reads one number instead of every reader.
  let slowSeq = Number.POSITIVE_INFINITY
  const refresh = () => {
    slowSeq = slowest()?.seq ?? Number.POSITIVE_INFINITY
  }

  const subscribe: EventLog<E>["subscribe"] = (options) => {
    // Handing out a subscription is enough: a fast task may finish before its reader first runs, and
    // that reader may still need to resume by event id from the finished log.
    everRead = true
    return Stream.suspend(() => {
      const reader: Reader = { seq: options?.after ?? log.lastSeq(), abandoned: false }
      readers.add(reader)
      refresh()
      return log.subscribe(options).pipe(
        // Per chunk, not per event: the log hands every available event over in one chunk.
        Stream.mapArray((chunk) => {
          const last = chunk[chunk.length - 1]!
          if (last.seq > reader.seq) {
            reader.seq = last.seq
            refresh()
            wake()
          }
          return chunk
        }),
        Stream.ensuring(Effect.sync(() => {
          readers.delete(reader)
          refresh()
          wake()
        }))
      )
    })
  }

  // Resumed on the producer's scheduler (wake.ts): a reader's progress never runs the agent inline.
  const nextProgress = waitForWake((wakeMe) => {
    const w = () => wakeMe(Effect.void)
    wakers.push(w)
    return Effect.sync(() => {
      wakers = wakers.filter((x) => x !== w)
    })
  })

  /** Waits for the slowest reader to come under `low`; `watch` is the reader being timed and its deadline. */
  const catchUp = (watch: { readonly reader: Reader; readonly seq: number; readonly deadline: number } | undefined): Effect.Effect<void> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const slow = slowest()
      if (slow === undefined || log.closed() || log.lastSeq() - slow.seq <= low) return Effect.void
      // The bound restarts whenever the slowest reader moves, so a reader that keeps reading is never dropped.
      const timed = watch !== undefined && watch.reader === slow && watch.seq === slow.seq
        ? watch
        : { reader: slow, seq: slow.seq, deadline: now + stallMs }
      if (now >= timed.deadline) {
        slow.abandoned = true
        refresh()
        return catchUp(undefined)
      }
      return Effect.andThen(Effect.timeoutOption(nextProgress, timed.deadline - now), catchUp(timed))
    })

  const isPacing = () => log.lastSeq() - slowSeq > high

  const pace = Effect.suspend(() => (isPacing() ? catchUp(undefined) : Effect.void))

  return { log: { ...log, subscribe }, pace, isPacing, everRead: () => everRead }
}
