import type { Effect, Option, Scope, Stream } from "effect"
import { Data } from "effect"
import type { PushNotificationConfig, StreamResult, Task, TaskState } from "../../schemas/index.ts"
import type { Sequenced } from "./event-log.ts"

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
  /** Sequence number of the last stream event the record reflects (a shared store keeps it; else absent). */
  readonly lastSeq?: number
  /** Which instance runs the task (a shared store keeps it; else absent). */
  readonly lease?: TaskLease
  /**
   * The epoch of the task's lease, whether an instance holds it or not (a shared store keeps it): what a
   * taker names to take the task over (`SharedTasks.takeOver`).
   */
  readonly leaseEpoch?: number
  /**
   * What the task's agent saved to resume it (`TaskContext.save`), kept on the server only and never sent to
   * clients; absent when nothing is saved (a terminal task keeps none).
   */
  readonly saved?: unknown
}

/** The right of one instance to run a task's agent, renewed by that instance while it runs. */
export interface TaskLease {
  /** Id of the instance holding it. */
  readonly instance: string
  /** Raised by one each time another instance takes the task over: writes by an older holder are refused. */
  readonly epoch: number
  /** Whether it is still within its time (its holder renewed it recently). */
  readonly live: boolean
}

/** The part of a record a writer supplies; the store assigns `version` and `updatedAt`. */
export interface TaskRecordInput {
  readonly task: Task
  readonly owner: string
  readonly pushConfigs: ReadonlyArray<PushNotificationConfig>
  /**
   * The task's stream events appended since the last write, numbered, the last one reflected by `task`.
   * A shared store keeps them with the record in one write, for readers on other instances; others ignore them.
   */
  readonly events?: ReadonlyArray<Sequenced<StreamResult>>
  /**
   * The epoch of the task's lease that the writer holds (from the record its first write or its takeover
   * returned). A shared store refuses the write unless that lease is still the task's: the fence is the
   * writer's own, so a stale writer is refused even beside a fresh one in the same process.
   */
  readonly leaseEpoch?: number
  /**
   * The agent's saved state, when it changed since the last write (`value` undefined: none any more);
   * absent: the stored one stays. A terminal record keeps none.
   */
  readonly saved?: { readonly value: unknown }
}

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const VersionConflictBase: ReturnType<typeof Data.TaggedError<"VersionConflict">> = Data.TaggedError("VersionConflict")

/** A write lost an optimistic-concurrency race: someone else wrote the record in between. */
export class VersionConflict extends VersionConflictBase<{
  readonly taskId: string
  readonly expected: number
  /** The version found (0 when the record does not exist). */
  readonly actual: number
}> {}

const WriteRefusedBase: ReturnType<typeof Data.TaggedError<"WriteRefused">> = Data.TaggedError("WriteRefused")

/**
 * A write the store refuses whatever the version: the task is terminal and the write would change it
 * (a terminal state is final), or the writer no longer holds the task's lease (another instance took it over).
 */
export class WriteRefused extends WriteRefusedBase<{
  readonly taskId: string
  readonly reason: "terminal" | "lease"
  readonly message: string
}> {}

const TaskStoreFailureBase: ReturnType<typeof Data.TaggedError<"TaskStoreFailure">> = Data.TaggedError("TaskStoreFailure")

/** The storage itself failed (I/O, connection). The in-memory store never fails. */
export class TaskStoreFailure extends TaskStoreFailureBase<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** Filters of {@link TaskStore.list}. */
export interface TaskListFilter {
  readonly owner?: string
  readonly contextId?: string
  /** Most records returned: default and at most {@link defaultListLimit}. */
  readonly limit?: number
}

/** The most records one `list` returns. */
export const defaultListLimit = 1_000

/** Where a page of {@link TaskStore.listTasks} ends: the last task's status timestamp and id. */
export interface TaskCursor {
  readonly timestamp: string
  readonly id: string
}

/**
 * A query of one principal's tasks (A2A 1.0 `ListTasks`): newest status first (ties by id, descending),
 * filtered, from a cursor on, at most `limit` of them.
 */
