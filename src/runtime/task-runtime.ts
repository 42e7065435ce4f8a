import { Clock, Duration, Effect, Exit, Fiber, Option, Schedule, Scope, Stream } from "effect"
import { restore, step, taskOf } from "../../machines/task.ts"
import type {
  DeleteTaskPushNotificationConfigParams,
  GetTaskPushNotificationConfigParams,
  ListTaskPushNotificationConfigParams,
  Message,
  MessageSendParams,
  ProtocolError,
  PushNotificationConfig,
  StreamResult,
  Task,
  TaskIdParams,
  TaskPushNotificationConfig,
  TaskQueryParams
} from "../../schemas/index.ts"
import { ContentTypeNotSupported, Internal, InvalidParams, TaskNotCancelable, TaskNotFound, UnsupportedOperation } from "../../schemas/index.ts"
import { fromWireError, isProtocolError, TaskTerminal, toWireError } from "../../schemas/error-catalogue.ts"
import type { Agent } from "../agent/agent.ts"
import type { Principal } from "../auth/principal.ts"
import { defaultLogWindow } from "./event-log.ts"
import type { Sequenced } from "./event-log.ts"
import { acceptedInputModes, unsupportedMimeType } from "./input-modes.ts"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import type { MemoryTaskStoreOptions } from "./memory-task-store.ts"
import { defaultMaxConfigsPerTask, findConfig, removeConfig, upsertConfig, withConfigId } from "./push-configs.ts"
import { makeFinishedLogs, type FinishedLogOptions } from "./finished-logs.ts"
import { untilFinal, withHistoryLength } from "./stream-end.ts"
import { makeTaskHost } from "./task-host.ts"
import type { RunInput, StoreHealthCounters, TaskChange, TaskHost } from "./task-host.ts"
import { isTerminalTask } from "./task-store.ts"
import type { CommandBody, SharedTasks, TaskPage, TaskQuery, TaskRecord, TaskStore, TaskStoreFailure } from "./task-store.ts"

export type { TaskChange } from "./task-host.ts"

/** Who is asking, and which extensions the request activated. */
export interface RequestContext {
  readonly principal: Principal
  readonly extensions: ReadonlyArray<string>
}

/** One event of a task's stream with its per-task sequence number (1-based, increasing): the SSE `id`. */
export type SequencedEvent = Sequenced<StreamResult>

/**
 * How `shutdown` ends the runtime: stop accepting new tasks (new messages fail with -32004), wait up to
 * `grace` (default 10 s, on the Effect Clock) until every hosted task is terminal or waiting for input,
 * then cancel every hosted task that is not terminal, interrupting its agent (finalizers run).
 */
export interface ShutdownRule {
  readonly grace?: Duration.Input
}

/**
 * The service that creates, continues, cancels and observes tasks. Tasks belong to the principal that
 * created them: any other principal gets TaskNotFound, exactly as for an unknown id. Every method reads and
 * writes through the {@link TaskStore}; an actor hosted in this process is a fast path, never an assumption.
 */
