import { Clock, Duration, Effect, Option, Schedule } from "effect"
import type { Scope } from "effect"
import type { Task } from "../../schemas/index.ts"
import { makeContextOwners } from "./context-owners.ts"
import { TransientMap } from "./transient-map.ts"
import { defaultListLimit, isTerminalTask, isWaitingTask, statusTimestampOf, VersionConflict, WriteRefused } from "./task-store.ts"
import type { TaskListFilter, TaskPage, TaskQuery, TaskRecord, TaskRecordInput, TaskStore } from "./task-store.ts"

/** Whether a write leaves the Task as stored (a terminal record may still get new push configs). */
const sameTask = (a: Task, b: Task): boolean => a === b || JSON.stringify(a) === JSON.stringify(b)

/** Options of {@link makeMemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /**
   * Most terminal tasks kept; beyond it the oldest terminal ones are evicted. Running tasks are never
   * evicted (that would break their clients silently), so they are bounded by the caller's concurrency.
   * Default 10,000.
   */
  readonly maxTerminalTasks?: number
  /**
   * How long a terminal task stays readable after its last write. Default 1 hour. A conversation context
   * stays its owner's while a task of it is stored, and for this long after its last task went or its
   * last claim (at most `maxTerminalTasks` such idle contexts are kept, the oldest go first).
   */
  readonly terminalTtl?: Duration.Input
  /** How often expired tasks are swept when nobody touches the store. Default: the TTL, at most 1 minute. */
  readonly sweepInterval?: Duration.Input
}

/** The in-memory store with its size, for tests and metrics. */
export interface MemoryTaskStore extends TaskStore {
  /** Number of records held. */
  readonly size: () => number
}

/**
 * The embedded default {@link TaskStore}: a Map, a size bound and a time to live for terminal tasks.
 * Time comes from Effect's `Clock` (so `TestClock` drives expiry); a sweeper fiber lives in the Scope.
 */