export interface TaskQuery {
  readonly owner: string
  readonly contextId?: string
  readonly state?: TaskState
  /** ISO 8601 (as `toISOString` writes it): only tasks whose status timestamp is at or after it. */
  readonly statusAfter?: string
  /** The cursor of the previous page: only tasks after it in the order. */
  readonly after?: TaskCursor
  /** Most tasks in the page (1 or more; callers bound it). */
  readonly limit: number
}

/** One page of a {@link TaskQuery}. */
export interface TaskPage {
  readonly tasks: ReadonlyArray<Task>
  /** The cursor for the next page; absent on the last one. */
  readonly next?: TaskCursor
  /** How many tasks match the query's filters, on every page. */
  readonly total: number
}

/** The sort key of a task in a {@link TaskQuery}: its status timestamp (`""` when it has none). */
export const statusTimestampOf = (task: Task): string => task.status.timestamp ?? ""

/**
 * Where tasks live between (and beyond) their actors. The runtime never assumes that the actor of a
 * stored task runs in its own process: it reads and writes through this interface with versions, so a
 * shared (e.g. PostgreSQL) store is an added implementation.
 *
 * The in-memory and PostgreSQL stores pass one behaviour suite (kept in this project's repository, not in the
 * package); another implementation keeps the contract each member documents.
 */
export interface TaskStore {
  /** The record, or none when unknown (or expired). */
  readonly get: (taskId: string) => Effect.Effect<Option.Option<TaskRecord>, TaskStoreFailure>
  /**
   * Writes a record if the stored version is `expectedVersion` (0: the record must not exist yet).
   * Returns the stored record with its new version. A terminal record never changes its Task again
   * (`WriteRefused`); its push configs may still change.
   */
  readonly put: (
    input: TaskRecordInput,
    expectedVersion: number
  ) => Effect.Effect<TaskRecord, VersionConflict | WriteRefused | TaskStoreFailure>
  /** Records matching the filter, oldest write first, at most `filter.limit` (default and at most 1,000). */
  readonly list: (filter?: TaskListFilter) => Effect.Effect<ReadonlyArray<TaskRecord>, TaskStoreFailure>
  /** One page of an owner's tasks (see {@link TaskQuery}); a durable store answers it with an index, not a scan. */
  readonly listTasks: (query: TaskQuery) => Effect.Effect<TaskPage, TaskStoreFailure>
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
  /** How many tasks of `owner` wait for their user (`input-required` or `auth-required`). */
  readonly countWaiting: (owner: string) => Effect.Effect<number, TaskStoreFailure>
  /** Ids of tasks waiting for their user whose last write is older than `before` (epoch ms), oldest first, at most `limit`. */
  readonly idleWaiting: (before: number, limit: number) => Effect.Effect<ReadonlyArray<string>, TaskStoreFailure>
  /** Present when several processes share the store (PostgreSQL): leases, events and commands across them. */
  readonly shared?: SharedTasks
}

/** A command for the instance running a task, and its answer: plain JSON, made and read by the runtime. */
export type CommandBody = Readonly<Record<string, unknown>>

const CommandUnansweredBase: ReturnType<typeof Data.TaggedError<"CommandUnanswered">> = Data.TaggedError("CommandUnanswered")

/** The instance a command was sent to stopped before it answered (or before anyone took the command). */
export class CommandUnanswered extends CommandUnansweredBase<{
  readonly taskId: string
  /** Whether the instance took the command before it stopped (then it may have applied it). */
  readonly taken: boolean
  readonly message: string
}> {}

/** A lease this instance believes it holds: the task and the epoch it got. */
export interface HeldLease {
  readonly taskId: string
  readonly epoch: number
}

/** A lease to take over (its holder stopped, or handed the task over), at the epoch read. */
export interface LeaseToTake {
  readonly taskId: string
  readonly epoch: number
}

/** What an instance serves for the others (see {@link SharedTasks.serve}). */
export interface SharedHandlers {
  /** Answers a command about a task hosted here. Never fails: errors are answers. */
  readonly command: (taskId: string, command: CommandBody) => Effect.Effect<CommandBody>
  /** Another instance handed these tasks over (it is stopping): take them over now rather than at lease expiry. */
  readonly handedOver: (taskIds: ReadonlyArray<string>) => Effect.Effect<void>
}

