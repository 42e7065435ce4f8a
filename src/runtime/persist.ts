import { Effect, Option } from "effect"
import type { PushNotificationConfig, StreamResult, Task } from "../../schemas/index.ts"
import type { Sequenced } from "./event-log.ts"
import { TaskStoreFailure } from "./task-store.ts"
import type { TaskStore, VersionConflict, WriteRefused } from "./task-store.ts"
import { waitForWake } from "./wake.ts"

/** Options of {@link persistTask}. */
export interface PersistOptions {
  readonly store: TaskStore
  readonly owner: string
  /** Version of the stored record (0: not stored yet). */
  readonly version: number
  /** The epoch of the lease this writer holds (a taken-over task); otherwise learnt from the first write. */
  readonly leaseEpoch?: number
  readonly pushConfigs: ReadonlyArray<PushNotificationConfig>
  /** The Task to write now, or undefined while the task does not exist yet. */
  readonly current: () => Task | undefined
  /** Called on every write or read that the store itself failed (not on a lost version race). */
  readonly onFailure?: () => void
  /**
   * Stream events not stored yet, oldest first, consistent with `current()` (a shared store keeps them with
   * the record). A successful write stores them and drops that many from the front.
   */
  readonly unsent?: Array<Sequenced<StreamResult>>
  /** Called after a write that stored `unsent` events, with the sequence number of the last of them. */
  readonly onStored?: (seq: number) => void
  /** Runs an effect in a fiber of its own (for `writeSoon`); absent: `writeSoon` writes and waits. */
  readonly fork?: (effect: Effect.Effect<void>) => Effect.Effect<void>
  /** Run once, by the writer, when the store refuses the task's writes for good (terminal elsewhere, or the lease lost). */
  readonly onRefused?: (refusal: WriteRefused) => Effect.Effect<void>
  /**
   * The agent's saved state (see `TaskContext.save`) and a number that grows with each change: a write
   * carries the state when it changed since the last write.
   */
  readonly saved?: { readonly value: () => unknown; readonly version: () => number }
  /** The task this writer writes, for log lines. */
  readonly taskId: string
}

