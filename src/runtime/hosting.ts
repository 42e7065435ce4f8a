/**
 * Tasks hosted in this process: finding a task for a principal, starting one, restoring a stored one into
 * a host, continuing and canceling it there, and answering from its host. Nothing here knows about other
 * instances; on a shared store, the cluster parts (cluster/) decide when a task is hosted here.
 */
import { Clock, Effect, Option } from "effect"
import { restore, step, taskOf } from "../../machines/task.ts"
import type { Message, MessageSendParams, ProtocolError, PushNotificationConfig, Task } from "../../schemas/index.ts"
import { ContentTypeNotSupported, Internal, InvalidParams, TaskNotCancelable, TaskNotFound, UnsupportedOperation } from "../../schemas/index.ts"
import type { Agent } from "../agent/agent.ts"
import type { Principal } from "../auth/principal.ts"
import type { HostRegistry } from "./host-registry.ts"
import { acceptedInputModes, unsupportedMimeType } from "./input-modes.ts"
import { upsertConfig, withConfigId } from "./push-configs.ts"
import { withHistoryLength } from "./stream-end.ts"
import { makeTaskHost } from "./task-host.ts"
import type { HostEnv, RunInput, TaskHost } from "./task-host.ts"
import { isStorableKey, isTerminalTask, isWaitingTask } from "./task-store.ts"
import type { SharedTasks, TaskRecord, TaskStore } from "./task-store.ts"
import { freshId } from "../agent/fresh-id.ts"

/** The task moved between instances while we looked (its lease changed hands, or its host here was lost): look again. */
export class Moved {
  readonly _tag = "Moved"
  /** The instance that took the request stopped before answering: it may have applied it. */
  constructor(readonly maybeApplied = false) {}
}

/** A task as found for a principal: its host in this process (if any) and its stored record (if read). */
export interface Found {
  readonly task: Task
  readonly host: TaskHost | undefined
  readonly record: TaskRecord | undefined
  /** On a shared store: the other instance that runs the task now (it holds a live lease). */
  readonly remote?: string | undefined
}

/** What a message to a task led to: a host here (with where its stream continues), or a finished answer. */
export type Continued =
  | { readonly host: TaskHost; readonly after: number; readonly before: Task | undefined; readonly remote?: undefined }
  | { readonly remote: RemoteAnswer; readonly host?: undefined }

/** The answer to a message that another instance (or the store) gave: the task as it was, and the result. */
export interface RemoteAnswer {
  readonly taskId: string
  readonly after: number
  readonly before: Task
  readonly result: Task | Message
}

/** A store failure as the client sees it: retryable, and without the store's own words (they are logged). */
export const storeUnavailable = () => new Internal({ message: "the task store is unavailable; try again" })

/** Logs a store failure, naming the task, and answers {@link storeUnavailable}. */
export const storeFailed = (taskId: string | undefined) => (e: unknown): Effect.Effect<never, Internal> =>
  Effect.andThen(
    Effect.logError(`${taskId === undefined ? "a request" : `task ${taskId}`}: the task store failed`, e),
    Effect.fail(storeUnavailable())
  )

export const notFound = (id: string) => new TaskNotFound({ message: `Task ${id} not found` })

const lastUserMessage = (task: Task): Message | undefined => {
  const history = task.history ?? []
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === "user") return history[i]
  return undefined
}

export interface HostingDeps {
  readonly agent: Agent
  readonly store: TaskStore
  readonly shared: SharedTasks | undefined
  readonly env: HostEnv
  readonly registry: HostRegistry
  readonly maxConfigs: number
  /** Whether new tasks are taken (false once shutting down). */
  readonly accepting: () => boolean
}