/**
 * What a store shared by several instances adds. Exactly one instance runs a task's agent at a time: the
 * one holding its lease. The store creates the lease with the task (`put` with version 0), fences this
 * instance's writes by the lease's epoch (a stale holder's write is `WriteRefused`) and drops the lease when
 * the task becomes terminal; the runtime renews the leases it holds.
 */
export interface SharedTasks {
  /** This instance's id, unique per process start. */
  readonly instanceId: string
  /** How long a lease lasts when its holder stops renewing it, in milliseconds. */
  readonly leaseMs: number
  /**
   * Renews the leases of `held` that this instance still holds at that epoch, and answers their task ids:
   * a lease missing from the answer was taken over (or the task ended elsewhere). Call it every third of
   * `leaseMs`.
   */
  readonly renewLeases: (held: ReadonlyArray<HeldLease>) => Effect.Effect<ReadonlySet<string>, TaskStoreFailure>
  /**
   * Takes the lease of a non-terminal task that nobody runs (no lease, an expired or handed-over one, or
   * this instance's own) if its epoch is still `epoch`, the one the caller read: raises the epoch and
   * returns the record. None when the task is terminal, unknown, changed hands since it was read, or another
   * instance holds a live lease. Of concurrent takers of one epoch, exactly one gets the task.
   */
  readonly takeOver: (taskId: string, epoch: number) => Effect.Effect<Option.Option<TaskRecord>, TaskStoreFailure>
  /** Leases of non-terminal tasks that expired (their holder stopped) or were handed over, at most 100. */
  readonly expiredLeases: Effect.Effect<ReadonlyArray<LeaseToTake>, TaskStoreFailure>
  /**
   * Gives up this instance's lease of `epoch`. By default the task is left with no lease (a task waiting
   * for input: any instance takes it with the next message); `handOver` leaves it expired at once and tells
   * the other instances, so one of them takes the task over now.
   */
  readonly releaseLease: (taskId: string, epoch: number, options?: { readonly handOver?: boolean }) => Effect.Effect<void, TaskStoreFailure>
  /**
   * The task's stream events after sequence number `after`, stored and live, in order and without gaps;
   * where the events asked for are no longer kept, first the Task as stored (numbered with the last event
   * it reflects). The stream does not end by itself: the reader stops at the final event.
   */
  readonly events: (taskId: string, after: number) => Stream.Stream<Sequenced<StreamResult>, TaskStoreFailure>
  /**
   * Sends a command about a task to an instance and waits for its answer for as long as that instance
   * lives. Fails with `CommandUnanswered` once it stopped without answering: then it never took the
   * command, or took it and stopped before answering.
   */
  readonly send: (
    instance: string,
    taskId: string,
    command: CommandBody
  ) => Effect.Effect<CommandBody, TaskStoreFailure | CommandUnanswered>
  /** Answers the commands sent to this instance, and takes over tasks handed over, for as long as the Scope lives. */
  readonly serve: (handlers: SharedHandlers) => Effect.Effect<void, never, Scope.Scope>
}

/** Task states after which nothing changes. */
export const terminalStates: ReadonlySet<string> = new Set(["completed", "canceled", "failed", "rejected"])

/** Whether a task is in a terminal state. */
export const isTerminalTask = (task: Task): boolean => terminalStates.has(task.status.state)

/** Task states in which a task waits for its user. */
export const waitingStates: ReadonlySet<string> = new Set(["input-required", "auth-required"])

/** Whether a task waits for its user (`input-required` or `auth-required`). */
export const isWaitingTask = (task: Task): boolean => waitingStates.has(task.status.state)

/** U+0000, or a surrogate that is not half of a pair. */
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Whether `key` can be a key of every store: well-formed text without U+0000 (SQL text holds neither a NUL
 * nor a lone surrogate, so such a key would not compare as sent). Content is kept as sent whatever it holds;
 * keys a client names (a context id) must be storable.
 */
export const isStorableKey = (key: string): boolean => !unstorable.test(key)
