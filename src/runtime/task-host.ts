import { Cause, Clock, Deferred, Effect, Exit, Fiber, FiberId } from "effect"
import { isInterrupted, isTerminal, start, step, taskOf } from "../../machines/task.ts"
import type { TaskEvent, TaskSnapshot, TransitionRefused } from "../../machines/task.ts"
import type { Message, PushNotificationConfig, StreamResult, Task, TaskState } from "../../schemas/index.ts"
import type { Agent } from "../agent/agent.ts"
import { toAgentMessage, toParts } from "../agent/messages.ts"
import type { MessageInput } from "../agent/messages.ts"
import { TaskActionRefused } from "../agent/task-context.ts"
import { traced } from "./tracing.ts"
import type { TaskContext } from "../agent/task-context.ts"
import type { Principal } from "../auth/principal.ts"
import { agentFailureText } from "./agent-failure.ts"
import { makeEventLog } from "./event-log.ts"
import type { EventLog } from "./event-log.ts"
import { pacedLog } from "./paced-log.ts"
import { persistTask } from "./persist.ts"
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
  readonly spawn: (program: Effect.Effect<void, unknown>, inline: boolean) => Effect.Effect<Fiber.RuntimeFiber<void, unknown>>
  /** Called when the host no longer serves its task (terminal and stored, or answered with a Message). */
  readonly release: (taskId: string) => void
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
  /**
   * Starts `execute` for the message (first run, or a new run on a task whose last run returned).
   * `inline` (for a caller that only waits for the outcome): the agent's synchronous first steps run at once.
   */
  readonly run: (input: RunInput, inline?: boolean) => Effect.Effect<void>
  /** Records a user message with this task's id and hands it to a pending `requestInput`, or starts a run. */
  readonly resume: (input: RunInput) => Effect.Effect<void, TransitionRefused>
  /** Cancels: records `canceled`, interrupts the agent (its finalizers run), persists. */
  readonly cancel: () => Effect.Effect<Task, TransitionRefused>
  /** Resolves once the task exists or the agent replied. */
  readonly awaitMaterialized: Effect.Effect<void>
  /** Resolves once the task is terminal or interrupted (or the agent replied). */
  readonly awaitSettled: Effect.Effect<void>
  /** Changes the push configs and persists them with the task. */
  readonly updatePushConfigs: (
    f: (configs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>
  ) => Effect.Effect<void>
}

const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

