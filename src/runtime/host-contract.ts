/**
 * The contract between a task host (task-host.ts) and its runtime: what the runtime sees of a host
 * ({@link TaskHost}), and what a host is given by the runtime and reports to it ({@link HostEnv}).
 */
import type { Effect, Fiber, Schedule } from "effect"
import type { TransitionRefused } from "../../machines/task.ts"
import type { Message, PushNotificationConfig, StreamResult, Task, TaskState } from "../../schemas/index.ts"
import type { Agent } from "../agent/agent.ts"
import type { Principal } from "../auth/principal.ts"
import type { EventLog } from "./event-log.ts"
import type { TaskStore, TaskStoreFailure, VersionConflict, WriteRefused } from "./task-store.ts"

/** A Task state change, as observed through `TaskRuntime.onTaskChange`. */
export interface TaskChange {
  readonly task: Task
  /** The state before this change; absent when the task was just created. */
  readonly previous?: TaskState
  /** Id of the owning principal. */
  readonly owner: string
  /** The task's push-notification configs at the time of the change. */
  readonly pushConfigs: ReadonlyArray<PushNotificationConfig>
}

/** What a host needs from its runtime. */
export interface HostEnv {
  readonly agent: Agent
  readonly store: TaskStore
  readonly window: number
  /** How long an agent waits at most for a live stream reader that makes no progress (see paced-log.ts). */
  readonly stallMs: number
  readonly notify: (change: TaskChange) => void
  /**
   * Starts a run of the agent in a fiber of its own, owned by the runtime (closing the runtime interrupts it).
   * `inline`: the fiber's first synchronous steps run before `spawn` returns, instead of on the next tick.
   */
  readonly spawn: (program: Effect.Effect<void, unknown>, inline: boolean) => Effect.Effect<Fiber.Fiber<void, unknown>>
  /** Called when the host no longer serves its task (terminal and stored, answered with a Message, or lost). */
  readonly release: (host: TaskHost) => void
  /** When to try again to store a terminal Task whose write failed (until it succeeds). */
  readonly storeRetry: Schedule.Schedule<unknown, unknown>
  /** Counters of the store's health, shared by every host of the runtime. */
  readonly storeHealth: StoreHealthCounters
  /** Why `owner` may not have one more task waiting for input, if so (see `waitingTasks`). */
  readonly admitWaiting: (owner: string) => Effect.Effect<string | undefined>
}

/** What `TaskRuntime.storeHealth` reports; hosts update it in place. */
export interface StoreHealthCounters {
  /** Finished tasks kept in memory because their terminal record is not stored yet. */
  unstoredTasks: number
  /** Store writes (and the reads of a write's retry) that failed since the runtime started. */
  failedWrites: number
}

/** Who triggered a run of `execute`. */
export interface RunInput {
  readonly message: Message
  readonly principal: Principal
  readonly extensions: ReadonlyArray<string>
}


/**
 * One task in this process: its machine snapshot, event log, store version and the agent's running fiber
 * (owned by the runtime; cancel interrupts it). Every change goes through `apply`, whose machine step and
 * log append are one synchronous block: racing actions (cancel versus complete) are ordered, and exactly one terminal wins.
 */
export interface TaskHost {
  readonly taskId: string
  readonly contextId: string
  readonly owner: string
  readonly log: EventLog<StreamResult>
  /** Whether the Task exists for clients (false until the agent's first action, which may be a reply). */
  readonly materialized: () => boolean
  /** Whether a client ever subscribed to the log (only such a client holds event ids to resume from). */
  readonly streamed: () => boolean
  /** The Message the agent answered with instead of a task, if any. */
  readonly reply: () => Message | undefined
  /** The current Task. */
  readonly task: () => Task
  readonly pushConfigs: () => ReadonlyArray<PushNotificationConfig>
  /** What the agent saved for the task (`TaskContext.save`). */
  readonly saved: () => unknown
  /**
   * Starts `execute` for the message (first run, or a new run on a task whose last run returned).
   * `inline` (for a caller that only waits for the outcome): the agent's synchronous first steps run at once.
   */
  readonly run: (input: RunInput, inline?: boolean) => Effect.Effect<void>
  /**
   * Records a user message with this task's id and hands it to a pending `requestInput`, or to the
   * running agent (`receive`, else its inbox), or starts a run when none is going.
   */
  readonly resume: (input: RunInput) => Effect.Effect<void, TransitionRefused>
  /** Cancels: records `canceled`, interrupts the agent (its finalizers run), persists. */
  readonly cancel: () => Effect.Effect<Task, TransitionRefused>
  /** Resolves once the task exists or the agent replied. */
  readonly awaitMaterialized: () => Effect.Effect<void>
  /** Resolves once the task is terminal or interrupted (or the agent replied, or the host was lost). */
  readonly awaitSettled: () => Effect.Effect<void>
  /**
   * Writes what the task is now (a no-op when it is stored): once it succeeds, what another instance reads
   * is no older. Fails when the store did not take it (`WriteRefused`: the host is lost now).
   */
  readonly awaitStored: Effect.Effect<void, TaskStoreFailure | VersionConflict | WriteRefused>
  /** Ends the task `failed` with the runtime's explanation (e.g. the instance that ran it stopped), stopping any run. */
  readonly failWith: (text: string) => Effect.Effect<void, TransitionRefused>
  /** Changes the push configs and persists them with the task. */
  readonly updatePushConfigs: (
    f: (configs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>
  ) => Effect.Effect<void>
  /** The epoch of the lease this host writes with, on a shared store, once known. */
  readonly leaseEpoch: () => number | undefined
  /**
   * Whether this host lost its task: the store refused its writes for good, its lease went to another
   * instance, or it handed the task over. A lost host changes nothing more and answers nothing: its callers
   * look for the task again, and its readers go on from the stored events.
   */
  readonly lost: () => boolean
  /**
   * Lets the task go, as one whose lease another instance has now: the agent is stopped, nothing more is
   * written (what is not stored never will be), the host leaves the runtime, readers here go on from the
   * stored events. Returns at once; the agent's finalizers run in the background.
   */
  readonly lose: (reason: string) => Effect.Effect<void>
  /**
   * Stops the task here to hand it to another instance (a graceful stop): the agent is interrupted with no
   * change to the task, what it did is stored, and the host leaves the runtime. Answers the lease epoch to
   * release, if the task has one.
   */
  readonly handOver: Effect.Effect<number | undefined>
}

