import { Duration, Effect, Exit, Fiber, Schedule, Scope, Stream } from "effect"
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
import { Internal, InvalidParams, TaskNotFound } from "../../schemas/index.ts"
import { TaskTerminal } from "../../schemas/error-catalogue.ts"
import type { Agent } from "../agent/agent.ts"
import type { Principal } from "../auth/principal.ts"
import { makeLeaseKeeper } from "./cluster/lease-keeper.ts"
import { makeRemoteCommands } from "./cluster/remote-commands.ts"
import { makeStoredStreams } from "./cluster/stored-streams.ts"
import { defaultLogWindow } from "./event-log.ts"
import type { Sequenced } from "./event-log.ts"
import { makeFinishedLogs } from "./finished-logs.ts"
import { makeHostRegistry } from "./host-registry.ts"
import { holdsMessage, makeHosting, Moved, notFound, storeFailed } from "./hosting.ts"
import type { Continued } from "./hosting.ts"
import { makeMemoryTaskStore } from "./memory-task-store.ts"
import { defaultMaxConfigsPerTask, findConfig, removeConfig, withConfigId } from "./push-configs.ts"
import { untilFinal, withHistoryLength } from "./stream-end.ts"
import type { HostEnv, RunInput, StoreHealthCounters, TaskChange, TaskHost } from "./task-host.ts"
import { isTerminalTask } from "./task-store.ts"
import type { CommandBody, TaskPage, TaskQuery, TaskRecord, TaskStore, TaskStoreFailure } from "./task-store.ts"
import type { ShutdownRule, TaskRuntimeOptions } from "./task-runtime-options.ts"
import { makeWaitingTasks } from "./waiting-tasks.ts"

export type { TaskChange } from "./task-host.ts"
export type { WaitingTasksOptions } from "./waiting-tasks.ts"
export type { ShutdownRule, StoreRetryOptions, TaskRuntimeOptions } from "./task-runtime-options.ts"

/** Who is asking, and which extensions the request activated. */
export interface RequestContext {
  readonly principal: Principal
  readonly extensions: ReadonlyArray<string>
}

/** One event of a task's stream with its per-task sequence number (1-based, increasing): the SSE `id`. */
export type SequencedEvent = Sequenced<StreamResult>

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
   * What the task's agent saved with it (`TaskContext.save`; undefined when nothing), for the server's own
   * use: the workflow router checks an event against a workflow's saved machine. Never sent to clients.
   */
  readonly saved: (params: TaskQueryParams, ctx: RequestContext) => Effect.Effect<unknown, ProtocolError>
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
  /**
   * Whether the runtime takes new tasks: false once `shutdown` began, or while finished tasks wait for the
   * store to take their record (`storeHealth().unstoredTasks > 0`). What `/readyz` answers.
   */
  readonly ready: () => boolean
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
 * The runtime: one registry of the tasks hosted here (host-registry.ts), their hosting (hosting.ts), and
 * on a shared store the cluster parts (cluster/): requests sent to the instance running a task, streams
 * read from the store, and the leases of tasks taken over or handed over. Every method below looks the
 * task up and goes where it runs.
 */
