/**
 * The tasks hosted in this process, by id: at most one host per task, and at most one adoption of a
 * stored task in progress at a time (a second request for the same task waits for the first and then
 * finds its host). A host leaves only by its own release, so a host that is gone never takes another's
 * entry with it.
 */
import { Deferred, Effect } from "effect"
import type { StreamResult } from "../../schemas/index.ts"
import type { EventLog } from "./event-log.ts"
import type { TaskHost } from "./task-host.ts"
import { TransientMap } from "./transient-map.ts"

/** Where finished logs go (see finished-logs.ts). */
interface FinishedLogs {
  readonly add: (taskId: string, log: EventLog<StreamResult>, now: number) => void
}

export interface HostRegistry {
  /** The host of a task, if it is hosted here. */
  readonly get: (taskId: string) => TaskHost | undefined
  readonly hosts: () => IterableIterator<TaskHost>
  readonly size: () => number
  readonly add: (host: TaskHost) => void
  /** Removes `host`, if it is the one registered for its task. */
  readonly release: (host: TaskHost) => void
  /**
   * Runs `adopt` for a task with no other adoption of it in progress here: a concurrent caller waits for
   * the one in progress, then runs its own (which then finds the host the first one registered).
   */
  readonly exclusive: <A, E>(taskId: string, adopt: Effect.Effect<A, E>) => Effect.Effect<A, E>
}

export const makeHostRegistry = (finished: FinishedLogs): HostRegistry => {
  const hosts = new TransientMap<string, TaskHost>()
  const adopting = new Map<string, Deferred.Deferred<void>>()
  const exclusive = <A, E>(taskId: string, adopt: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.suspend(() => {
      const busy = adopting.get(taskId)
      if (busy !== undefined) return Effect.andThen(Deferred.await(busy), exclusive(taskId, adopt))
      const done = Deferred.makeUnsafe<void>()
      adopting.set(taskId, done)
      return Effect.ensuring(adopt, Effect.suspend(() => {
        adopting.delete(taskId)
        return Deferred.succeed(done, undefined)
      }))
    })
  return {
    get: (taskId) => hosts.get(taskId),
    hosts: () => hosts.values(),
    size: () => hosts.size,
    add: (host) => {
      hosts.set(host.taskId, host)
    },
    release: (host) => {
      if (hosts.get(host.taskId) !== host) return
      hosts.delete(host.taskId)
      // Only a log someone streamed can be resumed by event id; the others would be kept for nobody.
      if (host.materialized() && host.streamed()) finished.add(host.taskId, host.log, Date.now())
    },
    exclusive
  }
}
