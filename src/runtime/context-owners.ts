/**
 * Owners of conversation contexts, for the in-memory task store.
 *
 * A context belongs to the principal that first used it. While the store holds a task of the context
 * the entry stays; once it holds none (or never held one: a context that only saw direct replies) the
 * entry is idle and goes `ttlMs` after it became idle or was last claimed, or earlier when more than
 * `maxIdle` idle entries exist (oldest first), so memory stays bounded whatever clients send.
 */

interface Entry {
  readonly owner: string
  /** Records of the store in this context. */
  tasks: number
  /** When the entry last became idle or was claimed while idle. */
  idleSince: number
}

/** An idle entry as queued for expiry; stale once the entry changed since (see `isCurrent`). */
interface Idle {
  readonly id: string
  readonly at: number
}

/** The registry; every method is synchronous and takes the store's current time. */
export interface ContextOwners {
  /** The owner on record, making `owner` the owner when there is none. */
  readonly claim: (contextId: string, owner: string, now: number) => string
  /** The store created a record of a task in `contextId`, owned by `owner`. */
  readonly taskAdded: (contextId: string, owner: string) => void
  /** The store dropped a record of a task in `contextId`. */
  readonly taskRemoved: (contextId: string, now: number) => void
  /** Drops expired idle entries. Cheap when nothing expired. */
  readonly sweep: (now: number) => void
  /** Number of contexts known. */
  readonly size: () => number
}

/** A context registry whose idle entries live `ttlMs` and number at most `maxIdle`. */
export const makeContextOwners = (options: { readonly ttlMs: number; readonly maxIdle: number }): ContextOwners => {
  const entries = new Map<string, Entry>()
  // Idle entries in the order they became idle: with one TTL for all, the front expires first.
  let queue: Array<Idle> = []
  let head = 0
  let idle = 0

  const isCurrent = (q: Idle, e: Entry | undefined): e is Entry => e !== undefined && e.tasks === 0 && e.idleSince === q.at

  const becomeIdle = (id: string, e: Entry, now: number) => {
    e.idleSince = now
    queue.push({ id, at: now })
  }

  const compact = () => {
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head)
      head = 0
    }
    if (queue.length - head > 2 * idle + 1024) {
      queue = queue.slice(head).filter((q) => isCurrent(q, entries.get(q.id)))
      head = 0
    }
  }

  const sweep = (now: number) => {
    while (head < queue.length) {
      const q = queue[head]!
      const e = entries.get(q.id)
      if (isCurrent(q, e)) {
        if (q.at + options.ttlMs > now && idle <= options.maxIdle) break
        entries.delete(q.id)
        idle--
      }
      head++
    }
    compact()
  }

  return {
    claim: (contextId, owner, now) => {
      const e = entries.get(contextId)
      if (e === undefined) {
        const created: Entry = { owner, tasks: 0, idleSince: now }
        entries.set(contextId, created)
        idle++
        becomeIdle(contextId, created, now)
        sweep(now)
        return owner
      }
      // A claim by the owner keeps an idle context alive for another TTL.
      if (e.owner === owner && e.tasks === 0) {
        becomeIdle(contextId, e, now)
        compact()
      }
      return e.owner
    },
    taskAdded: (contextId, owner) => {
      const e = entries.get(contextId)
      if (e === undefined) {
        entries.set(contextId, { owner, tasks: 1, idleSince: 0 })
        return
      }
      if (e.tasks === 0) idle--
      e.tasks++
    },
    taskRemoved: (contextId, now) => {
      const e = entries.get(contextId)
      if (e === undefined || e.tasks === 0) return
      e.tasks--
      if (e.tasks === 0) {
        idle++
        becomeIdle(contextId, e, now)
      }
    },
    sweep,
    size: () => entries.size
  }
}