export const makeHosting = (deps: HostingDeps) => {
  const { agent, env, registry, shared, store } = deps
  const inputModes = acceptedInputModes(agent.card)

  /** The task for this principal: its local host when there is one, else its stored record. */
  const lookup = (id: string, principal: Principal): Effect.Effect<Found, ProtocolError> =>
    Effect.suspend(() => {
      // No task has such an id (the runtime makes them), and no store could look it up as sent.
      if (!isStorableKey(id)) return Effect.fail(notFound(id))
      const host = registry.get(id)
      if (host !== undefined && host.materialized()) {
        return host.owner === principal.id
          ? Effect.succeed<Found>({ host, task: host.task(), record: undefined })
          : Effect.fail(notFound(id))
      }
      return store.get(id).pipe(
        Effect.catch(storeFailed(id)),
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(notFound(id)),
          onSome: (record) =>
            record.owner === principal.id
              ? Effect.succeed<Found>({ host: registry.get(id), task: record.task, record, remote: remoteOf(record) })
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
    // A context id is a key of the store (its owner is kept by it): the same refusal on every store.
    if (message.contextId !== undefined && !isStorableKey(message.contextId)) {
      return Effect.fail(new InvalidParams({ message: "Invalid params: message.contextId may not contain U+0000 or a lone surrogate" }))
    }
    const references = message.referenceTaskIds ?? []
    return references.length === 0 ? Effect.void : Effect.forEach(references, (id, i) =>
      Effect.catchIf(lookup(id, principal), (e) => e._tag === "TaskNotFound", () =>
        Effect.fail(new InvalidParams({ message: `Invalid params: referenceTaskIds[${i}] names no task: ${id} not found` }))), { discard: true })
  }

  /**
   * A host for a stored, non-terminal task, from the record as read (on a shared store: with the lease the
   * caller took), registered here. Its runs are resumed runs: they see the task's history and what the agent saved.
   */
  const hostOf = (record: TaskRecord): Effect.Effect<TaskHost, ProtocolError> =>
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
          ...(record.lease === undefined ? {} : { leaseEpoch: record.lease.epoch }),
          ...(record.saved === undefined ? {} : { saved: record.saved })
        }
      }).pipe(Effect.tap((host) => Effect.sync(() => registry.add(host))))
    })

  /**
   * A host for a stored task whose run (if any) was lost with its instance (it stopped, restarted, or
   * handed the task over): on a shared store this instance holds its lease now. A task that waits for
   * input keeps waiting, for a message that runs the agent on (`ctx.resumed`). A task that was running
   * runs again from its last user message when the agent is `retrySafe`; otherwise it ends `failed`,
   * saying why.
   */
  const hostTaken = (record: TaskRecord): Effect.Effect<TaskHost, ProtocolError> =>
    Effect.flatMap(hostOf(record), (host) => {
      if (isWaitingTask(record.task)) return Effect.succeed(host)
      const taskId = record.task.id
      const message = lastUserMessage(record.task)
      const state = record.task.status.state
      const continued = agent.retrySafe === true && message !== undefined
        ? Effect.andThen(
          Effect.logInfo(`task ${taskId}: its instance stopped; running it again here (the agent is retrySafe)`),
          host.run({ message, principal: { id: record.owner }, extensions: [] })
        )
        : Effect.andThen(
          Effect.logWarning(`task ${taskId}: its instance stopped while it was ${state}; ending it failed`),
          Effect.ignore(host.failWith(
            shared === undefined
              ? `The task was ${state} when its server stopped, before it finished; it was ended as failed.`
              : `The task was ${state} on an instance that stopped (it shut down, or its lease of ${shared.leaseMs} ms expired) before it finished; it was ended as failed.`
          ))
        )
      return Effect.as(continued, host)
    })

  /**
   * A host here for a stored task of a store of this process only (no other instance): one restore per
   * task at a time; a second request waits and finds the host.
   */
  const adoptHere = (record: TaskRecord): Effect.Effect<TaskHost, ProtocolError> =>
    registry.exclusive(record.task.id, Effect.suspend(() => registry.get(record.task.id) !== undefined
      ? Effect.succeed(registry.get(record.task.id)!)
      : hostTaken(record)))

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
        over = next.length > deps.maxConfigs
        return over ? cs : next
      }
      return Effect.flatMap(change(bounded), () =>
        over
          ? Effect.fail(new InvalidParams({
            message: `Task ${taskId} already has ${deps.maxConfigs} push notification configs, the most a task may have; delete one or replace one by its id`
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
    if (named === undefined) return Effect.succeed(freshId())
    return Effect.map(
      Effect.catch(store.claimContext(named, owner), storeFailed(undefined)),
      (recorded) => (recorded === owner ? named : freshId())
    )
  }

  /** Starts a new task for the message (flat Effect chain: this runs once per task). */
  const startTask = (params: MessageSendParams, input: RunInput, owner: string, inline: boolean): Effect.Effect<Continued, ProtocolError> =>
    Effect.suspend(() => {
      if (!deps.accepting()) return Effect.fail(new UnsupportedOperation({ message: "the agent is shutting down" }))
      const message = params.message
      const taskId = freshId()
      return Effect.flatMap(
        Effect.flatMap(contextOf(message, owner), (contextId) => makeTaskHost(env, { taskId, contextId, owner, message, pushConfigs: [] })),
        (host) => {
          registry.add(host)
          const config = params.configuration?.pushNotificationConfig
          const started = config === undefined ? host.run(input, inline) : Effect.andThen(addInlineConfig(host, config), host.run(input, inline))
          return Effect.as(started, { host, after: 0, before: undefined as Task | undefined } as Continued)
        }
      )
    })

  /** Continues a task on its host here; `after` is the log position before the message. */
  // Made once, not per message (a generator function made per call keeps its objects alive; see task-host.ts).
  const continueOn = Effect.fnUntraced(function*(host: TaskHost, params: MessageSendParams, input: RunInput): Effect.fn.Return<Continued, ProtocolError | Moved> {
      if (host.lost()) return yield* Effect.fail(new Moved())
      const before: Task | undefined = host.task()
      const after = host.log.lastSeq()
      // The config first, so the changes this message causes are delivered to it too.
      yield* addInlineConfig(host, params.configuration?.pushNotificationConfig)
      yield* host.resume(input).pipe(Effect.mapError((r) => (host.lost() ? new Moved() : new InvalidParams({ message: r.message }))))
      return { host, after, before }
    })

  /**
   * The answer to a message from the host that took it: once the task settled (a blocking send) or exists,
   * and on a shared store once it is stored, so the client may ask any instance next. A host lost meanwhile
   * answers nothing: the caller looks for the task again.
   */
  const answerFrom = (host: TaskHost, blocking: boolean, historyLength: number | undefined): Effect.Effect<Task | Message, ProtocolError | Moved> => {
    const awaited = blocking ? host.awaitSettled() : host.awaitMaterialized()
    const stored = shared === undefined
      ? awaited
      : Effect.andThen(awaited, host.awaitStored.pipe(Effect.catch((e): Effect.Effect<void, ProtocolError | Moved> =>
        e._tag === "WriteRefused" || host.lost() ? Effect.fail(new Moved()) : storeFailed(host.taskId)(e))))
    return Effect.flatMap(stored, (): Effect.Effect<Task | Message, ProtocolError | Moved> => {
      if (host.lost()) return Effect.fail(new Moved())
      const reply = host.reply()
      if (reply !== undefined) return Effect.succeed(reply)
      return Effect.succeed(withHistoryLength(host.task(), historyLength))
    })
  }

  const cancelHere = (host: TaskHost): Effect.Effect<Task, ProtocolError | Moved> =>
    host.cancel().pipe(Effect.mapError((r) => (host.lost() ? new Moved() : new TaskNotCancelable({ message: `Task ${host.taskId} is ${r.from}` }))))

  /** Cancels a task whose actor is not in this process, through the store alone (a store of this process only). */
  const cancelStored = (record: TaskRecord, retries = 3): Effect.Effect<Task, ProtocolError> =>
    Effect.gen(function*() {
      const id = record.task.id
      const snapshot = restore(record.task)
      const now = yield* Clock.currentTimeMillis
      const result = snapshot === undefined ? undefined : step(snapshot, { type: "cancel", timestamp: new Date(now).toISOString() })
      if (result === undefined || !result.accepted) {
        return yield* Effect.fail(new TaskNotCancelable({ message: `Task ${id} is ${record.task.status.state}` }))
      }
      const task = taskOf(result.snapshot)
      const written = yield* store.put({ task, owner: record.owner, pushConfigs: record.pushConfigs }, record.version).pipe(
        Effect.as(true),
        Effect.catchTag("VersionConflict", () => Effect.succeed(false)),
        Effect.catch(storeFailed(id))
      )
      if (!written) {
        // someone wrote in between: decide again on what is stored now
        const fresh = yield* Effect.catch(store.get(id), storeFailed(id))
        if (Option.isNone(fresh)) return yield* Effect.fail(notFound(id))
        if (retries <= 0) return yield* Effect.fail(new Internal({ message: "task kept changing during cancel" }))
        return yield* cancelStored(fresh.value, retries - 1)
      }
      env.notify({ task, previous: record.task.status.state, owner: record.owner, pushConfigs: record.pushConfigs })
      return task
    })

  return { lookup, checkInput, hostOf, hostTaken, adoptHere, addConfig, addInlineConfig, startTask, continueOn, answerFrom, cancelHere, cancelStored, lastUserMessage }
}

/** The hosting part of a runtime (see {@link makeHosting}). */
export type Hosting = ReturnType<typeof makeHosting>

/** Whether a task's history already holds a message: a message is taken once, whichever instance it reaches. */
export const holdsMessage = (task: Task, messageId: string): boolean =>
  (task.history ?? []).some((m) => m.messageId === messageId && m.role === "user")