export const makeMemoryTaskStore = (
  options: MemoryTaskStoreOptions = {}
): Effect.Effect<MemoryTaskStore, never, Scope.Scope> =>
  Effect.gen(function*() {
    const maxTerminal = Math.max(0, options.maxTerminalTasks ?? 10_000)
    const ttl = Duration.toMillis(Duration.fromInputUnsafe(options.terminalTtl ?? Duration.hours(1)))
    const sweepEvery = options.sweepInterval ?? Duration.millis(Math.max(1, Math.min(ttl, 60_000)))
    const records = new TransientMap<string, TaskRecord>()
    const contexts = makeContextOwners({ ttlMs: ttl, maxIdle: maxTerminal })
    // Terminal records in write order: with one TTL for all, the front is always the first to expire.
    // An array queue, not a Map walked from its start: a Map keeps deleted slots until it rehashes, and
    // skipping them on every eviction (once past the size bound) cost a tenth of a task's time.
    // An entry counts only while `terminal` maps its id to that very entry (a rewrite or delete leaves it stale).
    interface Terminal {
      readonly id: string
      readonly at: number
    }
    const terminal = new Map<string, Terminal>()
    let order: Array<Terminal> = []
    let head = 0

    // Tasks waiting for their user, by owner (see countWaiting).
    const waiting = new Map<string, number>()
    const countIn = (record: TaskRecord | undefined, by: 1 | -1) => {
      if (record === undefined || !isWaitingTask(record.task)) return
      const n = (waiting.get(record.owner) ?? 0) + by
      if (n <= 0) waiting.delete(record.owner)
      else waiting.set(record.owner, n)
    }

    const drop = (id: string, now: number) => {
      const record = records.get(id)
      if (record === undefined) return
      countIn(record, -1)
      records.delete(id)
      terminal.delete(id)
      contexts.taskRemoved(record.task.contextId, now)
    }

    const compact = () => {
      if (head > 1024 && head * 2 > order.length) {
        order = order.slice(head)
        head = 0
      }
      // Stale entries of rewritten or deleted records: keep the queue within a constant factor of the live ones.
      if (order.length - head > 2 * terminal.size + 1024) {
        order = order.slice(head).filter((e) => terminal.get(e.id) === e)
        head = 0
      }
    }

    // When the oldest terminal record expires: until then (and within the size bound) a sweep has
    // nothing to do, so the get/put on every request skip the walk. May be early, never late.
    let nextExpiry = Number.POSITIVE_INFINITY
    const sweep = (now: number) => {
      if (now < nextExpiry && terminal.size <= maxTerminal) return
      nextExpiry = Number.POSITIVE_INFINITY
      while (head < order.length) {
        const entry = order[head]!
        if (terminal.get(entry.id) === entry) {
          if (entry.at + ttl > now && terminal.size <= maxTerminal) {
            nextExpiry = entry.at + ttl
            break
          }
          drop(entry.id, now)
        }
        head++
      }
      compact()
    }

    const withNow = <A>(f: (now: number) => A) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweep(now)
        return f(now)
      })

    const put = (input: TaskRecordInput, expectedVersion: number): Effect.Effect<TaskRecord, VersionConflict | WriteRefused> =>
      Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<TaskRecord, VersionConflict | WriteRefused> => {
        sweep(now)
        const taskId = input.task.id
        const previous = records.get(taskId)
        const actual = previous?.version ?? 0
        if (actual !== expectedVersion) {
          return Effect.fail(new VersionConflict({ taskId, expected: expectedVersion, actual }))
        }
        if (previous !== undefined && isTerminalTask(previous.task) && !sameTask(previous.task, input.task)) {
          return Effect.fail(new WriteRefused({ taskId, reason: "terminal", message: `task ${taskId} is ${previous.task.status.state}: a terminal task does not change` }))
        }
        // The agent's saved state: replaced when the write carries one, dropped once the task is terminal.
        const saved = isTerminalTask(input.task) ? undefined : input.saved !== undefined ? input.saved.value : previous?.saved
        const record: TaskRecord = {
          task: input.task,
          owner: input.owner,
          pushConfigs: input.pushConfigs,
          version: actual + 1,
          updatedAt: now,
          ...(saved === undefined ? {} : { saved })
        }
        records.set(taskId, record)
        countIn(previous, -1)
        countIn(record, 1)
        if (previous?.task.contextId !== input.task.contextId) {
          if (previous !== undefined) contexts.taskRemoved(previous.task.contextId, now)
          contexts.taskAdded(input.task.contextId, input.owner)
        }
        terminal.delete(taskId)
        if (isTerminalTask(input.task)) {
          const entry: Terminal = { id: taskId, at: now }
          terminal.set(taskId, entry)
          order.push(entry)
          compact()
          nextExpiry = Math.min(nextExpiry, now + ttl)
          sweep(now)
        }
        return Effect.succeed(record)
      })

    const matches = (r: TaskRecord, f: TaskListFilter | undefined) =>
      (f?.owner === undefined || r.owner === f.owner) &&
      (f?.contextId === undefined || r.task.contextId === f.contextId)

    /** Newest status first, then id descending: the order of {@link TaskQuery}. */
    const newestFirst = (a: Task, b: Task): number => {
      const ta = statusTimestampOf(a)
      const tb = statusTimestampOf(b)
      return ta !== tb ? (ta < tb ? 1 : -1) : a.id === b.id ? 0 : a.id < b.id ? 1 : -1
    }

    // A scan of the records: the store is bounded (maxTerminalTasks plus the running ones).
    const listTasks = (q: TaskQuery): TaskPage => {
      const matching: Array<Task> = []
      for (const record of records.values()) {
        const task = record.task
        if (record.owner !== q.owner) continue
        if (q.contextId !== undefined && task.contextId !== q.contextId) continue
        if (q.state !== undefined && task.status.state !== q.state) continue
        if (q.statusAfter !== undefined && statusTimestampOf(task) < q.statusAfter) continue
        matching.push(task)
      }
      matching.sort(newestFirst)
      const after = q.after
      const start = after === undefined
        ? 0
        : matching.findIndex((t) => {
          const ts = statusTimestampOf(t)
          return ts < after.timestamp || (ts === after.timestamp && t.id < after.id)
        })
      const from = start < 0 ? matching.length : start
      const tasks = matching.slice(from, from + q.limit)
      const last = tasks[tasks.length - 1]
      const more = from + q.limit < matching.length && last !== undefined
      return more
        ? { tasks, next: { timestamp: statusTimestampOf(last), id: last.id }, total: matching.length }
        : { tasks, total: matching.length }
    }

    yield* Effect.forkScoped(
      Effect.repeat(
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() => {
            sweep(now)
            contexts.sweep(now)
          })),
        Schedule.spaced(sweepEvery)
      )
    )

    const store: MemoryTaskStore = {
      get: (id) => withNow(() => Option.fromNullishOr(records.get(id))),
      put,
      list: (filter) =>
        withNow(() =>
          [...records.values()].filter((r) => matches(r, filter)).sort((a, b) => a.updatedAt - b.updatedAt)
            .slice(0, Math.max(0, Math.min(filter?.limit ?? defaultListLimit, defaultListLimit)))),
      listTasks: (query) => withNow(() => listTasks(query)),
      countWaiting: (owner) => Effect.sync(() => waiting.get(owner) ?? 0),
      idleWaiting: (before, limit) =>
        withNow(() =>
          [...records.values()].filter((r) => isWaitingTask(r.task) && r.updatedAt < before)
            .sort((a, b) => a.updatedAt - b.updatedAt).slice(0, limit).map((r) => r.task.id)),
      delete: (id) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const existed = records.has(id)
          drop(id, now)
          return existed
        }),
      claimContext: (contextId, owner) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          contexts.sweep(now)
          return contexts.claim(contextId, owner, now)
        }),
      size: () => records.size
    }
    return store
  })
