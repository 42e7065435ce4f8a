/**
 * What a task host (task-host.ts) is given by its runtime, and what it reports to it.
 */
import type { Effect, Fiber, Schedule } from "effect"
import type { Message, PushNotificationConfig, Task, TaskState } from "../../schemas/index.ts"
import type { Agent } from "../agent/agent.ts"
import type { Principal } from "../auth/principal.ts"
import type { TaskHost } from "./task-host.ts"
import type { TaskStore } from "./task-store.ts"

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