export interface TaskRuntime {
  readonly agent: Agent
  readonly store: TaskStore
  /**
   * `message/send`. Without `taskId` starts a task; with one, continues it. A `contextId` names the
   * conversation: the caller's own, or one nobody has used, which then becomes the caller's; a context
   * of another principal is never joined, the task starts in a fresh context instead.
   * `configuration.blocking` (default true) waits until the task is terminal or interrupted; `false`
   * answers once the task exists (the agent's first action), since the agent may answer with a Message.
   */
  readonly send: (params: MessageSendParams, ctx: RequestContext) => Effect.Effect<Task | Message, ProtocolError>
  /**
   * `message/stream`: the Task first (or the agent's only Message), then live events, ending after the
   * status-update with `final: true`. The task runs on when the stream is abandoned.
   */
  readonly stream: (
    params: MessageSendParams,
    ctx: RequestContext
  ) => Effect.Effect<Stream.Stream<SequencedEvent, ProtocolError>, ProtocolError>
  /** `tasks/get`. */
  readonly get: (params: TaskQueryParams, ctx: RequestContext) => Effect.Effect<Task, ProtocolError>
  /**
   * One page of the caller's own tasks (A2A 1.0 `ListTasks`), newest status first: the store's answer to
   * the query with the caller as owner.
   */
  readonly list: (query: Omit<TaskQuery, "owner">, ctx: RequestContext) => Effect.Effect<TaskPage, ProtocolError>
  /** `tasks/cancel`: TaskNotCancelable (-32002) for any terminal task, `canceled` included. */
  readonly cancel: (params: TaskIdParams, ctx: RequestContext) => Effect.Effect<Task, ProtocolError>
  /**
   * `tasks/resubscribe`: the events after `lastEventId` while the log holds them, otherwise the Task first;
   * then live events. A terminal task yields its Task and ends.
   */
  readonly resubscribe: (
    params: TaskIdParams,
    ctx: RequestContext,
    lastEventId?: number
  ) => Effect.Effect<Stream.Stream<SequencedEvent, ProtocolError>, ProtocolError>
  /** Stores a push config (server-assigned id when absent); the first config is also `default`. */
  readonly setPushConfig: (
    params: TaskPushNotificationConfig,
    ctx: RequestContext
  ) => Effect.Effect<TaskPushNotificationConfig, ProtocolError>
  /** A push config by id (absent or `default`: the first). Unknown config: TaskNotFound naming the config. */
  readonly getPushConfig: (
    params: GetTaskPushNotificationConfigParams,
    ctx: RequestContext
  ) => Effect.Effect<TaskPushNotificationConfig, ProtocolError>
  readonly listPushConfigs: (
    params: ListTaskPushNotificationConfigParams,
    ctx: RequestContext
  ) => Effect.Effect<ReadonlyArray<TaskPushNotificationConfig>, ProtocolError>
  /** Removes a push config; removing an unknown config id succeeds (idempotent). */
  readonly deletePushConfig: (
    params: DeleteTaskPushNotificationConfigParams,
    ctx: RequestContext
  ) => Effect.Effect<void, ProtocolError>
  /**
   * Calls `listener` synchronously on every Task state change in this process (creation, each status
   * change, terminal), for as long as the Scope lives. Keep it cheap: enqueue, don't work (push sender, audit).
   */
  readonly onTaskChange: (listener: (change: TaskChange) => void) => Effect.Effect<void, never, Scope.Scope>
  /**
   * Number of tasks whose actor lives in this process right now (terminal tasks leave once their final
   * record is stored).
   */
  readonly hosted: () => number
  /**
   * How the store is doing, for health checks and metrics: a finished task whose terminal record the
   * store refused stays hosted (and counted in `unstoredTasks`) while the write is retried.
   */
  readonly storeHealth: () => StoreHealth
  /** Ends the runtime by the {@link ShutdownRule}. */
  readonly shutdown: (rule?: ShutdownRule) => Effect.Effect<void>
}

/** A snapshot of the store's health as the runtime sees it (see {@link TaskRuntime.storeHealth}). */
export interface StoreHealth {
  /**
   * Finished tasks whose terminal record is not stored yet: they stay in memory, answer their true state,
   * and their write is retried with backoff until it succeeds. Above 0 for long means the store is down.
   */
  readonly unstoredTasks: number
  /** Store operations of task writes that failed since the runtime started (retries included). */
  readonly failedWrites: number
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
}

/** A task as found for a principal: its host in this process (if any) and its stored record (if read). */
interface Found {
  readonly task: Task
  readonly host: TaskHost | undefined
  readonly record: TaskRecord | undefined
  /** On a shared store: the other instance that runs the task now (it holds a live lease). */
  readonly remote?: string | undefined
}

/** What `continueTask` hands to `send`/`stream`: a host here, or the answer of the instance running the task. */
type Continued =
  | { readonly host: TaskHost; readonly after: number; readonly before: Task | undefined; readonly remote?: undefined }
  | { readonly remote: RemoteAnswer; readonly host?: undefined }

/** The answer to a message command (see `serveCommand`). */
interface RemoteAnswer {
  readonly taskId: string
  readonly after: number
  readonly before: Task
  readonly result: Task | Message
}

/** The task moved between instances while we looked (its lease changed hands): look again. */
class Moved {
  readonly _tag = "Moved"
}

const lastUserMessage = (task: Task): Message | undefined => {
  const history = task.history ?? []
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === "user") return history[i]
  return undefined
}

const storeFailed = (e: unknown) => new Internal({ message: "task store unavailable", data: String((e as { message?: unknown }).message ?? "") })

