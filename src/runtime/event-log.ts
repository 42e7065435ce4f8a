import { Cause, Effect, Stream } from "effect"
import type { Array as Arr } from "effect"
import { waitForWake } from "./wake.ts"

/** One event of a task's log with its per-task sequence number (1-based, increasing, no gaps). */
export interface Sequenced<E> {
  readonly seq: number
  readonly event: E
}

/** How a subscriber starts reading. */
export interface SubscribeOptions {
  /**
   * Resume after this sequence number: the events after it are replayed while the window still holds
   * them, otherwise the subscriber starts with a snapshot. Absent: start with a snapshot.
   */
  readonly after?: number
  /**
   * How far the subscriber may fall behind the producer before it is resynchronised with a snapshot.
   * Defaults to (and is capped by) the log's window.
   */
  readonly maxLag?: number
}

/**
 * A task's numbered stream events with a bounded replay window and many independent subscribers.
 *
 * Appending never waits for readers. A reader that falls more than its lag bound behind is not buffered
 * for: it receives one snapshot (numbered with the sequence it reflects) and continues with live events.
 * Memory is therefore bounded by the window, whatever the readers do.
 */
export interface EventLog<E> {
  /**
   * Appends one event and wakes waiting subscribers. Synchronous: producers never suspend here.
   * Returns its sequence number, or `undefined` (and drops the event) once the log is closed.
   */
  readonly append: (event: E) => number | undefined
  /** Ends every subscription once it has delivered what was appended before. Later appends are refused. */
  readonly close: () => void
  /**
   * Subscribes; each pulled chunk holds every event available at that moment, up to {@link maxPulled}
   * (the rest follow in the next pulls, at once).
   */
  readonly subscribe: (options?: SubscribeOptions) => Stream.Stream<Sequenced<E>>
  /** Sequence number of the last appended event (0 when empty). */
  readonly lastSeq: () => number
  /** Number of events retained for replay (never more than the window). */
  readonly retained: () => number
  /** Number of live subscriptions. */
  readonly subscribers: () => number
  /** Whether `close` was called. */
  readonly closed: () => boolean
  /** A gated log hands readers the events up to `seq` from now on (its producer stored them). */
  readonly publish: (seq: number) => void
  /** A gated log drops the events not published yet and closes: they will never be stored. */
  readonly discard: () => void
}

/** Options of {@link makeEventLog}. */
export interface EventLogOptions<E> {
  /** Replay window: how many recent events are retained. Default 1,024. */
  readonly window?: number
  /** The current state as one event (for a task: the Task); must reflect every event up to `lastSeq()`. */
  readonly snapshot: () => E
  /** Sequence number the log continues after (a task taken over from another instance). Default 0. */
  readonly startAfter?: number
  /**
   * Readers get an event only once it is published (`publish`): a task on a shared store shows no event
   * that is not stored, so a reader resuming on another instance never holds an id that instance lacks.
   */
  readonly gated?: boolean
}

interface Subscriber {
  cursor: number
  readonly maxLag: number
  wake: (() => void) | undefined
}

/**
 * Most events one pull hands over. A fast agent can queue tens of thousands of events while its stream's
 * writer waits for a slow socket; taken at once they made one frame buffer of many megabytes. In pulls of
 * this size the writer writes about half a megabyte at a time and waits for the socket in between.
 */
export const maxPulled = 2048

/** Default replay window of an event log. */
export const defaultLogWindow = 1024

/**
 * Creates an in-memory {@link EventLog}: a ring buffer plus one wake-up callback per waiting subscriber
 * (no fiber per event, no copy of the whole log per event).
 */
