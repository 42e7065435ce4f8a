/**
 * Options of a {@link TaskRuntime}: where tasks are kept, how much of each task's stream stays for
 * readers, and the bounds and retries the runtime applies; and how it ends.
 */
import type { Duration, Effect, Scope } from "effect"
import type { FinishedLogOptions } from "./finished-logs.ts"
import type { MemoryTaskStoreOptions } from "./memory-task-store.ts"
import type { TaskStore, TaskStoreFailure } from "./task-store.ts"
import type { WaitingTasksOptions } from "./waiting-tasks.ts"

/**
 * How `shutdown` ends the runtime: stop accepting new tasks (new messages fail with -32004, `ready()` is
 * false), wait up to `grace` (default 10 s, on the Effect Clock) until every hosted task is terminal or
 * waiting for input, then:
 * - on a store shared by several instances, hand every task still hosted over: its agent is stopped with no
 *   change to the task and its lease released at once, so another instance takes a running task over now
 *   (running it again when the agent is `retrySafe`, else ending it `failed`, saying why) and a task
 *   waiting for input waits for its next message on any instance;
 * - otherwise cancel every hosted task that is not terminal, interrupting its agent (finalizers run).
 */
export interface ShutdownRule {
  readonly grace?: Duration.Input
}

/**
 * How a terminal record that the store refused is retried: exponential backoff from `base` (default
 * 100 ms), doubling up to `max` (default 30 s), each delay jittered by ±20%, for as long as the runtime runs.
 */
export interface StoreRetryOptions {
  readonly base?: Duration.Input
  readonly max?: Duration.Input
}

/** Options of {@link TaskRuntime.make}. */
export interface TaskRuntimeOptions {
  /**
   * Where tasks are kept. Default: an in-memory store made with `memoryStore` options. A store, or an
   * Effect that opens one in the runtime's Scope (e.g. `postgresStore(...)` from `a2a-actors/postgres`).
   */
  readonly store?: TaskStore | Effect.Effect<TaskStore, TaskStoreFailure, Scope.Scope>
  readonly memoryStore?: MemoryTaskStoreOptions
  /** Events each task's log keeps for replay and for readers lagging behind. Default 1,024. */
  readonly logWindow?: number
  /**
   * How long (and how many) logs of finished tasks stay available to `tasks/resubscribe` with
   * `Last-Event-ID`. Default 30 s and 1,000 logs.
   */
  readonly finishedLogs?: FinishedLogOptions
  /**
   * How long an agent that outruns a live stream reader (by 3/4 of the log window) waits at most for that
   * reader to make progress before leaving it to a snapshot resync. Default 1 s; 0 never waits.
   */
  readonly readerStall?: Duration.Input
  /**
   * Push configs one task may hold (default 10). Setting one more, with `set` or inline on
   * `message/send`, fails with InvalidParams (-32602); replacing a config by its id always works.
   */
  readonly maxPushConfigsPerTask?: number
  /** Retry of terminal records the store refused; see {@link StoreRetryOptions}. */
  readonly storeRetry?: StoreRetryOptions
  /**
   * Bounds on tasks waiting for their user: at most `perPrincipal` (default 1,000) per principal at once
   * (asking for more is refused, see `TaskContext.requestInput`), each ended `failed` after `idleTtl`
   * (default 1 day) without an answer.
   */
  readonly waitingTasks?: WaitingTasksOptions
}