/** A host's writer to the store. */
export interface TaskPersister {
  /**
   * Writes the latest Task if it changed since the last write. Writes are serialised and coalesced. A
   * failure is logged, not raised: the next write carries the change along.
   */
  readonly write: Effect.Effect<void>
  /**
   * As `write`, in the background: the caller goes on at once. Changes made while a write is in flight go
   * together in the next one, so a burst of changes costs a few writes, not one each.
   */
  readonly writeSoon: Effect.Effect<void>
  /** As `write`, but fails when the latest Task and push configs are not stored afterwards. */
  readonly flush: Effect.Effect<void, TaskStoreFailure | VersionConflict | WriteRefused>
  /**
   * Writes what the task is now and fails when the store did not take it: once it succeeds, the store holds
   * the task at least as it was when `sync` was called (a later change may be in the next write).
   */
  readonly sync: Effect.Effect<void, TaskStoreFailure | VersionConflict | WriteRefused>
  /** The epoch of the lease this writer holds on a shared store, once known (its first write, or its takeover). */
  readonly leaseEpoch: () => number | undefined
  /** Whether the store holds the latest Task and push configs. */
  readonly stored: () => boolean
  readonly pushConfigs: () => ReadonlyArray<PushNotificationConfig>
  /** Changes the push configs and writes them. */
  readonly updatePushConfigs: (
    f: (configs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>
  ) => Effect.Effect<void>
}

/**
 * Keeps a task's record in step with its host. Each write carries the version it expects; on a conflict
 * (someone else changed the record, e.g. a push config set through another process) it adopts the stored
 * version and push configs and writes again. Store failures of `write` are logged, not raised: the task
 * goes on in memory and the next write retries; `flush` raises them for a caller that must know (the
 * terminal record, which the host retries until it is stored).
 */
export const persistTask = (options: PersistOptions): TaskPersister => {
  let version = options.version
  // The writer's own fence on a shared store: the lease epoch its first write (or takeover) got.
  let leaseEpoch = options.leaseEpoch
  let pushConfigs = options.pushConfigs
  let written: Task | undefined
  let configsDirty = false
  // The saved state's version in the store (a restored task holds the stored one).
  let savedWritten = options.saved?.version() ?? 0
  const savedDirty = () => options.saved !== undefined && options.saved.version() !== savedWritten
  const lock = makeMutex()

  const unsent = options.unsent
  let refused = false

  type Update = (configs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>
  type Failure = TaskStoreFailure | VersionConflict | WriteRefused
  const counted = <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.tapError(effect, (e) => (e._tag === "TaskStoreFailure" ? Effect.sync(() => options.onFailure?.()) : Effect.void))
  const attempt = (retries: number, update?: Update): Effect.Effect<void, Failure> =>
    Effect.suspend(() => {
      const task = options.current()
      const sending = unsent === undefined ? 0 : unsent.length
      const savedVersion = options.saved?.version() ?? 0
      const savedChanged = savedVersion !== savedWritten
      if (task === undefined || (task === written && !configsDirty && sending === 0 && !savedChanged)) return Effect.void
      const base = leaseEpoch === undefined ? { task, owner: options.owner, pushConfigs } : { task, owner: options.owner, pushConfigs, leaseEpoch }
      const withSaved = savedChanged ? { ...base, saved: { value: options.saved!.value() } } : base
      const input = sending === 0 ? withSaved : { ...withSaved, events: unsent!.slice(0, sending) }
      return counted(options.store.put(input, version)).pipe(
        Effect.flatMap((record) =>
          Effect.sync(() => {
            version = record.version
            if (leaseEpoch === undefined && record.lease !== undefined) leaseEpoch = record.lease.epoch
            written = task
            configsDirty = false
            savedWritten = savedVersion
            if (sending > 0) {
              const lastSeq = unsent![sending - 1]!.seq
              unsent!.splice(0, sending)
              options.onStored?.(lastSeq)
            }
          })
        ),
        Effect.tapErrorTag("WriteRefused", (refusal) =>
          Effect.suspend(() => {
            if (refused) return Effect.void
            refused = true
            return options.onRefused?.(refusal) ?? Effect.void
          })),
        Effect.catchTag("VersionConflict", (conflict) =>
          retries <= 0
            ? Effect.fail(conflict)
            : Effect.flatMap(counted(options.store.get(task.id)), (record) =>
              Effect.suspend(() => {
                version = Option.match(record, { onNone: () => 0, onSome: (r) => r.version })
                if (Option.isSome(record)) {
                  pushConfigs = update === undefined ? record.value.pushConfigs : update(record.value.pushConfigs)
                }
                return attempt(retries - 1, update)
              }))
        )
      )
    })
  const logged = (effect: Effect.Effect<void, Failure>) =>
    Effect.catch(effect, (failure) =>
      failure._tag === "VersionConflict"
        ? Effect.logWarning(`task ${failure.taskId}: store write lost a race repeatedly`)
        : failure._tag === "WriteRefused"
        ? Effect.logWarning(`task ${failure.taskId}: the store refused its write: ${failure.message}`)
        : Effect.logError(`task ${options.taskId}: its write to the store failed; the next write carries the change`, failure))
  const stored = () => {
    const task = options.current()
    return task !== undefined && task === written && !configsDirty && !savedDirty() && (unsent === undefined || unsent.length === 0)
  }

  // Once refused, a write would only be refused again: the host gives the task up (see `onRefused`).
  const write = lock(Effect.suspend(() => (refused ? Effect.void : logged(attempt(3)))))
  const flush = lock(Effect.flatMap(attempt(3), () =>
    stored() ? Effect.void : Effect.fail(new TaskStoreFailure({ message: "the task changed while it was written" }))))
  // One background write waiting for its turn at most: it takes whatever is pending when it runs.
  let scheduled = false
  const fork = options.fork
  const writeSoon = fork === undefined ? write : Effect.suspend(() => {
    if (scheduled || refused) return Effect.void
    scheduled = true
    return fork(lock(Effect.suspend(() => {
      scheduled = false
      return logged(attempt(3))
    })))
  })
  return {
    write,
    writeSoon,
    flush,
    sync: lock(attempt(3)),
    leaseEpoch: () => leaseEpoch,
    stored,
    pushConfigs: () => pushConfigs,
    updatePushConfigs: (f) =>
      lock(
        Effect.suspend(() => {
          pushConfigs = f(pushConfigs)
          configsDirty = true
          return logged(attempt(3, f))
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
  // Made on first contention only: most hosts never wait for their own lock. The next in line resumes on
  // its own scheduler (wake.ts), not inside the previous holder's release.
  const waitTurn = () => waitForWake((resume) => {
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
        return Effect.andThen(restore(waitTurn()), Effect.ensuring(restore(effect), unlock))
      })
    )
}