export const makeEventLog = <E>(options: EventLogOptions<E>): EventLog<E> => {
  const window = Math.max(1, Math.floor(options.window ?? defaultLogWindow))
  // Grows with use up to the window (slot of seq s is (s - 1) % window), so a quiet log stays small.
  // It holds the bare events: the numbered wrappers are made when read, so a retained event costs
  // one object less (long streams spend much of their time in the collector).
  const ring: Array<E> = []
  const subs = new Set<Subscriber>()
  const first = Math.max(0, Math.floor(options.startAfter ?? 0)) + 1
  let last = first - 1
  const gated = options.gated === true
  let published = first - 1
  // What readers may have: every appended event, or on a gated log the published ones.
  const visible = gated ? () => published : () => last
  let isClosed = false
  // Subscribers parked in a pull; appends skip the wake-up pass while there are none.
  let waiting = 0

  const wakeAll = () => {
    if (waiting === 0) return
    for (const sub of subs) {
      const wake = sub.wake
      if (wake !== undefined) {
        sub.wake = undefined
        waiting--
        wake()
      }
    }
  }

  // The number, not a numbered wrapper: most producers do not keep it, and a stream pays for it every event.
  const append = (event: E): number | undefined => {
    if (isClosed) return undefined
    ring[last % window] = event
    const seq = ++last
    if (!gated) wakeAll()
    return seq
  }

  const oldestRetained = () => Math.max(first, last - window + 1)

  /** The events after the subscriber's cursor as one chunk, waiting for one when there is none yet. */
  const pullFor = (sub: Subscriber): Effect.Effect<Arr.NonEmptyReadonlyArray<Sequenced<E>>, Cause.Done> => {
    // Wakes are resumed on the reader's scheduler (wake.ts): an append never runs its readers inline, and
    // every event appended before the reader runs arrives in its next chunk.
    const unpark = Effect.sync(() => {
      if (sub.wake !== undefined) {
        sub.wake = undefined
        waiting--
      }
    })
    const parked = waitForWake((wake) => {
      sub.wake = () => wake(Effect.void)
      waiting++
      return unpark
    })
    const pull: Effect.Effect<Arr.NonEmptyReadonlyArray<Sequenced<E>>, Cause.Done> = Effect.suspend(() => {
      const upTo = visible()
      const behind = upTo - sub.cursor
      if (behind > 0) {
        if (behind > sub.maxLag || sub.cursor + 1 < oldestRetained()) {
          sub.cursor = last
          return Effect.succeed([{ seq: last, event: options.snapshot() }])
        }
        const taken = behind > maxPulled ? maxPulled : behind
        const out = new Array<Sequenced<E>>(taken)
        const from = sub.cursor
        for (let i = 0; i < taken; i++) out[i] = { seq: from + i + 1, event: ring[(from + i) % window]! }
        sub.cursor = from + taken
        return Effect.succeed(out as unknown as Arr.NonEmptyReadonlyArray<Sequenced<E>>)
      }
      // A closed gated log still hands over what gets published after the close (the terminal write).
      if (isClosed && sub.cursor >= last) return Cause.done()
      return parkThenPull
    })
    const parkThenPull = Effect.andThen(parked, pull)
    return pull
  }

  const subscribe = (opts?: SubscribeOptions): Stream.Stream<Sequenced<E>> =>
    Stream.suspend(() => {
      const maxLag = Math.min(window, Math.max(1, opts?.maxLag ?? window))
      const after = opts?.after
      const canReplay = after !== undefined && after >= 0 && after <= visible() && after + 1 >= oldestRetained()
      const sub: Subscriber = { cursor: canReplay ? after : last, maxLag, wake: undefined }
      subs.add(sub)
      const live = Stream.fromPull(Effect.succeed(pullFor(sub)))
      // The snapshot is taken in the same synchronous step that fixes the cursor, so they agree.
      const body = canReplay ? live : Stream.concat(Stream.succeed({ seq: last, event: options.snapshot() }), live)
      return Stream.ensuring(body, Effect.sync(() => subs.delete(sub)))
    })

  return {
    append,
    close: () => {
      isClosed = true
      wakeAll()
    },
    subscribe,
    lastSeq: () => last,
    retained: () => Math.min(last - first + 1, window),
    subscribers: () => subs.size,
    closed: () => isClosed,
    publish: (seq) => {
      if (!gated) return
      const upTo = Math.min(seq, last)
      if (upTo <= published) return
      published = upTo
      wakeAll()
    },
    discard: () => {
      if (gated) last = published
      isClosed = true
      wakeAll()
    }
  }
}
