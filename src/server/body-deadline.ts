/**
 * A deadline on receiving request bodies, for runtimes whose HTTP server has none (Deno): the adapter puts a
 * {@link BodyDeadline} in the context it hands the server's Web handler, and the server then reads every
 * request body under it (see `readBody` in body.ts). A body that is not in within the deadline is given up
 * on (its stream is cancelled) and the request is answered 408, closing the connection; a body that is in
 * is never cut, however long its request then takes.
 *
 * Requests pay for the deadline with an entry in a set, not with a timer, a wrapped `Request` or a relaying
 * stream of their own: every body waited for under one deadline has the same allowance, so the oldest one
 * expires first, and a single timer, set for it, serves them all.
 *
 * @module
 */
import { Context } from "effect"

/** A body being waited for under a {@link BodyDeadline}. */
export interface BodyWatch {
  /** The body is in (or given up on for another reason): it no longer expires. */
  readonly clear: () => void
}

/** How long a request body may take to arrive, and the bodies being waited for under that bound. */
export interface BodyDeadline {
  readonly ms: number
  /** Starts waiting for a body: `expire` runs once `ms` pass, unless the watch is cleared first. */
  readonly watch: (expire: () => void) => BodyWatch
  /** Stops the timer (the server is closing): bodies still awaited are not expired any more. */
  readonly close: () => void
}

/** The deadline request bodies are read under; none by default (the runtime's server bounds them). */
export const CurrentBodyDeadline: Context.Reference<BodyDeadline | undefined> = Context.Reference<BodyDeadline | undefined>(
  "a2a-actors/BodyDeadline",
  { defaultValue: () => undefined }
)

interface Entry extends BodyWatch {
  readonly at: number
  /** Emptied when the entry leaves the set: the set's replaced hash tables keep their entries (see transient-map.ts). */
  expire: (() => void) | undefined
}

/**
 * A deadline of `ms` (more than 0) from when each body starts to be read. The one timer is set for the oldest
 * body still awaited; when it fires it expires every body whose time has come and is set again for the next,
 * so under steady load it runs about once per `ms`, whatever the number of requests.
 */
export const makeBodyDeadline = (ms: number): BodyDeadline => {
  // In insertion order, which is the order they expire in: every entry gets the same `ms`.
  const pending = new Set<Entry>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false
  const arm = (at: number) => {
    timer = setTimeout(fire, Math.max(0, at - Date.now()))
  }
  const fire = () => {
    timer = undefined
    const now = Date.now()
    for (const entry of pending) {
      if (entry.at > now) return arm(entry.at)
      const expire = entry.expire
      entry.expire = undefined
      pending.delete(entry)
      expire?.()
    }
  }
  return {
    ms,
    watch: (expire) => {
      const entry: Entry = {
        at: Date.now() + ms,
        expire,
        clear: () => {
          entry.expire = undefined
          pending.delete(entry)
        }
      }
      if (closed) return entry
      pending.add(entry)
      // A timer set for an entry that is cleared since fires early, finds the next one not due and is set
      // again for it: clearing leaves the timer alone, so a body that is in at once costs no timer call.
      if (timer === undefined) arm(entry.at)
      return entry
    },
    close: () => {
      closed = true
      pending.clear()
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    }
  }
}
