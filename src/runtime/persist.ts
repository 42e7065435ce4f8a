import { Effect, Option } from "effect"
import type { PushNotificationConfig, Task } from "../../schemas/index.ts"
import type { TaskStore } from "./task-store.ts"

/** Options of {@link persistTask}. */
export interface PersistOptions {
  readonly store: TaskStore
  readonly owner: string
  /** Version of the stored record (0: not stored yet). */
  readonly version: number
  readonly pushConfigs: ReadonlyArray<PushNotificationConfig>
  /** The Task to write now, or undefined while the task does not exist yet. */
  readonly current: () => Task | undefined
}

/** A host's writer to the store. */
export interface TaskPersister {
  /** Writes the latest Task if it changed since the last write. Writes are serialised and coalesced. */
  readonly write: Effect.Effect<void>
  readonly pushConfigs: () => ReadonlyArray<PushNotificationConfig>
  /** Changes the push configs and writes them. */
  readonly updatePushConfigs: (
    f: (configs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>
  ) => Effect.Effect<void>
}

/**
 * Keeps a task's record in step with its host. Each write carries the version it expects; on a conflict
 * (someone else changed the record, e.g. a push config set through another process) it adopts the stored
 * version and push configs and writes again. Store failures are logged, not raised: the task goes on in
 * memory and the next write retries.
 */
export const persistTask = (options: PersistOptions): TaskPersister => {
  let version = options.version
  let pushConfigs = options.pushConfigs
  let written: Task | undefined
  let configsDirty = false
  const lock = makeMutex()

  type Update = (configs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>
  const attempt = (retries: number, update?: Update): Effect.Effect<void> =>
    Effect.suspend(() => {
      const task = options.current()
      if (task === undefined || (task === written && !configsDirty)) return Effect.void
      return options.store.put({ task, owner: options.owner, pushConfigs }, version).pipe(
        Effect.flatMap((record) =>
          Effect.sync(() => {
            version = record.version
            written = task
            configsDirty = false
          })
        ),
        Effect.catchTag("VersionConflict", (conflict) =>
          retries <= 0
            ? Effect.logWarning(`task ${conflict.taskId}: store write lost a race repeatedly`)
            : Effect.flatMap(options.store.get(task.id), (record) =>
              Effect.suspend(() => {
                version = Option.match(record, { onNone: () => 0, onSome: (r) => r.version })
                if (Option.isSome(record)) {
                  pushConfigs = update === undefined ? record.value.pushConfigs : update(record.value.pushConfigs)
                }
                return attempt(retries - 1, update)
              }))
        ),
        Effect.catchAll((failure) => Effect.logError("task store write failed", failure))
      )
    })

  const write = lock(attempt(3))
  return {
    write,
    pushConfigs: () => pushConfigs,
    updatePushConfigs: (f) =>
      lock(
        Effect.suspend(() => {
          pushConfigs = f(pushConfigs)
          configsDirty = true
          return attempt(3, f)
        })
      )
  }
}

/**
 * Runs effects one at a time. Unlike Effect's Semaphore, an uncontended turn starts synchronously, so a
 * write to a synchronous store (the in-memory one) is done before the agent's action returns.
 */
const makeMutex = () => {
  let busy = false
  const queue: Array<() => void> = []
  const unlockNow = () => {
    const next = queue.shift()
    if (next === undefined) busy = false
    else next() // the lock passes straight to the next in line
  }
  const unlock = Effect.sync(unlockNow)
  // Made on first contention only: most hosts never wait for their own lock.
  const waitTurn = () => Effect.async<void>((resume) => {
    let handed = false
    const turn = () => {
      handed = true
      resume(Effect.void)
    }
    queue.push(turn)
    return Effect.sync(() => {
      const i = queue.indexOf(turn)
      if (i >= 0) queue.splice(i, 1)
      else if (handed) unlockNow()
    })
  })
  return <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.suspend(() => {
        if (!busy) {
          busy = true
          return Effect.ensuring(restore(effect), unlock)
        }
        return Effect.zipRight(restore(waitTurn()), Effect.ensuring(restore(effect), unlock))
      })
    )
}
