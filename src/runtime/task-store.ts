import type { Effect, Option } from "effect"
import { Data } from "effect"
import type { PushNotificationConfig, Task } from "../../schemas/index.ts"

/**
 * What a store keeps per task. Everything a process needs to serve a task it does not host: the Task as
 * last written, its owner and its push configurations. Records are plain JSON so that a durable store can
 * keep them as one row/document.
 */
export interface TaskRecord {
  readonly task: Task
  /** Starts at 1 with the first write; each accepted write adds 1. */
  readonly version: number
  /** Id of the principal that created the task: the only one that may see it. */
  readonly owner: string
  /** Push configurations, each with its (server-assigned when absent) `id`, in the order they were set. */
  readonly pushConfigs: ReadonlyArray<PushNotificationConfig>
  /** Epoch milliseconds of the last write, from the store's `Clock`. */
  readonly updatedAt: number
}

/** The part of a record a writer supplies; the store assigns `version` and `updatedAt`. */
export interface TaskRecordInput {
  readonly task: Task
  readonly owner: string
  readonly pushConfigs: ReadonlyArray<PushNotificationConfig>
}

/** A write lost an optimistic-concurrency race: someone else wrote the record in between. */
export class VersionConflict extends Data.TaggedError("VersionConflict")<{
  readonly taskId: string
  readonly expected: number
  /** The version found (0 when the record does not exist). */
  readonly actual: number
}> {}

/** The storage itself failed (I/O, connection). The in-memory store never fails. */
export class TaskStoreFailure extends Data.TaggedError("TaskStoreFailure")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** Filters of {@link TaskStore.list}. */
export interface TaskListFilter {
  readonly owner?: string
  readonly contextId?: string
}

/**
 * Where tasks live between (and beyond) their actors. The runtime never assumes that the actor of a
 * stored task runs in its own process: it reads and writes through this interface with versions, so a
 * shared (e.g. PostgreSQL) store is an added implementation.
 *
 * Implementations must pass `runTaskStoreSuite` (`testing/runtime/task-store-suite.ts`).
 */
export interface TaskStore {
  /** The record, or none when unknown (or expired). */
  readonly get: (taskId: string) => Effect.Effect<Option.Option<TaskRecord>, TaskStoreFailure>
  /**
   * Writes a record if the stored version is `expectedVersion` (0: the record must not exist yet).
   * Returns the stored record with its new version.
   */
  readonly put: (
    input: TaskRecordInput,
    expectedVersion: number
  ) => Effect.Effect<TaskRecord, VersionConflict | TaskStoreFailure>
  /** Records matching the filter, oldest write first. */
  readonly list: (filter?: TaskListFilter) => Effect.Effect<ReadonlyArray<TaskRecord>, TaskStoreFailure>
  /** Removes a record; true when it existed. */
  readonly delete: (taskId: string) => Effect.Effect<boolean, TaskStoreFailure>
  /**
   * Makes `owner` the owner of conversation context `contextId` unless it already has one, and returns
   * the owner on record. Atomic: of concurrent claims by different owners, one wins and every claim
   * returns the winner. A stored task's context belongs to the task's owner: the first `put` of a task
   * claims its context the same way. A context stays owned at least as long as the store holds any of
   * its tasks; how long after that is the store's choice (document it).
   */
  readonly claimContext: (contextId: string, owner: string) => Effect.Effect<string, TaskStoreFailure>
}

/** Task states after which nothing changes. */
export const terminalStates: ReadonlySet<string> = new Set(["completed", "canceled", "failed", "rejected"])

/** Whether a task is in a terminal state. */
export const isTerminalTask = (task: Task): boolean => terminalStates.has(task.status.state)