const make = (agent: Agent, options: TaskRuntimeOptions = {}): Effect.Effect<TaskRuntime, never, Scope.Scope> =>
  Effect.gen(function*() {
    const store: TaskStore = options.store === undefined
      ? yield* makeMemoryTaskStore(options.memoryStore)
      : Effect.isEffect(options.store)
      ? yield* Effect.orDie(options.store)
      : options.store
    const shared: SharedTasks | undefined = store.shared
    const scope = yield* Scope.fork(yield* Effect.scope, "parallel")
    const hosts = new Map<string, TaskHost>()
    const finished = makeFinishedLogs(options.finishedLogs)
    // Run fibers of all hosts: one registry and one finalizer instead of a Scope per task.
    const running = new Set<Fiber.Fiber<void, unknown>>()
    yield* Scope.addFinalizer(scope, Effect.suspend(() => Fiber.interruptAll([...running])))
    // Finished logs expire even when no request comes to sweep them.
    yield* Effect.forkIn(
      Effect.repeat(Effect.sync(() => finished.sweep(Date.now())), Schedule.spaced(Duration.millis(finished.sweepEveryMs))),
      scope
    )
    const listeners = new Set<(change: TaskChange) => void>()
    const inputModes = acceptedInputModes(agent.card)
    const maxConfigs = options.maxPushConfigsPerTask ?? defaultMaxConfigsPerTask
    if (!Number.isInteger(maxConfigs) || maxConfigs < 1) {
      throw new RangeError("maxPushConfigsPerTask must be a whole number of at least 1")
    }
    let accepting = true
    const storeHealth: StoreHealthCounters = { unstoredTasks: 0, failedWrites: 0 }
    const storeRetry = Schedule.jittered(Schedule.min([
      Schedule.exponential(options.storeRetry?.base ?? Duration.millis(100), 2),
      Schedule.spaced(options.storeRetry?.max ?? Duration.seconds(30))
    ]))

    const env = {
      agent,
      store,
      window: options.logWindow ?? defaultLogWindow,
      stallMs: Duration.toMillis(Duration.fromInputUnsafe(options.readerStall ?? Duration.seconds(1))),
      storeRetry,
      storeHealth,
      // Forked with the caller's context, and owned by the runtime's registry instead of a Scope per task.
      // Not inline, the fiber starts on the caller's next scheduler turn: the caller keeps the order it had.
      // `inline` (a blocking send, whose caller only waits for the outcome) runs its first turn at once: an
      // agent that finishes synchronously then costs no scheduler hop to start and none to wake its caller.
      // A yield in that turn still costs one turn, so the agent keeps its order relative to the fibers it forks.
      spawn: (program: Effect.Effect<void, unknown>, inline: boolean) =>
        Effect.map(Effect.forkDetach(program, { startImmediately: inline }), (fiber) => {
          // A run that already ended (inline) needs no registry entry.
          if (fiber.pollUnsafe() === undefined) {
            running.add(fiber)
            fiber.addObserver(() => running.delete(fiber))
          }
          return fiber
        }),
      notify: (change: TaskChange) => {
        for (const l of listeners) l(change)
      },
      release: (taskId: string) => {
        const host = hosts.get(taskId)
        hosts.delete(taskId)
        // Only a log someone streamed can be resumed by event id; the others would be kept for nobody.
        if (host !== undefined && host.materialized() && host.streamed()) finished.add(taskId, host.log, Date.now())
      }
    }

    const notFound = (id: string) => new TaskNotFound({ message: `Task ${id} not found` })

    /** The task for this principal: its local host when there is one, else its stored record. */
    const lookup = (id: string, principal: Principal): Effect.Effect<Found, ProtocolError> =>
      Effect.suspend(() => {
        const host = hosts.get(id)
        if (host !== undefined && host.materialized()) {
          return host.owner === principal.id
            ? Effect.succeed<Found>({ host, task: host.task(), record: undefined })
            : Effect.fail(notFound(id))
        }
        return store.get(id).pipe(
          Effect.mapError(storeFailed),
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(notFound(id)),
            onSome: (record) =>
              record.owner === principal.id
                ? Effect.succeed<Found>({ host: hosts.get(id), task: record.task, record, remote: remoteOf(record) })
                : Effect.fail(notFound(id))
          }))
        )
      })

    /** The instance other than this one that runs the task now, if any. */
    const remoteOf = (record: TaskRecord): string | undefined =>
      shared !== undefined && record.lease?.live === true && record.lease.instance !== shared.instanceId && !isTerminalTask(record.task)
        ? record.lease.instance
        : undefined

    /**
     * What a message must be before it is taken. Its `referenceTaskIds` must name tasks its sender can read:
     * another principal's task is refused in the words used for an unknown one, so the agent never sees, and
     * the sender never learns, a task that is not theirs.
     */
    const checkInput = (params: MessageSendParams, principal: Principal): Effect.Effect<void, ProtocolError> => {
      const message = params.message
      if (message.role !== "user") return Effect.fail(new InvalidParams({ message: "message role must be 'user'" }))
      const mime = unsupportedMimeType(message.parts, inputModes)
      if (mime !== undefined) return Effect.fail(new ContentTypeNotSupported({ message: `Content type ${mime} is not supported by this agent` }))
      const references = message.referenceTaskIds ?? []
      return references.length === 0 ? Effect.void : Effect.forEach(references, (id, i) =>
        Effect.catchIf(lookup(id, principal), (e) => e._tag === "TaskNotFound", () =>
          Effect.fail(new InvalidParams({ message: `Invalid params: referenceTaskIds[${i}] names no task: ${id} not found` }))), { discard: true })
    }

    /** A host for a stored, non-terminal task, from the record as read (on a shared store: with its lease). */
    const hostOf = (record: TaskRecord) =>
      Effect.suspend(() => {
        const snapshot = restore(record.task)
        if (snapshot === undefined) return Effect.fail(new InvalidParams({ message: "task state is unknown" }))
        return makeTaskHost(env, {
          taskId: record.task.id,
          contextId: record.task.contextId,
          owner: record.owner,
          // Only a new task starts from its message; a restored one starts from its snapshot.
          message: lastUserMessage(record.task) ?? { kind: "message", messageId: record.task.id, role: "user", parts: [] },
          pushConfigs: record.pushConfigs,
          restored: {
            snapshot,
            version: record.version,
            lastSeq: record.lastSeq ?? 0,
            ...(record.lease === undefined ? {} : { leaseEpoch: record.lease.epoch })
          }
        }).pipe(Effect.map((host) => {
          hosts.set(host.taskId, host)
          return host
        }))
      })

    /**
     * A host for a stored, non-terminal task that has none in this process. On a shared store this instance
     * first takes the task's lease (only possible when nobody holds a live one): `Moved` when another got it.
     */
    const adopt = (record: TaskRecord): Effect.Effect<TaskHost, ProtocolError | Moved> =>
      shared === undefined
        ? hostOf(record)
        : Effect.flatMap(Effect.mapError(shared.takeOver(record.task.id), storeFailed), (taken): Effect.Effect<TaskHost, ProtocolError | Moved> =>
          Option.isNone(taken) ? Effect.fail(new Moved()) : hostOf(taken.value))

    /** Runs `f` again (a few times) while the task moves between instances under it. */
    const settledMoves = <A>(f: () => Effect.Effect<A, ProtocolError | Moved>): Effect.Effect<A, ProtocolError> => {
      const loop = (left: number): Effect.Effect<A, ProtocolError> =>
        Effect.catch(f(), (e) =>
          e instanceof Moved
            ? left <= 0
              ? Effect.fail(new Internal({ message: "the task kept moving between instances; try again" }))
              : Effect.andThen(Effect.sleep(Duration.millis(20 * (6 - left))), loop(left - 1))
            : Effect.fail(e))
      return loop(5)
    }

    /** Sends a command to the instance running a task; `Moved` when it no longer runs it. */
    const command = (instance: string, taskId: string, body: CommandBody): Effect.Effect<CommandBody, ProtocolError | Moved> =>
      shared === undefined
        ? Effect.fail(new Moved())
        : shared.send(instance, taskId, body).pipe(
          Effect.mapError((e): ProtocolError | Moved => (e._tag === "CommandUnanswered" ? new Moved() : storeFailed(e))),
          Effect.flatMap((answer): Effect.Effect<CommandBody, ProtocolError | Moved> => {
            if (answer["retry"] === true) return Effect.fail(new Moved())
            const error = answer["error"] as { code: number; message: string; data?: unknown } | undefined
            return error === undefined ? Effect.succeed(answer) : Effect.fail(fromWireError(error))
          })
        )

    /**
     * Adds (or replaces by id) one config through `change`, unless the task would then hold more than
     * `maxConfigs`: the bound is judged inside the update, on the configs it actually changes.
     */
    const addConfig = (
      taskId: string,
      config: PushNotificationConfig,
      change: (f: (cs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>) => Effect.Effect<void, ProtocolError>
    ): Effect.Effect<void, ProtocolError> =>
      Effect.suspend(() => {
        let over = false
        const bounded = (cs: ReadonlyArray<PushNotificationConfig>) => {
          const next = upsertConfig(cs, config).configs
          over = next.length > maxConfigs
          return over ? cs : next
        }
        return Effect.flatMap(change(bounded), () =>
          over
            ? Effect.fail(new InvalidParams({
              message: `Task ${taskId} already has ${maxConfigs} push notification configs, the most a task may have; delete one or replace one by its id`
            }))
            : Effect.void)
      })

    const addInlineConfig = (host: TaskHost, config: PushNotificationConfig | undefined) =>
      config === undefined ? Effect.void : addConfig(host.taskId, withConfigId(config), host.updatePushConfigs)

    /**
     * The context of a new task: the one the message names when `owner` owns it or nobody does (it then
     * becomes `owner`'s), otherwise a fresh one. Contexts never cross principals, so `ctx.contextId` is a
     * key an agent can keep conversation memory under.
     */
    const contextOf = (message: Message, owner: string): Effect.Effect<string, ProtocolError> => {
      const named = message.contextId
      if (named === undefined) return Effect.succeed(crypto.randomUUID())
      return Effect.map(
        Effect.mapError(store.claimContext(named, owner), storeFailed),
        (recorded) => (recorded === owner ? named : crypto.randomUUID())
      )
    }

    /** Starts a new task for the message (flat Effect chain: this runs once per task). */
    const startTask = (params: MessageSendParams, input: RunInput, owner: string, inline: boolean) =>
      Effect.suspend(() => {
        if (!accepting) return Effect.fail(new UnsupportedOperation({ message: "the agent is shutting down" }))
        const message = params.message
        const taskId = crypto.randomUUID()
        return Effect.flatMap(
          Effect.flatMap(contextOf(message, owner), (contextId) => makeTaskHost(env, { taskId, contextId, owner, message, pushConfigs: [] })),
          (host) => {
            hosts.set(taskId, host)
            const config = params.configuration?.pushNotificationConfig
            const started = config === undefined ? host.run(input, inline) : Effect.andThen(addInlineConfig(host, config), host.run(input, inline))
            return Effect.as(started, { host, after: 0, before: undefined as Task | undefined } as Continued)
          }
        )
      })

    /** Continues the task a message names; `after` is the log position before the message. */
    const continueTask = (params: MessageSendParams, input: RunInput, ctx: RequestContext, taskId: string, wait: "settled" | "none") =>
      settledMoves(() => continueOnce(params, input, ctx, taskId, wait))

    const continueOnce = (params: MessageSendParams, input: RunInput, ctx: RequestContext, taskId: string, wait: "settled" | "none") =>
      Effect.gen(function*(): Effect.fn.Return<Continued, ProtocolError | Moved> {
        const message = params.message
        const found = yield* lookup(taskId, ctx.principal)
        if (isTerminalTask(found.task)) {
          return yield* Effect.fail(
            new TaskTerminal({ message: `Task ${found.task.id} is ${found.task.status.state} and accepts no more messages` })
          )
        }
        if (message.contextId !== undefined && message.contextId !== found.task.contextId) {
          return yield* Effect.fail(new InvalidParams({ message: "message contextId does not match the task's contextId" }))
        }
        if (found.host === undefined && found.remote !== undefined) {
          // Another instance runs the task: the message goes there, and so does the wait for its outcome.
          const answer = yield* command(found.remote, taskId, {
            kind: "message",
            params: params as unknown as CommandBody,
            principal: ctx.principal as unknown as CommandBody,
            extensions: ctx.extensions,
            wait
          })
          return { remote: answer as unknown as RemoteAnswer }
        }
        if (found.host === undefined && shared !== undefined && (found.task.history ?? []).some((m) => m.messageId === message.messageId)) {
          // Taken in by an instance that stopped before answering: the message is there, not to be taken twice.
          return { remote: { taskId, after: found.record?.lastSeq ?? 0, before: found.task, result: found.task } }
        }
        const host = found.host ?? (yield* adopt(found.record!))
        const before: Task | undefined = host.task()
        const after = host.log.lastSeq()
        // The config first, so the changes this message causes are delivered to it too.
        yield* addInlineConfig(host, params.configuration?.pushNotificationConfig)
        yield* host.resume(input).pipe(Effect.mapError((r) => new InvalidParams({ message: r.message })))
        return { host, after, before }
      })

    /** Starts or continues the task a message is for; `inline`: the caller only waits for the outcome. */
    const dispatch = (params: MessageSendParams, ctx: RequestContext, inline: boolean, wait: "settled" | "none") =>
      Effect.andThen(
        checkInput(params, ctx.principal),
        Effect.suspend((): Effect.Effect<Continued, ProtocolError> => {
          const message = params.message
          const input: RunInput = { message, principal: ctx.principal, extensions: ctx.extensions }
          return message.taskId === undefined
            ? startTask(params, input, ctx.principal.id, inline)
            : continueTask(params, input, ctx, message.taskId, wait)
        })
      )

    const send = (params: MessageSendParams, ctx: RequestContext) => {
      const blocking = params.configuration?.blocking !== false
      return Effect.flatMap(dispatch(params, ctx, blocking, blocking ? "settled" : "none"), (continued) => {
        if (continued.remote !== undefined) {
          const result = continued.remote.result
          return Effect.succeed(result.kind === "task" ? withHistoryLength(result, params.configuration?.historyLength) : result)
        }
        const host = continued.host
        const awaited = blocking ? host.awaitSettled : host.awaitMaterialized
        // On a shared store the answer waits for the record: the client may ask another instance next.
        return Effect.map(shared === undefined ? awaited : Effect.andThen(awaited, host.awaitStored), (): Task | Message => {
          const reply = host.reply()
          if (reply !== undefined) return reply
          return withHistoryLength(host.task(), params.configuration?.historyLength)
        })
      })
    }

    /** A task's events as stored, from `after` on, for a reader on an instance that does not run it. */
    const storedEvents = (taskId: string, after: number, first?: Task): Stream.Stream<SequencedEvent, ProtocolError> => {
      const tail = Stream.mapError(shared!.events(taskId, after), storeFailed)
      return untilFinal(first === undefined ? tail : Stream.concat(Stream.succeed({ seq: after, event: first as StreamResult }), tail))
    }

    const stream = (params: MessageSendParams, ctx: RequestContext) =>
      Effect.map(dispatch(params, ctx, false, "none"), (continued) => {
        if (continued.remote !== undefined) {
          const { after, before, taskId } = continued.remote
          return storedEvents(taskId, after, before)
        }
        const { after, before, host } = continued
        const live = host.log.subscribe({ after })
        const events = before === undefined ? live : Stream.concat(Stream.succeed({ seq: after, event: before as StreamResult }), live)
        if (shared === undefined) return untilFinal(events)
        // The first event names the task: it goes out once another instance can find the task too.
        return untilFinal(Stream.concat(Stream.drain(Stream.fromEffect(Effect.andThen(host.awaitMaterialized, host.awaitStored))), events))
      })

    const get = (params: TaskQueryParams, ctx: RequestContext) =>
      Effect.map(lookup(params.id, ctx.principal), ({ task }) => withHistoryLength(task, params.historyLength))

    /** Cancels a task whose actor is not in this process, through the store alone. */
    const cancelStored = (record: TaskRecord, retries = 3): Effect.Effect<Task, ProtocolError> =>
      Effect.gen(function*() {
        const snapshot = restore(record.task)
        const now = yield* Clock.currentTimeMillis
        const result = snapshot === undefined
          ? undefined
          : step(snapshot, { type: "cancel", timestamp: new Date(now).toISOString() })
        if (result === undefined || !result.accepted) {
          return yield* Effect.fail(new TaskNotCancelable({ message: `Task ${record.task.id} is ${record.task.status.state}` }))
        }
        const task = taskOf(result.snapshot)
        const written = yield* store.put({ task, owner: record.owner, pushConfigs: record.pushConfigs }, record.version).pipe(
          Effect.as(true),
          Effect.catchTag("VersionConflict", () => Effect.succeed(false)),
          Effect.mapError(storeFailed)
        )
        if (!written) {
          // someone wrote in between: decide again on what is stored now
          const fresh = yield* Effect.mapError(store.get(record.task.id), storeFailed)
          if (Option.isNone(fresh)) return yield* Effect.fail(notFound(record.task.id))
          if (retries <= 0) return yield* Effect.fail(new Internal({ message: "task kept changing during cancel" }))
          return yield* cancelStored(fresh.value, retries - 1)
        }
        env.notify({ task, previous: record.task.status.state, owner: record.owner, pushConfigs: record.pushConfigs })
        return task
      })

    const cancelHere = (host: TaskHost) =>
      host.cancel().pipe(Effect.mapError((r) => new TaskNotCancelable({ message: `Task ${host.taskId} is ${r.from}` })))

    const cancel = (params: TaskIdParams, ctx: RequestContext) =>
      settledMoves(() =>
        Effect.flatMap(lookup(params.id, ctx.principal), (found): Effect.Effect<Task, ProtocolError | Moved> => {
          if (found.host !== undefined && found.host.materialized()) return cancelHere(found.host)
          const record = found.record
          if (record === undefined) return Effect.fail(notFound(params.id))
          if (shared === undefined || isTerminalTask(record.task)) return cancelStored(record)
          // On a shared store only the instance running the task changes it: there, or here once taken over.
          if (found.remote !== undefined) {
            return Effect.map(command(found.remote, params.id, { kind: "cancel" }), (answer) => answer["task"] as Task)
          }
          return Effect.flatMap(adopt(record), cancelHere)
        }))

    const resubscribe = (params: TaskIdParams, ctx: RequestContext, lastEventId?: number) =>
      Effect.map(lookup(params.id, ctx.principal), ({ host, record, task }): Stream.Stream<SequencedEvent, ProtocolError> => {
        if (host === undefined || !host.materialized()) {
          // A task that finished here moments ago still has its events: resume exactly after the client's last one.
          // (On a shared store the stored events serve every instance alike.)
          const log = lastEventId === undefined || shared !== undefined ? undefined : finished.get(params.id, Date.now())
          if (log !== undefined && lastEventId !== undefined && lastEventId < log.lastSeq()) {
            return untilFinal(log.subscribe({ after: lastEventId }))
          }
          if (shared !== undefined && record !== undefined) return resumeStored(shared, record, lastEventId)
          return Stream.make<Array<SequencedEvent>>({ seq: 0, event: task })
        }
        // Older than the log's window: a shared store still has the events.
        const oldest = host.log.lastSeq() - host.log.retained() + 1
        if (shared !== undefined && lastEventId !== undefined && lastEventId >= 0 && lastEventId + 1 < oldest) {
          return storedEvents(params.id, lastEventId)
        }
        return untilFinal(host.log.subscribe(lastEventId === undefined ? {} : { after: lastEventId }))
      })

    /**
     * Resubscription on an instance that does not run the task: the stored events after the client's last
     * one, or the Task and then its events. A client may have seen an event that the running instance has
     * not stored yet: the read waits for it (up to one lease) rather than answer with a snapshot.
     */
    const resumeStored = (
      sharedTasks: SharedTasks,
      record: TaskRecord,
      lastEventId: number | undefined,
      waited = 0
    ): Stream.Stream<SequencedEvent, ProtocolError> => {
      const id = record.task.id
      const lastSeq = record.lastSeq ?? 0
      const terminal = isTerminalTask(record.task)
      if (lastEventId !== undefined && lastEventId >= 0) {
        if (lastEventId < lastSeq || (lastEventId === lastSeq && !terminal)) return storedEvents(id, lastEventId)
        if (!terminal && waited < sharedTasks.leaseMs) {
          return Stream.unwrap(Effect.andThen(
            Effect.sleep(Duration.millis(25)),
            Effect.map(Effect.mapError(store.get(id), storeFailed), (fresh) =>
              Option.isNone(fresh) ? Stream.fail(notFound(id)) : resumeStored(sharedTasks, fresh.value, lastEventId, waited + 25))
          ))
        }
      }
      return terminal ? Stream.make<Array<SequencedEvent>>({ seq: lastSeq, event: record.task }) : storedEvents(id, lastSeq, record.task)
    }

    /** Reads and changes a task's push configs: through its host when local, else the store (with retry). */
    const changeConfigs = (
      id: string,
      ctx: RequestContext,
      f: (cs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>,
      remote: CommandBody
    ): Effect.Effect<void, ProtocolError> =>
      settledMoves(() => changeConfigsOnce(id, ctx, f, remote))

    const changeConfigsOnce = (
      id: string,
      ctx: RequestContext,
      f: (cs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>,
      remote: CommandBody
    ): Effect.Effect<void, ProtocolError | Moved> =>
      Effect.flatMap(lookup(id, ctx.principal), (found): Effect.Effect<void, ProtocolError | Moved> => {
        if (found.host !== undefined) return found.host.updatePushConfigs(f)
        const record = found.record
        if (record === undefined) return Effect.fail(notFound(id))
        // The instance running the task writes its record: the change goes there.
        if (found.remote !== undefined) return Effect.asVoid(command(found.remote, id, remote))
        return store.put({ task: record.task, owner: record.owner, pushConfigs: f(record.pushConfigs) }, record.version).pipe(
          Effect.asVoid,
          Effect.catchTag("VersionConflict", () => Effect.fail(new Moved())),
          Effect.catchTag("WriteRefused", () => Effect.fail(new Moved())),
          Effect.mapError((e) => (e instanceof Moved ? e : storeFailed(e)))
        )
      })

    const configsOf = (id: string, ctx: RequestContext) =>
      Effect.map(lookup(id, ctx.principal), (found) =>
        found.host !== undefined ? found.host.pushConfigs() : found.record?.pushConfigs ?? [])

    /** A command from another instance about a task hosted here (see `command`). Never fails: errors are answers. */
    const serveCommand = (taskId: string, body: CommandBody): Effect.Effect<CommandBody> => {
      const host = hosts.get(taskId)
      // Not here (any more): the sender looks again.
      if (host === undefined || !host.materialized()) return Effect.succeed({ retry: true })
      const answered: Effect.Effect<CommandBody, ProtocolError> = Effect.suspend(() => {
        switch (body["kind"]) {
          case "cancel":
            return Effect.map(cancelHere(host), (task) => ({ task }))
          case "message": {
            const params = body["params"] as unknown as MessageSendParams
            const input: RunInput = {
              message: params.message,
              principal: body["principal"] as unknown as Principal,
              extensions: body["extensions"] as ReadonlyArray<string>
            }
            const before = host.task()
            const after = host.log.lastSeq()
            return Effect.gen(function*() {
              yield* addInlineConfig(host, params.configuration?.pushNotificationConfig)
              yield* host.resume(input).pipe(Effect.mapError((r) => new InvalidParams({ message: r.message })))
              if (body["wait"] === "settled") yield* host.awaitSettled
              const result: Task | Message = host.reply() ?? host.task()
              return { taskId, after, before, result } as unknown as CommandBody
            })
          }
          case "set-config":
            return Effect.as(addConfig(taskId, body["config"] as unknown as PushNotificationConfig, host.updatePushConfigs), {})
          case "delete-config":
            return Effect.as(host.updatePushConfigs((cs) => removeConfig(cs, body["configId"] as string)), {})
          default:
            return Effect.fail(new InvalidParams({ message: `unknown command ${String(body["kind"])}` }))
        }
      })
      return answered.pipe(
        Effect.catch((e) => Effect.succeed<CommandBody>({ error: toWireError(e) })),
        Effect.catchDefect((defect) =>
          Effect.succeed<CommandBody>({ error: toWireError(isProtocolError(defect) ? defect : new Internal({ message: "the command failed" })) }))
      )
    }

    /**
     * Takes over tasks whose instance stopped (their lease expired): a run in progress is lost with it, so
     * the task ends `failed` with a clear message, or runs again here when the agent is `retrySafe`. A task
     * that waited for input keeps waiting, with no lease: the next message, on any instance, runs it on.
     */
    const rescue = (sharedTasks: SharedTasks, taskId: string): Effect.Effect<void, TaskStoreFailure> =>
      Effect.flatMap(sharedTasks.takeOver(taskId), (taken) => {
        if (Option.isNone(taken)) return Effect.void
        const record = taken.value
        const state = record.task.status.state
        if (state === "input-required" || state === "auth-required") return sharedTasks.releaseLease(taskId, record.lease?.epoch ?? 0)
        const message = lastUserMessage(record.task)
        return hostOf(record).pipe(
          Effect.flatMap((host) => {
            if (agent.retrySafe === true && message !== undefined) {
              return Effect.andThen(
                Effect.logInfo(`task ${taskId}: its instance stopped; running it again here (the agent is retrySafe)`),
                host.run({ message, principal: { id: record.owner }, extensions: [] })
              )
            }
            return Effect.andThen(
              Effect.logWarning(`task ${taskId}: its instance stopped while it was ${state}; ending it failed`),
              Effect.ignore(host.failWith(
                `The task was ${state} on an instance that stopped (its lease of ${sharedTasks.leaseMs} ms expired); it did not finish and was ended as failed.`
              ))
            )
          }),
          Effect.catch((e) => Effect.logError(`task ${taskId} could not be taken over`, e))
        )
      })

    const serveShared = (sharedTasks: SharedTasks) =>
      Effect.gen(function*() {
        yield* Scope.provide(sharedTasks.serve(serveCommand), scope)
        const sweep = Effect.flatMap(sharedTasks.expiredLeases, (ids) =>
          Effect.forEach(ids.filter((id) => !hosts.has(id)), (id) => rescue(sharedTasks, id), { discard: true }))
        yield* Effect.forkIn(
          Effect.repeat(
            Effect.catch(sweep, (e) => Effect.logWarning("expired leases could not be swept", e)),
            Schedule.spaced(Duration.millis(Math.max(50, Math.floor(sharedTasks.leaseMs / 2))))
          ),
          scope
        )
      })

    const runtime: TaskRuntime = {
      agent,
      store,
      send,
      stream,
      get,
      list: (query, ctx) => Effect.mapError(store.listTasks({ ...query, owner: ctx.principal.id }), storeFailed),
      cancel,
      resubscribe,
      setPushConfig: (params, ctx) =>
        Effect.suspend(() => {
          const stored = withConfigId(params.pushNotificationConfig)
          return Effect.as(
            addConfig(params.taskId, stored, (f) => changeConfigs(params.taskId, ctx, f, { kind: "set-config", config: stored as unknown as CommandBody })),
            { taskId: params.taskId, pushNotificationConfig: stored }
          )
        }),
      getPushConfig: (params, ctx) =>
        Effect.flatMap(configsOf(params.id, ctx), (cs) => {
          const config = findConfig(cs, params.pushNotificationConfigId)
          return config === undefined
            ? Effect.fail(new TaskNotFound({ message: `Push notification config ${params.pushNotificationConfigId ?? "default"} not found for task ${params.id}` }))
            : Effect.succeed({ taskId: params.id, pushNotificationConfig: config })
        }),
      listPushConfigs: (params, ctx) =>
        Effect.map(configsOf(params.id, ctx), (cs) => cs.map((c) => ({ taskId: params.id, pushNotificationConfig: c }))),
      deletePushConfig: (params, ctx) =>
        changeConfigs(params.id, ctx, (cs) => removeConfig(cs, params.pushNotificationConfigId), {
          kind: "delete-config",
          configId: params.pushNotificationConfigId
        }),
      hosted: () => hosts.size,
      storeHealth: () => ({ unstoredTasks: storeHealth.unstoredTasks, failedWrites: storeHealth.failedWrites }),
      onTaskChange: (listener) =>
        Effect.acquireRelease(Effect.sync(() => listeners.add(listener)), () => Effect.sync(() => listeners.delete(listener))).pipe(Effect.asVoid),
      shutdown: (rule = {}) =>
        Effect.gen(function*() {
          accepting = false
          const all = [...hosts.values()]
          yield* Effect.forEach(all, (h) => h.awaitSettled, { concurrency: "unbounded", discard: true }).pipe(
            Effect.timeoutOption(rule.grace ?? Duration.seconds(10))
          )
          yield* Effect.forEach([...hosts.values()], (h) => Effect.ignore(h.cancel()), { concurrency: "unbounded", discard: true })
          yield* Scope.close(scope, Exit.void)
        })
    }
    if (shared !== undefined) yield* serveShared(shared)
    return runtime
  })

/** Constructors of {@link TaskRuntime}. */
export const TaskRuntime = {
  /**
   * A runtime serving `agent`; its tasks live as long as the Scope (closing it interrupts running agents).
   *
   * @example
   * const runtime = yield* TaskRuntime.make(agent, { memoryStore: { terminalTtl: "10 minutes" } })
   * const task = yield* runtime.send({ message }, { principal: anonymous, extensions: [] })
   */
  make
} as const
