/**
 * Bounds on tasks that wait for their user (`input-required`, `auth-required`): any client can leave a
 * task waiting, and a waiting task holds memory (its host) and a row until it is answered. So a principal
 * may have at most `perPrincipal` of them at once (asking for input beyond that is refused, and the task
 * ends `failed` saying why, unless the agent handles the refusal), and a task left waiting longer than
 * `idleTtl` since its last change is ended `failed`, on whichever instance finds it first.
 */
import { Clock, Duration, Effect, Option, Schedule } from "effect"
import type { Scope } from "effect"
import type { ProtocolError } from "../../schemas/index.ts"
import type { HostRegistry } from "./host-registry.ts"
import type { Moved } from "./hosting.ts"
import type { TaskHost } from "./task-host.ts"
import { isWaitingTask } from "./task-store.ts"
import type { TaskRecord, TaskStore } from "./task-store.ts"

/** Options of the bound on tasks waiting for input (`TaskRuntimeOptions.waitingTasks`). */
export interface WaitingTasksOptions {
  /** Tasks one principal may have waiting for input at once. Default 1,000. */
  readonly perPrincipal?: number
  /** How long a task may wait for its user since its last change before it is ended `failed`. Default 1 day. */
  readonly idleTtl?: Duration.Input
}

/** Default of {@link WaitingTasksOptions.perPrincipal}. */
export const defaultWaitingPerPrincipal = 1_000

const describe = (ms: number): string =>
  ms % 86_400_000 === 0 ? `${ms / 86_400_000} day${ms === 86_400_000 ? "" : "s"}`
  : ms % 3_600_000 === 0 ? `${ms / 3_600_000} hour${ms === 3_600_000 ? "" : "s"}`
  : ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`
  : ms % 1_000 === 0 ? `${ms / 1_000} second${ms === 1_000 ? "" : "s"}`
  : `${ms} ms`

export const makeWaitingTasks = (store: TaskStore, options: WaitingTasksOptions = {}) => {
  const perPrincipal = options.perPrincipal ?? defaultWaitingPerPrincipal
  if (!Number.isInteger(perPrincipal) || perPrincipal < 1) throw new RangeError("waitingTasks.perPrincipal must be a whole number of at least 1")
  const idleTtlMs = Duration.toMillis(Duration.fromInputUnsafe(options.idleTtl ?? Duration.days(1)))
  if (!(idleTtlMs > 0)) throw new RangeError("waitingTasks.idleTtl must be positive")

  /** Why `owner` may not have one more task waiting, if so. A store that fails does not stop the agent. */
  const admit = (owner: string): Effect.Effect<string | undefined> =>
    store.countWaiting(owner).pipe(
      Effect.map((n) =>
        n >= perPrincipal
          ? `principal ${owner} already has ${n} tasks waiting for input, the most one may have (${perPrincipal}); answer or cancel one of them`
          : undefined),
      Effect.catch((e) => Effect.as(Effect.logWarning(`tasks waiting for input of ${owner} could not be counted`, e), undefined))
    )

  /**
   * Ends the tasks left waiting longer than `idleTtl`, for as long as `scope` lives. `hostFor` gives the
   * host of a task (taking it over on a shared store), or fails when another instance runs it.
   */
  const sweep = (
    registry: HostRegistry,
    hostFor: (record: TaskRecord) => Effect.Effect<TaskHost, ProtocolError | Moved>,
    scope: Scope.Scope
  ) => {
    const text = `No answer came within ${describe(idleTtlMs)}, the longest a task waits for input; it was ended as failed.`
    const once = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.flatMap(store.idleWaiting(now - idleTtlMs, 100), (ids) =>
        Effect.forEach(ids, (id) =>
          Effect.gen(function*() {
            const hosted = registry.get(id)
            const record = hosted === undefined ? Option.getOrUndefined(yield* store.get(id)) : undefined
            if (hosted === undefined && (record === undefined || !isWaitingTask(record.task))) return
            const host = hosted ?? (yield* hostFor(record!))
            if (!isWaitingTask(host.task())) return
            yield* Effect.logInfo(`task ${id}: waited for input longer than ${describe(idleTtlMs)}; ending it failed`)
            yield* Effect.ignore(host.failWith(text))
          }).pipe(Effect.catch((e) => Effect.logWarning(`task ${id}: could not be ended after waiting too long`, e))), { discard: true })))
    const every = Math.max(50, Math.min(Math.floor(idleTtlMs / 2), 60_000))
    return Effect.forkIn(
      Effect.repeat(Effect.catch(once, (e) => Effect.logWarning("tasks waiting for input could not be swept", e)), Schedule.spaced(Duration.millis(every))),
      scope
    )
  }

  return { admit, sweep, perPrincipal, idleTtlMs }
}
