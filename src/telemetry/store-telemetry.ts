/**
 * A task store in traces and metrics: each operation in an `a2a.store.<operation>` client span, timed into
 * `a2a.store.operation.duration` and counted in `a2a.store.failures` when it fails; a lease taken over from
 * another instance counts in `a2a.lease.takeovers` and marks its span. Wraps a store the embedder gave (the
 * PostgreSQL store), only when the server's telemetry is on: the store itself has no hook.
 *
 * @module
 */
import { Effect, Exit, Option, type Scope } from "effect"
import type { SharedTasks, TaskStore, TaskStoreFailure } from "../runtime/task-store.ts"
import type { Telemetry } from "./telemetry.ts"

const timed = <A, E, R>(telemetry: Telemetry, operation: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const instruments = telemetry.instruments
  const measured = instruments === undefined
    ? effect
    : Effect.suspend(() => {
      const started = performance.now()
      return Effect.onExit(effect, (exit) => Effect.sync(() => instruments.store(operation, (performance.now() - started) / 1000, Exit.isFailure(exit))))
    })
  return telemetry.tracer === undefined
    ? measured
    : Effect.withSpan(measured, `a2a.store.${operation}`, { kind: "client", attributes: { "db.operation.name": operation }, captureStackTrace: false })
}

type Fn = (...args: Array<never>) => Effect.Effect<unknown, unknown, unknown>

const wrap = <F extends Fn>(telemetry: Telemetry, operation: string, f: F): F =>
  ((...args: Parameters<F>) => timed(telemetry, operation, f(...args))) as F

const instrumentShared = (shared: SharedTasks, telemetry: Telemetry): SharedTasks => ({
  ...shared,
  renewLeases: wrap(telemetry, "renewLeases", shared.renewLeases),
  releaseLease: wrap(telemetry, "releaseLease", shared.releaseLease),
  expiredLeases: timed(telemetry, "expiredLeases", shared.expiredLeases),
  takeOver: (taskId, epoch) =>
    timed(
      telemetry,
      "takeOver",
      Effect.tap(shared.takeOver(taskId, epoch), (taken) =>
        Option.isNone(taken) ? Effect.void : Effect.andThen(
          Effect.sync(() => telemetry.instruments?.leaseTakeover()),
          telemetry.tracer === undefined ? Effect.void : Effect.annotateCurrentSpan({ "a2a.task.id": taskId, "a2a.lease.taken": true })
        ))
    )
})

/** `store` with every operation observed by `telemetry`. */
export const instrumentStore = (store: TaskStore, telemetry: Telemetry): TaskStore => ({
  ...store,
  get: wrap(telemetry, "get", store.get),
  put: wrap(telemetry, "put", store.put),
  list: wrap(telemetry, "list", store.list),
  listTasks: wrap(telemetry, "listTasks", store.listTasks),
  delete: wrap(telemetry, "delete", store.delete),
  claimContext: wrap(telemetry, "claimContext", store.claimContext),
  countWaiting: wrap(telemetry, "countWaiting", store.countWaiting),
  idleWaiting: wrap(telemetry, "idleWaiting", store.idleWaiting),
  ...(store.shared !== undefined ? { shared: instrumentShared(store.shared, telemetry) } : {})
})

/** The runtime's `store` option, observed: a store, or the Effect that makes one. */
export const instrumentStoreOption = (
  store: TaskStore | Effect.Effect<TaskStore, TaskStoreFailure, Scope.Scope>,
  telemetry: Telemetry
): TaskStore | Effect.Effect<TaskStore, TaskStoreFailure, Scope.Scope> =>
  Effect.isEffect(store) ? Effect.map(store, (s) => instrumentStore(s, telemetry)) : instrumentStore(store, telemetry)