const make = (agent: Agent, options: TaskRuntimeOptions = {}): Effect.Effect<TaskRuntime, TaskStoreFailure, Scope.Scope> =>
  Effect.gen(function*() {
    const store: TaskStore = options.store === undefined
      ? yield* makeMemoryTaskStore(options.memoryStore)
      : Effect.isEffect(options.store)
      ? yield* options.store
      : options.store
    const shared = store.shared
    const scope = yield* Scope.fork(yield* Effect.scope, "parallel")
    const finished = makeFinishedLogs(options.finishedLogs)
    const registry = makeHostRegistry(finished)
    // Run fibers of all hosts: one registry and one finalizer instead of a Scope per task. Each fiber sits in
    // a slot emptied when it ends, so the Set's old hash tables hold no finished fiber (see transient-map.ts).
    const running = new Set<{ fiber: Fiber.Fiber<void, unknown> | undefined }>()
    yield* Scope.addFinalizer(
      scope,
      Effect.suspend(() => Fiber.interruptAll([...running].flatMap((slot) => (slot.fiber === undefined ? [] : [slot.fiber]))))
    )
    // Finished logs expire even when no request comes to sweep them.
    yield* Effect.forkIn(
      Effect.repeat(Effect.sync(() => finished.sweep(Date.now())), Schedule.spaced(Duration.millis(finished.sweepEveryMs))),
      scope
    )
    const listeners = new Set<(change: TaskChange) => void>()
    const maxConfigs = options.maxPushConfigsPerTask ?? defaultMaxConfigsPerTask
    if (!Number.isInteger(maxConfigs) || maxConfigs < 1) {
      throw new RangeError("maxPushConfigsPerTask must be a whole number of at least 1")
    }
    const waiting = makeWaitingTasks(store, options.waitingTasks)
    let accepting = true
    const storeHealth: StoreHealthCounters = { unstoredTasks: 0, failedWrites: 0 }
    const storeRetry = Schedule.jittered(Schedule.min([
      Schedule.exponential(options.storeRetry?.base ?? Duration.millis(100), 2),
      Schedule.spaced(options.storeRetry?.max ?? Duration.seconds(30))
    ]))

    const env: HostEnv = {
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
            const slot: { fiber: Fiber.Fiber<void, unknown> | undefined } = { fiber }
            running.add(slot)
            fiber.addObserver(() => {
              slot.fiber = undefined
              running.delete(slot)
            })
          }
          return fiber
        }),
      notify: (change: TaskChange) => {
        for (const l of listeners) l(change)
      },
      release: registry.release,
      admitWaiting: waiting.admit
    }

    const hosting = makeHosting({ agent, store, shared, env, registry, maxConfigs, accepting: () => accepting })
    const cluster = shared === undefined ? undefined : {
      shared,
      keeper: makeLeaseKeeper({ store, shared, registry, hosting, scope, accepting: () => accepting }),
      remote: makeRemoteCommands(shared, registry, hosting),
      streams: makeStoredStreams(store, shared)
    }

    /** A host here for a stored task that nobody runs; on a shared store, this instance takes it over. */
    const adopt = (record: TaskRecord): Effect.Effect<TaskHost, ProtocolError | Moved> =>
      cluster === undefined ? hosting.adoptHere(record) : cluster.keeper.adopt(record)

    /**
     * Runs `f` again while the task moves between instances under it: a few times in one process; on a
     * shared store for up to two leases, long enough for a stopped instance's lease to expire.
     */
    const budgetMs = shared === undefined ? 300 : 2 * shared.leaseMs + 1_000
    const settledMoves = <A>(f: (moved: Moved | undefined) => Effect.Effect<A, ProtocolError | Moved>): Effect.Effect<A, ProtocolError> => {
      const loop = (moved: Moved | undefined, waited: number, delay: number): Effect.Effect<A, ProtocolError> =>
        Effect.catch(f(moved), (e) => {
          if (!(e instanceof Moved)) return Effect.fail(e)
          if (waited >= budgetMs) return Effect.fail(new Internal({ message: "the task kept moving between instances; try again" }))
          const next = new Moved(e.maybeApplied || moved?.maybeApplied === true)
          return Effect.andThen(Effect.sleep(Duration.millis(delay)), loop(next, waited + delay, Math.min(delay * 2, 250)))
        })
      return loop(undefined, 0, 20)
    }

    /** Continues the task a message names, wherever it runs; `after` is the log position before the message. */
    // Made once, not per message (a generator function made per call keeps its objects alive; see task-host.ts).
    const continueOnce = Effect.fnUntraced(function*(params: MessageSendParams, input: RunInput, principal: Principal, taskId: string, wait: "settled" | "none"): Effect.fn.Return<Continued, ProtocolError | Moved> {
        const message = params.message
        const found = yield* hosting.lookup(taskId, principal)
        const host = found.host !== undefined && found.host.materialized() && found.record === undefined ? found.host : undefined
        // A message the task holds already (a retry, or one taken by an instance that stopped before
        // answering) is not taken twice: the answer is the task.
        if (holdsMessage(found.task, message.messageId)) {
          if (host !== undefined) return { host, after: host.log.lastSeq(), before: host.task() }
          if (found.remote === undefined || cluster === undefined) {
            return { remote: { taskId, after: found.record?.lastSeq ?? 0, before: found.task, result: found.task } }
          }
        }
        if (isTerminalTask(found.task)) {
          return yield* Effect.fail(new TaskTerminal({ message: `Task ${found.task.id} is ${found.task.status.state} and accepts no more messages` }))
        }
        if (message.contextId !== undefined && message.contextId !== found.task.contextId) {
          return yield* Effect.fail(new InvalidParams({ message: "message contextId does not match the task's contextId" }))
        }
        if (host !== undefined) return yield* hosting.continueOn(host, params, input)
        if (found.remote !== undefined && cluster !== undefined) {
          // Another instance runs the task: the message goes there, and so does the wait for its outcome.
          return { remote: yield* cluster.remote.message(found.remote, taskId, { params, principal: input.principal, extensions: input.extensions, wait }) }
        }
        return yield* hosting.continueOn(yield* adopt(found.record!), params, input)
      })

    /** Starts or continues the task a message is for; `inline`: the caller only waits for the outcome. */
    const dispatch = <A>(
      params: MessageSendParams,
      ctx: RequestContext,
      inline: boolean,
      answer: (continued: Continued) => Effect.Effect<A, ProtocolError | Moved>
    ): Effect.Effect<A, ProtocolError> =>
      Effect.andThen(
        hosting.checkInput(params, ctx.principal),
        Effect.suspend(() => {
          const message = params.message
          const input: RunInput = { message, principal: ctx.principal, extensions: ctx.extensions }
          const wait = inline ? "settled" : "none"
          const continued = (taskId: string, p: MessageSendParams) =>
            settledMoves(() => Effect.flatMap(continueOnce(p, input, ctx.principal, taskId, wait), answer))
          if (message.taskId !== undefined) return continued(message.taskId, params)
          return Effect.flatMap(hosting.startTask(params, input, ctx.principal.id, inline), (started) =>
            Effect.catch(answer(started), (e): Effect.Effect<A, ProtocolError> => {
              if (!(e instanceof Moved) || started.host === undefined) return Effect.fail(e as ProtocolError)
              // The new task moved on before it was answered: it holds the message, wherever it is now.
              const taskId = started.host.taskId
              return continued(taskId, { ...params, message: { ...message, taskId } })
            }))
        })
      )

    const send = (params: MessageSendParams, ctx: RequestContext) => {
      const blocking = params.configuration?.blocking !== false
      const historyLength = params.configuration?.historyLength
      return dispatch(params, ctx, blocking, (continued): Effect.Effect<Task | Message, ProtocolError | Moved> => {
        if (continued.remote === undefined) return hosting.answerFrom(continued.host, blocking, historyLength)
        const result = continued.remote.result
        return Effect.succeed(result.kind === "task" ? withHistoryLength(result, historyLength) : result)
      })
    }

    const stream = (params: MessageSendParams, ctx: RequestContext) =>
      dispatch(params, ctx, false, (continued): Effect.Effect<Stream.Stream<SequencedEvent, ProtocolError>, ProtocolError | Moved> => {
        if (continued.remote !== undefined) {
          const { after, before, taskId } = continued.remote
          // Not hosted here and without a shared store (a message the task held already): the task as it is.
          if (cluster === undefined) return Effect.succeed(Stream.make<Array<SequencedEvent>>({ seq: after, event: before }))
          return Effect.succeed(cluster.streams.storedEvents(taskId, after, before))
        }
        const { after, before, host } = continued
        if (cluster === undefined) {
          const live = host.log.subscribe({ after })
          return Effect.succeed(untilFinal(before === undefined ? live : Stream.concat(Stream.succeed({ seq: after, event: before as StreamResult }), live)))
        }
        // The first event names the task: it goes out once another instance can find the task too. A
        // host lost meanwhile hands its readers to the stored events (followHost).
        const stored = Effect.andThen(host.awaitMaterialized(), Effect.catch(host.awaitStored, (e) =>
          e._tag === "TaskStoreFailure" && !host.lost() ? storeFailed(host.taskId)(e) : Effect.void))
        return Effect.succeed(Stream.concat(Stream.drain(Stream.fromEffect(stored)), cluster.streams.followHost(host, after, before)))
      })

    const get = (params: TaskQueryParams, ctx: RequestContext) =>
      Effect.map(hosting.lookup(params.id, ctx.principal), ({ task }) => withHistoryLength(task, params.historyLength))

    const saved = (params: TaskQueryParams, ctx: RequestContext) =>
      Effect.map(hosting.lookup(params.id, ctx.principal), ({ host, record }) => (record !== undefined ? record.saved : host?.saved()))

    const cancel = (params: TaskIdParams, ctx: RequestContext) =>
      settledMoves((moved) =>
        Effect.flatMap(hosting.lookup(params.id, ctx.principal), (found): Effect.Effect<Task, ProtocolError | Moved> => {
          if (found.host !== undefined && found.host.materialized() && found.record === undefined) return hosting.cancelHere(found.host)
          const record = found.record
          if (record === undefined) return Effect.fail(notFound(params.id))
          // An earlier attempt reached an instance that stopped before answering, and the task is canceled: that was it.
          if (moved?.maybeApplied === true && record.task.status.state === "canceled") return Effect.succeed(record.task)
          if (cluster === undefined || isTerminalTask(record.task)) return hosting.cancelStored(record)
          // On a shared store only the instance running the task changes it: there, or here once taken over.
          if (found.remote !== undefined) return cluster.remote.cancel(found.remote, params.id)
          return Effect.flatMap(adopt(record), hosting.cancelHere)
        }))

    const resubscribe = (params: TaskIdParams, ctx: RequestContext, lastEventId?: number) =>
      Effect.map(hosting.lookup(params.id, ctx.principal), ({ host, record, task }): Stream.Stream<SequencedEvent, ProtocolError> => {
        const hosted = host !== undefined && host.materialized() && record === undefined ? host : undefined
        if (hosted === undefined) {
          if (cluster !== undefined && record !== undefined) return cluster.streams.resumeStored(record, lastEventId)
          // A task that finished here moments ago still has its events: resume exactly after the client's last one.
          const log = lastEventId === undefined ? undefined : finished.get(params.id, Date.now())
          if (log !== undefined && lastEventId !== undefined && lastEventId < log.lastSeq()) {
            return untilFinal(log.subscribe({ after: lastEventId }))
          }
          return Stream.make<Array<SequencedEvent>>({ seq: 0, event: task })
        }
        if (cluster === undefined) return untilFinal(hosted.log.subscribe(lastEventId === undefined ? {} : { after: lastEventId }))
        // Older than the log's window: the store may still have the events (else it starts with the Task).
        const oldest = hosted.log.lastSeq() - hosted.log.retained() + 1
        if (lastEventId !== undefined && lastEventId >= 0 && lastEventId + 1 < oldest) {
          return cluster.streams.storedEvents(params.id, lastEventId)
        }
        return cluster.streams.followHost(hosted, lastEventId)
      })

    /** Reads and changes a task's push configs: through its host when local, else the store (with retry). */
    const changeConfigs = (
      id: string,
      ctx: RequestContext,
      f: (cs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>,
      remote: CommandBody
    ): Effect.Effect<void, ProtocolError> =>
      settledMoves(() =>
        Effect.flatMap(hosting.lookup(id, ctx.principal), (found): Effect.Effect<void, ProtocolError | Moved> => {
          if (found.host !== undefined && !found.host.lost()) return found.host.updatePushConfigs(f)
          const record = found.record
          if (record === undefined) return Effect.fail(notFound(id))
          // The instance running the task writes its record: the change goes there.
          if (found.remote !== undefined && cluster !== undefined) return Effect.asVoid(cluster.remote.command(found.remote, id, remote))
          return store.put({ task: record.task, owner: record.owner, pushConfigs: f(record.pushConfigs) }, record.version).pipe(
            Effect.asVoid,
            Effect.catch((e): Effect.Effect<void, ProtocolError | Moved> =>
              e._tag === "VersionConflict" || e._tag === "WriteRefused" ? Effect.fail(new Moved()) : storeFailed(id)(e))
          )
        }))

    const configsOf = (id: string, ctx: RequestContext) =>
      Effect.map(hosting.lookup(id, ctx.principal), (found) =>
        found.host !== undefined ? found.host.pushConfigs() : found.record?.pushConfigs ?? [])

    const runtime: TaskRuntime = {
      agent,
      store,
      send,
      stream,
      get,
      saved,
      list: (query, ctx) => Effect.catch(store.listTasks({ ...query, owner: ctx.principal.id }), storeFailed(undefined)),
      cancel,
      resubscribe,
      setPushConfig: (params, ctx) =>
        Effect.suspend(() => {
          const stored = withConfigId(params.pushNotificationConfig)
          return Effect.as(
            hosting.addConfig(params.taskId, stored, (f) => changeConfigs(params.taskId, ctx, f, { kind: "set-config", config: stored as unknown as CommandBody })),
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
      hosted: () => registry.size(),
      storeHealth: () => ({ unstoredTasks: storeHealth.unstoredTasks, failedWrites: storeHealth.failedWrites }),
      onTaskChange: (listener) =>
        Effect.acquireRelease(Effect.sync(() => listeners.add(listener)), () => Effect.sync(() => listeners.delete(listener))).pipe(Effect.asVoid),
      ready: () => accepting && storeHealth.unstoredTasks === 0,
      shutdown: (rule = {}) =>
        Effect.gen(function*() {
          accepting = false
          yield* Effect.forEach([...registry.hosts()], (h) => h.awaitSettled(), { concurrency: "unbounded", discard: true }).pipe(
            Effect.timeoutOption(rule.grace ?? Duration.seconds(10))
          )
          if (cluster !== undefined) yield* cluster.keeper.handOverAll
          else yield* Effect.forEach([...registry.hosts()], (h) => Effect.ignore(h.cancel()), { concurrency: "unbounded", discard: true })
          yield* Scope.close(scope, Exit.void)
        })
    }
    if (cluster !== undefined) yield* cluster.keeper.start(cluster.remote.serve)
    // Tasks left waiting too long end; on a shared store, whichever instance runs one (or takes it) ends it.
    yield* waiting.sweep(registry, (record) =>
      cluster !== undefined && record.lease?.live === true && record.lease.instance !== cluster.shared.instanceId
        ? Effect.fail(new Moved())
        : adopt(record), scope)
    return runtime
  })

/** Constructors of {@link TaskRuntime}. */
export const TaskRuntime = {
  /**
   * A runtime serving `agent`; its tasks live as long as the Scope (closing it interrupts running agents).
   * Fails with the store's {@link TaskStoreFailure} when the store cannot be opened.
   *
   * @example
   * const runtime = yield* TaskRuntime.make(agent, { memoryStore: { terminalTtl: "10 minutes" } })
   * const task = yield* runtime.send({ message }, { principal: anonymous, extensions: [] })
   */
  make
} as const
