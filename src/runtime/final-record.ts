/**
 * The terminal record of a task: written when the task ends, and on a failing store retried in the
 * background with backoff until it is stored. Until then the host stays, so every reader keeps getting
 * the task's true state rather than the stale record; a record refused for good (another instance ended
 * or took the task) is not retried.
 */
import { Effect } from "effect"
import type { LifecycleState } from "../../machines/task.ts"
import type { HostEnv } from "./host-contract.ts"
import type { TaskPersister } from "./persist.ts"

export interface FinalRecordOptions {
  readonly taskId: string
  readonly state: () => LifecycleState
  readonly persist: TaskPersister
  readonly env: HostEnv
  /** Lets the runtime forget the host (once the record is stored, or refused for good). */
  readonly forget: Effect.Effect<void>
  readonly forgotten: () => boolean
}

/** Stores the terminal record (retrying in the background when the store fails), then forgets the host. */
export const finalRecord = (options: FinalRecordOptions): Effect.Effect<void> => {
  const { env, forget, persist, taskId } = options
  let retrying = false
  const retryStore = (firstFailure: unknown): Effect.Effect<void> => {
    let attempts = 1
    const what = () => `task ${taskId} ended ${options.state()} but its record is not stored`
    const done = Effect.sync(() => {
      retrying = false
      env.storeHealth.unstoredTasks--
    })
    return Effect.andThen(
      Effect.logError(`${what()}; retrying with backoff`, firstFailure),
      persist.flush.pipe(
        Effect.tapError((failure) => {
          attempts++
          // Logged at 2, 4, 8, ... attempts: visible for as long as it lasts, without a line per retry.
          return (attempts & (attempts - 1)) === 0 ? Effect.logError(`${what()} after ${attempts} attempts`, failure) : Effect.void
        }),
        // Refused for good (another instance ended or took the task): nothing to retry.
        Effect.retry({ schedule: env.storeRetry, while: (failure) => failure._tag !== "WriteRefused" }),
        Effect.matchEffect({
          onFailure: () => Effect.andThen(done, forget),
          onSuccess: () =>
            Effect.logInfo(`task ${taskId} stored after ${attempts + 1} attempts`).pipe(Effect.andThen(done), Effect.andThen(forget))
        }),
        Effect.onInterrupt(() => Effect.logError(`${what()}: the runtime stopped before the store took it`))
      )
    )
  }
  return Effect.suspend(() =>
    retrying
      ? Effect.void
      : Effect.catch(Effect.andThen(persist.flush, forget), (failure) =>
        Effect.suspend(() => {
          if (retrying || options.forgotten()) return Effect.void
          if (failure._tag === "WriteRefused") return forget
          retrying = true
          env.storeHealth.unstoredTasks++
          return Effect.asVoid(env.spawn(retryStore(failure), false))
        })))
}
