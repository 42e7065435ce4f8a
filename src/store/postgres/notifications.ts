/**
 * LISTEN/NOTIFY for the PostgreSQL store: one connection per instance listens on the schema's channel,
 * and waiters (readers of a task's events, senders of a command) are woken by key. Payloads:
 * `e:<task>,<task>,...` (new events), `c:<instance>` (commands for it), `a:<command>` (an answer),
 * `h:<instance>:<task>,...` (tasks handed over by an instance that stops gracefully: the others take them
 * over now).
 * A notification lost with its connection only delays a waiter: every wait also polls.
 */
import { Duration, Effect, Queue, Schedule } from "effect"
import type { StoreDb } from "./store-db.ts"

/** Wake-ups by key, set by NOTIFY: a waiter never misses one that came between its read and its wait. */
export interface Waiter {
  woken: boolean
  wake: (() => void) | undefined
}

/** The waiters of one store. */
export interface Wakeups {
  readonly add: (key: string) => Waiter
  readonly remove: (key: string, waiter: Waiter) => void
  readonly wake: (key: string) => void
  /** Wakes every waiter (after a reconnection, when notifications may have been missed). */
  readonly wakeAll: () => void
  /** Waits until the waiter is woken, or one poll interval passed. */
  readonly wait: (waiter: Waiter) => Effect.Effect<void>
}

export const makeWakeups = (pollMs: number): Wakeups => {
  const waiters = new Map<string, Set<Waiter>>()
  const wake = (key: string) => {
    const ws = waiters.get(key)
    if (ws === undefined) return
    for (const w of ws) {
      w.woken = true
      const f = w.wake
      w.wake = undefined
      f?.()
    }
  }
  return {
    add: (key) => {
      const w: Waiter = { woken: false, wake: undefined }
      let ws = waiters.get(key)
      if (ws === undefined) waiters.set(key, ws = new Set())
      ws.add(w)
      return w
    },
    remove: (key, w) => {
      const ws = waiters.get(key)
      ws?.delete(w)
      if (ws?.size === 0) waiters.delete(key)
    },
    wake,
    wakeAll: () => {
      for (const key of [...waiters.keys()]) wake(key)
    },
    wait: (w) =>
      Effect.suspend(() => {
        if (w.woken) return Effect.void
        return Effect.asVoid(Effect.timeoutOption(
          Effect.callback<void>((resume) => {
            w.wake = () => resume(Effect.void)
            return Effect.sync(() => {
              w.wake = undefined
            })
          }),
          Duration.millis(pollMs)
        ))
      })
  }
}

/** What the listening connection hands on, besides waking waiters. */
export interface ListenHandlers {
  /** Commands wait for this instance (also called after each reconnection). */
  readonly commands: Effect.Effect<void>
  /** Tasks another instance handed over. */
  readonly handedOver: (taskIds: ReadonlyArray<string>) => Effect.Effect<void>
}

/**
 * Listens for as long as the store's Scope lives, reconnecting after a lost connection. Every handler
 * runs in a fiber of the store's Scope.
 */
export const listen = (db: StoreDb, wakeups: Wakeups, handlers: ListenHandlers): Effect.Effect<void> => {
  const fork = (effect: Effect.Effect<void>) => Effect.asVoid(Effect.forkIn(effect, db.scope))
  const onPayload = (payload: string): Effect.Effect<void> => {
    const rest = payload.slice(2)
    switch (payload.slice(0, 2)) {
      case "c:":
        return rest === db.instanceId ? fork(handlers.commands) : Effect.void
      case "e:":
        return Effect.sync(() => {
          for (const id of rest.split(",")) wakeups.wake(`e:${id}`)
        })
      case "h:": {
        const [from, ids = ""] = [rest.slice(0, rest.indexOf(":")), rest.slice(rest.indexOf(":") + 1)]
        return from === db.instanceId || ids === "" ? Effect.void : fork(handlers.handedOver(ids.split(",")))
      }
      default:
        return Effect.sync(() => wakeups.wake(payload))
    }
  }
  const once = Effect.scoped(Effect.gen(function*() {
    const queue = yield* db.sql.listen(db.channel)
    // Whatever happened while not listening: wake every waiter once, take waiting commands.
    wakeups.wakeAll()
    yield* fork(handlers.commands)
    while (true) {
      const n = yield* Queue.take(queue)
      yield* onPayload(n.payload)
    }
  }))
  return Effect.asVoid(Effect.forkIn(
    once.pipe(
      Effect.catch((e) => Effect.logWarning("PostgreSQL LISTEN connection lost; listening again", e)),
      Effect.repeat(Schedule.spaced(Duration.millis(db.pollMs)))
    ),
    db.scope
  ))
}

/** Sends `payloads` on the schema's channel, splitting lists so that no payload passes NOTIFY's bound. */
export const notifyList = (db: StoreDb, prefix: string, ids: Iterable<string>): Effect.Effect<void> => {
  const payloads: Array<string> = []
  let payload = ""
  for (const id of ids) {
    // NOTIFY payloads are bounded (8000 bytes): a long list goes in several.
    if (payload !== "" && payload.length + id.length > 7_000) {
      payloads.push(payload)
      payload = ""
    }
    payload = payload === "" ? `${prefix}${id}` : `${payload},${id}`
  }
  if (payload !== "") payloads.push(payload)
  return Effect.forEach(payloads, (p) => db.query("notifying", `SELECT pg_notify($1, $2)`, [db.channel, p]), { discard: true }).pipe(
    // Waiters also poll: a lost wake-up only delays them.
    Effect.catch((e) => Effect.logWarning("could not notify the other instances", e))
  )
}

/**
 * Wakes the readers of tasks' events on every instance. Sent after the write, in a statement of its own:
 * PostgreSQL serialises the commits of transactions that NOTIFY (a database-wide lock held through the
 * commit's WAL flush), so a NOTIFY inside each write would cap writes at one flush at a time. Under load
 * the ids of many writes go out together, one NOTIFY per round trip.
 */
export const makeEventNotifier = (db: StoreDb) => {
  const toNotify = new Set<string>()
  let notifying = false
  const send: Effect.Effect<void> = Effect.suspend(() => {
    if (toNotify.size === 0) {
      notifying = false
      return Effect.void
    }
    const ids = [...toNotify]
    toNotify.clear()
    return Effect.andThen(notifyList(db, "e:", ids), send)
  })
  return (taskId: string, events: number): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (events === 0) return Effect.void
      toNotify.add(taskId)
      if (notifying) return Effect.void
      notifying = true
      return Effect.asVoid(Effect.forkIn(send, db.scope))
    })
}