/** Creates the host of a new task; the agent runs once `run` is called. */
export const makeTaskHost = (
  env: HostEnv,
  init: {
    readonly taskId: string
    readonly contextId: string
    readonly owner: string
    readonly message: Message
    readonly pushConfigs: ReadonlyArray<PushNotificationConfig>
    /** A task restored from the store: already materialized at this version. */
    readonly restored?: { readonly snapshot: TaskSnapshot; readonly version: number }
  }
): Effect.Effect<TaskHost> =>
  // No Scope per task: the runtime owns the run fiber (env.spawn) and cancel interrupts it directly.
  Effect.map(Clock.currentTimeMillis, (now) => {
    const { contextId, owner, taskId } = init
    const timestamp = new Date(now).toISOString()
    let snapshot: TaskSnapshot = init.restored?.snapshot ?? start({ id: taskId, contextId, message: init.message, timestamp })
    let materialized = init.restored !== undefined
    let replied: Message | undefined
    let released = false
    // A run is active from its start until onRunEnd; the fiber is known only once spawn returns.
    let running = false
    let runFiber: Fiber.RuntimeFiber<void, unknown> | undefined
    let inputWaiter: Deferred.Deferred<Message> | undefined
    // Callbacks instead of a fresh Deferred per change: most changes have nobody waiting.
    let waiters: Array<() => void> = []
    const { everRead, log, pace } = pacedLog(makeEventLog<StreamResult>({
      window: env.window,
      snapshot: () => (replied !== undefined ? replied : taskOf(snapshot))
    }), env.window, env.stallMs)
    const persist = persistTask({
      store: env.store,
      owner,
      version: init.restored?.version ?? 0,
      pushConfigs: init.pushConfigs,
      current: () => (materialized ? taskOf(snapshot) : undefined)
    })

    const signal = () => {
      if (waiters.length === 0) return
      const ws = waiters
      waiters = []
      for (const w of ws) w()
    }
    const state = () => snapshot.state
    // Settled: what a blocking send waits for. An idle task (no run in progress, kept open by
    // `onReturn: "keep"`) is settled too: nothing will change it until the next message.
    const settled = () =>
      replied !== undefined ||
      (materialized && (isTerminal(state()) || isInterrupted(state()) || !running))

    // The log closes at the terminal step; the runtime forgets the host only once the store has the
    // terminal Task, so a reader never finds neither the host nor the final record.
    const release = () => {
      if (released) return
      released = true
      log.close()
    }
    const forget = Effect.sync(() => env.release(taskId))
    const persistAndMaybeForget = Effect.suspend(() => (released ? Effect.zipRight(persist.write, forget) : persist.write))

    const materialize = () => {
      if (materialized || replied !== undefined) return
      materialized = true
      const task = taskOf(snapshot)
      log.append(task)
      env.notify({ task, owner, pushConfigs: persist.pushConfigs() })
      signal()
    }

    /** The synchronous core: one machine step, its events appended, waiters woken. */
    const applySync = (event: TaskEvent): TransitionRefused | undefined => {
      if (replied !== undefined) {
        return { _tag: "TransitionRefused", from: "completed", event: event.type, reason: "terminal", message: "the agent already answered with a message" }
      }
      materialize()
      const before = state()
      const result = step(snapshot, event)
      if (!result.accepted) return result.refusal
      snapshot = result.snapshot
      for (const e of result.emitted) log.append(e)
      if (event.type !== "artifact" && (before !== state() || event.type === "status" || isTerminal(state()))) {
        env.notify({ task: taskOf(snapshot), previous: before, owner, pushConfigs: persist.pushConfigs() })
        signal()
      }
      if (isTerminal(state())) release()
      return undefined
    }

    const apply = (event: TaskEvent): Effect.Effect<void, TransitionRefused> =>
      Effect.suspend(() => {
        const refusal = applySync(event)
        if (refusal !== undefined) return Effect.fail(refusal)
        // Live readers far behind get a bounded chance to catch up before the agent goes on (paced-log.ts).
        if (event.type === "artifact") return pace
        return event.type === "status" ? Effect.zipRight(persistAndMaybeForget, pace) : persistAndMaybeForget
      })

    const refused = (action: string) => (r: TransitionRefused) =>
      new TaskActionRefused({ action, state: r.from, reason: r.reason, message: r.message })

    const agentMessage = (input: MessageInput | undefined) =>
      input === undefined ? {} : { message: toAgentMessage(input, { taskId, contextId }) }

    /** A status change as a literal: spreading a temporary `{ message }` into it cost an allocation and a slow copy per action. */
    const statusEvent = <T extends "status" | "complete" | "fail" | "reject" | "requestInput" | "requestAuth">(
      type: T,
      timestamp: string,
      input: MessageInput | undefined
    ) =>
      input === undefined
        ? { type, timestamp }
        : { type, timestamp, message: toAgentMessage(input, { taskId, contextId }) }

    const statusAction = (type: "status" | "complete" | "fail" | "reject", action: string) => {
      // One refusal mapper per action kind, not one per call.
      const onRefused = refused(action)
      return (input?: MessageInput) =>
        Effect.mapError(Effect.flatMap(isoNow, (ts) => apply(statusEvent(type, ts, input))), onRefused)
    }

    const waitFor = (type: "requestInput" | "requestAuth") => (input: MessageInput) =>
      Effect.flatMap(isoNow, (ts) =>
        Effect.suspend(() => {
          // The waiter exists before the state becomes visible, so no answer can slip past it.
          const waiter = Deferred.unsafeMake<Message>(FiberId.none)
          const previous = inputWaiter
          inputWaiter = waiter
          const refusal = applySync(statusEvent(type, ts, input))
          if (refusal !== undefined) {
            inputWaiter = previous
            return Effect.fail(refused(type)(refusal))
          }
          return Effect.zipRight(persist.write, Deferred.await(waiter)).pipe(
            Effect.onInterrupt(() =>
              Effect.sync(() => {
                if (inputWaiter === waiter) inputWaiter = undefined
              })
            )
          )
        }))

    const contextFor = (input: RunInput): TaskContext => ({
      taskId,
      contextId,
      get task() {
        return taskOf(snapshot)
      },
      message: input.message,
      get history() {
        return taskOf(snapshot).history ?? []
      },
      extensions: input.extensions,
      principal: input.principal,
      working: statusAction("status", "working"),
      artifact: (parts, options = {}) =>
        apply({
          type: "artifact",
          artifact: {
            artifactId: options.artifactId ?? crypto.randomUUID(),
            parts: toParts(parts),
            ...(options.name === undefined ? {} : { name: options.name }),
            ...(options.description === undefined ? {} : { description: options.description }),
            ...(options.metadata === undefined ? {} : { metadata: options.metadata })
          },
          ...(options.append === undefined ? {} : { append: options.append }),
          ...(options.lastChunk === undefined ? {} : { lastChunk: options.lastChunk })
        }).pipe(Effect.mapError(refused("artifact"))),
      requestInput: waitFor("requestInput"),
      requestAuth: waitFor("requestAuth"),
      complete: statusAction("complete", "complete"),
      fail: statusAction("fail", "fail"),
      reject: statusAction("reject", "reject"),
      reply: (input) =>
        Effect.suspend(() => {
          if (materialized || replied !== undefined) {
            return Effect.fail(
              new TaskActionRefused({ action: "reply", state: materialized ? state() : "completed", reason: "task-exists", message: "reply is only valid as the first action of a new task" })
            )
          }
          const { taskId: _omit, ...message } = toAgentMessage(input, { taskId, contextId })
          replied = message
          log.append(message)
          signal()
          release()
          return forget
        })
    })

    /** Decides the task's end from how a run of `execute` ended, when the agent did not. */
    // Cleared only at the very end, so that no reader sees an idle task that is about to be completed or failed.
    const runEnded = Effect.sync(() => {
      running = false
      runFiber = undefined
      signal()
    })

    /** Decides the task's end from how a run of `execute` ended, when the agent did not. */
    const onRunEnd = (exit: Exit.Exit<void, unknown>): Effect.Effect<void> => {
      if (replied !== undefined || isTerminal(state())) return runEnded
      if (Exit.isSuccess(exit)) {
        materialize()
        if (isTerminal(state()) || isInterrupted(state()) || env.agent.onReturn === "keep") return runEnded
        return Effect.zipRight(Effect.ignore(Effect.flatMap(isoNow, (timestamp) => apply({ type: "complete", timestamp }))), runEnded)
      }
      const warn = Cause.isInterruptedOnly(exit.cause) ? Effect.void : Effect.logWarning("agent execute failed", exit.cause)
      const text = agentFailureText(exit.cause)
      return warn.pipe(
        Effect.zipRight(Effect.ignore(Effect.flatMap(isoNow, (timestamp) => apply({ type: "fail", timestamp, ...agentMessage(text) })))),
        Effect.zipRight(runEnded)
      )
    }

    const run = (input: RunInput, inline = false): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (running || released) return Effect.void
        running = true
        const program = traced(
          Effect.suspend(() => env.agent.execute(contextFor(input))),
          "a2a.task",
          { "a2a.task.id": taskId, "a2a.principal": input.principal.id }
        ).pipe(Effect.asVoid, Effect.onExit(onRunEnd))
        return Effect.map(env.spawn(program, inline), (fiber) => {
          // Defensive: a run that has already ended leaves no fiber to interrupt.
          if (running) runFiber = fiber
        })
      })

    const resume = (input: RunInput): Effect.Effect<void, TransitionRefused> =>
      Effect.flatMap(isoNow, (ts) =>
        Effect.suspend(() => {
          const refusal = applySync({ type: "resume", timestamp: ts, message: input.message })
          if (refusal !== undefined) return Effect.fail(refusal)
          const waiter = inputWaiter
          inputWaiter = undefined
          if (waiter !== undefined) Deferred.unsafeDone(waiter, Exit.succeed(input.message))
          // No run in progress (the last one returned while waiting): this message starts a new one.
          const startRun = running ? Effect.void : run(input)
          return Effect.zipRight(persist.write, startRun)
        }))

    const cancel = (): Effect.Effect<Task, TransitionRefused> =>
      Effect.flatMap(isoNow, (ts) =>
        Effect.suspend(() => {
          if (!materialized) {
            return Effect.fail<TransitionRefused>({ _tag: "TransitionRefused", from: "completed", event: "cancel", reason: "terminal", message: "task already answered" })
          }
          const refusal = applySync({ type: "cancel", timestamp: ts })
          if (refusal !== undefined) return Effect.fail(refusal)
          const fiber = runFiber
          // Interrupting the run waits for the agent's finalizers; a cancel from inside the run cannot wait for itself.
          const stop = fiber === undefined
            ? Effect.void
            : Effect.fiberIdWith((self) => (self === fiber.id() ? Effect.void : Fiber.interrupt(fiber)))
          return Effect.as(Effect.zipRight(stop, persistAndMaybeForget), taskOf(snapshot))
        }))

    const changed = Effect.async<void>((resume) => {
      const w = () => resume(Effect.void)
      waiters.push(w)
      return Effect.sync(() => {
        waiters = waiters.filter((x) => x !== w)
      })
    })
    const awaitUntil = (done: () => boolean): Effect.Effect<void> => {
      const loop: Effect.Effect<void> = Effect.suspend(() => (done() ? Effect.void : Effect.zipRight(changed, loop)))
      return loop
    }

    const host: TaskHost = {
      taskId,
      contextId,
      owner,
      log,
      materialized: () => materialized,
      streamed: everRead,
      reply: () => replied,
      task: () => taskOf(snapshot),
      pushConfigs: persist.pushConfigs,
      run,
      resume,
      cancel,
      // Built when asked for, not per host: a send needs only one of the two (and an inline-finished agent leaves nothing to wait for).
      get awaitMaterialized() {
        return awaitUntil(() => materialized || replied !== undefined)
      },
      get awaitSettled() {
        return awaitUntil(settled)
      },
      updatePushConfigs: persist.updatePushConfigs
    }
    return host
  })
