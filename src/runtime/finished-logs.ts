/**
 * Logs of tasks that just finished, kept a little while for `tasks/resubscribe` with
 * `Last-Event-ID`: a client whose stream dropped near the end can still fetch exactly the
 * events it missed after the task is terminal. Bounded by count and by age, so a burst of
 * finished tasks never holds memory for long.
 */
import type { StreamResult } from "../../schemas/index.ts"
import type { EventLog } from "./event-log.ts"
import { TransientMap } from "./transient-map.ts"

/** How long and how many finished logs stay available for resumption. */
export interface FinishedLogOptions {
  /** Age after which a finished log is dropped, in milliseconds. Default 30,000. */
  readonly lingerMs?: number
  /** Most finished logs kept at once (oldest dropped first). Default 1,000. */
  readonly maxLogs?: number
}

interface Entry {
  readonly log: EventLog<StreamResult>
  readonly expiresAt: number
}

/** A bounded, time-limited map from task id to its closed event log. */
export const makeFinishedLogs = (options: FinishedLogOptions = {}) => {
  const lingerMs = options.lingerMs ?? 30_000
  const maxLogs = options.maxLogs ?? 1_000
  const entries = new TransientMap<string, Entry>()

  // Insertion order is expiry order (one linger for all), so expired entries are at the front.
  const sweep = (now: number) => {
    for (const [id, entry] of entries.entries()) {
      if (entry.expiresAt > now && entries.size <= maxLogs) break
      entries.delete(id)
    }
  }

  return {
    /** Keeps `log` (already closed) for resumption. */
    add: (taskId: string, log: EventLog<StreamResult>, now: number): void => {
      if (lingerMs <= 0 || maxLogs <= 0) return
      entries.delete(taskId)
      entries.set(taskId, { log, expiresAt: now + lingerMs })
      sweep(now)
    },
    /** The finished log of `taskId`, if it is still kept. */
    get: (taskId: string, now: number): EventLog<StreamResult> | undefined => {
      sweep(now)
      return entries.get(taskId)?.log
    },
    /** Drops expired logs; the runtime calls it every `sweepEveryMs`, so they go even when no request comes. */
    sweep,
    /** How often the runtime sweeps: the linger, at most every 5 s (at least every 100 ms). */
    sweepEveryMs: Math.max(100, Math.min(lingerMs, 5_000)),
    /** How many finished logs are kept right now. */
    size: (): number => entries.size
  }
}
