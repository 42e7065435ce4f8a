/**
 * The leases of the tasks this instance runs on a shared store, and the tasks it takes over:
 *
 * - Every third of a lease it renews the leases of its hosts; a host whose lease was not renewed lost its
 *   task to another instance (this one was stalled past the lease) and leaves at once: it answers nothing
 *   more, and its readers go on from the stored events.
 * - Every half lease (and at once when another instance hands tasks over) it takes over the tasks whose
 *   instance stopped: a run in progress is lost with it, so the task ends `failed` with a clear message,
 *   or runs again here when the agent is `retrySafe`. A task that waited for input keeps waiting, with no
 *   lease: the next message, on any instance, runs the agent on.
 * - A request for a task that nobody runs takes the task over the same way (`adopt`), one at a time per task.
 * - A graceful stop hands every hosted task over (`handOverAll`).
 */
import { Duration, Effect, Option, Schedule, Scope } from "effect"
import { UnsupportedOperation } from "../../../schemas/index.ts"
import type { ProtocolError } from "../../../schemas/index.ts"
import type { HostRegistry } from "../host-registry.ts"
import { Moved, storeFailed } from "../hosting.ts"
import type { Hosting } from "../hosting.ts"
import type { TaskHost } from "../task-host.ts"
import { isTerminalTask, isWaitingTask } from "../task-store.ts"
import type { HeldLease, SharedHandlers, SharedTasks, TaskRecord, TaskStore } from "../task-store.ts"

export interface LeaseKeeperDeps {
  readonly store: TaskStore
  readonly shared: SharedTasks
  readonly registry: HostRegistry
  readonly hosting: Hosting
  readonly scope: Scope.Scope
  /** False once the runtime stops: it then takes no task over (it hands its own over). */
  readonly accepting: () => boolean
}

export const makeLeaseKeeper = (deps: LeaseKeeperDeps) => {
  const { hosting, registry, shared } = deps

  /**
   * A host here for a stored task nobody runs: this instance takes its lease at the epoch read (`Moved`
   * when another got it first). One adoption per task at a time; a second request waits and finds the host.
   */
  const adopt = (record: TaskRecord): Effect.Effect<TaskHost, ProtocolError | Moved> => {
    const taskId = record.task.id
    return registry.exclusive(taskId, Effect.suspend((): Effect.Effect<TaskHost, ProtocolError | Moved> => {
      const hosted = registry.get(taskId)
      if (hosted !== undefined) return hosted.lost() ? Effect.fail(new Moved()) : Effect.succeed(hosted)
      // A stopping instance takes nothing over: it would only have to hand it over again.
      if (!deps.accepting()) return Effect.fail(new UnsupportedOperation({ message: "the agent is shutting down" }))
      return shared.takeOver(taskId, record.leaseEpoch ?? 0).pipe(
        Effect.catch(storeFailed(taskId)),
        Effect.flatMap((taken): Effect.Effect<TaskHost, ProtocolError | Moved> =>
          Option.isNone(taken) ? Effect.fail(new Moved()) : hosting.hostTaken(taken.value))
      )
    }))
  }

  /** Takes over a task whose instance stopped (or handed it over), unless another instance got it first. */
  const rescue = (taskId: string, epoch: number): Effect.Effect<void> =>
    registry.exclusive(taskId, Effect.suspend(() => {
      if (registry.get(taskId) !== undefined || !deps.accepting()) return Effect.void
      return Effect.flatMap(shared.takeOver(taskId, epoch), (taken): Effect.Effect<void, unknown> => {
        if (Option.isNone(taken)) return Effect.void
        const record = taken.value
        // Waiting for input: it keeps waiting, with no lease, for the next message on any instance.
        if (isWaitingTask(record.task)) return shared.releaseLease(taskId, record.leaseEpoch ?? epoch + 1)
        return Effect.asVoid(hosting.hostTaken(record))
      })
    })).pipe(Effect.catch((e) => Effect.logError(`task ${taskId} could not be taken over`, e)))

  const sweep = Effect.flatMap(shared.expiredLeases, (leases) =>
    Effect.forEach(leases.filter((l) => registry.get(l.taskId) === undefined), (l) => rescue(l.taskId, l.epoch), { discard: true }))

  /** Tasks another instance handed over: taken over now when their lease is free. */
  const handedOver = (taskIds: ReadonlyArray<string>) =>
    Effect.forEach(taskIds, (taskId) =>
      Effect.flatMap(Effect.option(deps.store.get(taskId)), (found) => {
        const record = Option.getOrUndefined(Option.flatten(found))
        if (record === undefined || isTerminalTask(record.task) || record.lease?.live === true) return Effect.void
        return rescue(taskId, record.leaseEpoch ?? 0)
      }), { discard: true })

  /** Renews the leases of this instance's hosts; lets go of each host whose lease is another instance's now. */
  const renew = Effect.gen(function*() {
    const held: Array<HeldLease & { readonly host: TaskHost }> = []
    for (const host of registry.hosts()) {
      const epoch = host.leaseEpoch()
      if (epoch !== undefined && !host.lost() && !isTerminalTask(host.task())) held.push({ taskId: host.taskId, epoch, host })
    }
    const renewed = yield* shared.renewLeases(held)
    for (const { host, taskId } of held) {
      // A task that just ended here dropped its lease with its terminal write: not lost.
      if (renewed.has(taskId) || registry.get(taskId) !== host || isTerminalTask(host.task())) continue
      yield* host.lose("another instance took the task over (this one was stalled longer than the lease)")
    }
  })

  /** Runs the keeper for as long as `scope` lives, serving `command` for the other instances. */
  const start = (command: SharedHandlers["command"]) =>
    Effect.gen(function*() {
      yield* Scope.provide(shared.serve({ command, handedOver }), deps.scope)
      const every = (ms: number, effect: Effect.Effect<void, unknown>, what: string) =>
        Effect.forkIn(
          Effect.repeat(Effect.catch(effect, (e) => Effect.logWarning(what, e)), Schedule.spaced(Duration.millis(ms))),
          deps.scope
        )
      yield* every(Math.max(30, Math.floor(shared.leaseMs / 3)), renew, "leases could not be renewed")
      yield* every(Math.max(50, Math.floor(shared.leaseMs / 2)), sweep, "expired leases could not be swept")
    })

  /**
   * Hands every hosted task over (a graceful stop): its agent is stopped with no change to the task, what
   * it did is stored, and its lease released at once. A task waiting for input keeps waiting for the next
   * message on any instance; a running one is taken over by another instance now (see `Hosting.hostTaken`).
   */
  const handOverAll = Effect.suspend(() => Effect.forEach([...registry.hosts()], (host) =>
    Effect.suspend(() => {
      if (!host.materialized() || host.lost() || isTerminalTask(host.task())) return Effect.void
      const waiting = isWaitingTask(host.task())
      return Effect.flatMap(host.handOver, (epoch) =>
        epoch === undefined
          ? Effect.void
          : Effect.catch(
            shared.releaseLease(host.taskId, epoch, { handOver: !waiting }),
            (e) => Effect.logWarning(`task ${host.taskId}: its lease could not be released; another instance takes it over when it expires`, e)
          ))
    }), { concurrency: "unbounded", discard: true }))

  return { adopt, rescue, start, handOverAll }
}
