import { Cause, Clock, Effect, Exit, Fiber, Option, Result, Schedule } from "effect"
import { isInterrupted, isTerminal, start, step, taskOf } from "../../machines/task.ts"
import type { TaskEvent, TaskSnapshot, TransitionRefused } from "../../machines/task.ts"
import type { Message, PushNotificationConfig, StreamResult, Task, TaskState } from "../../schemas/index.ts"
import type { Agent } from "../agent/agent.ts"
import { agentMessageOf, artifactChunkOf } from "../agent/agent-output.ts"
import { toAgentMessage } from "../agent/messages.ts"
import type { MessageInput } from "../agent/messages.ts"
import { TaskActionRefused } from "../agent/task-context.ts"
import { traced } from "./tracing.ts"
import type { TaskContext } from "../agent/task-context.ts"
import type { Principal } from "../auth/principal.ts"
import { agentFailureText } from "./agent-failure.ts"
import { makeEventLog } from "./event-log.ts"
import type { EventLog, Sequenced } from "./event-log.ts"
import { pacedLog } from "./paced-log.ts"
import { persistTask } from "./persist.ts"
import { waitForWake } from "./wake.ts"
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
  /** Called when the host no longer serves its task (terminal and stored, or answered with a Message). */
  readonly release: (taskId: string) => void
  /** When to try again to store a terminal Task whose write failed (until it succeeds). */
  readonly storeRetry: Schedule.Schedule<unknown, unknown>
  /** Counters of the store's health, shared by every host of the runtime. */
  readonly storeHealth: StoreHealthCounters
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
  readonly awaitMaterialized: Effect.Effect<void>
  /** Resolves once the task is terminal or interrupted (or the agent replied). */
  readonly awaitSettled: Effect.Effect<void>
  /** Resolves once the store holds the task as it is now (what another instance reads is then no older). */
  readonly awaitStored: Effect.Effect<void>
  /** Ends the task `failed` with the runtime's explanation (e.g. the instance that ran it stopped), stopping any run. */
  readonly failWith: (text: string) => Effect.Effect<void, TransitionRefused>
  /** Changes the push configs and persists them with the task. */
  readonly updatePushConfigs: (
    f: (configs: ReadonlyArray<PushNotificationConfig>) => ReadonlyArray<PushNotificationConfig>
  ) => Effect.Effect<void>
}

const artifactRefused = (r: TransitionRefused) =>
  new TaskActionRefused({ action: "artifact", state: r.from, reason: r.reason, message: r.message })

/** A `requestInput`/`requestAuth` waiting for its answer (kept when the answer comes before the wait). */
interface InputWaiter {
  answer: Message | undefined
  wake: ((answer: Message) => void) | undefined
}

/** Events a task on a shared store may hold unstored before its agent waits for the store. */
const unsentBound = 256

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
    readonly restored?: { readonly snapshot: TaskSnapshot; readonly version: number; readonly lastSeq?: number }
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
    let runFiber: Fiber.Fiber<void, unknown> | undefined
    let inputWaiter: InputWaiter | undefined
    // Messages that arrived while a run was going and nobody waited for input: the agent takes them with
    // `receive`/`tryReceive` (in order), or the next run of `execute` starts with the first of them.
    const inbox: Array<RunInput> = []
    // Runs waiting in `receive`, oldest first; called with undefined when the task ends.
    let receivers: Array<(input: RunInput | undefined) => void> = []
    // Callbacks instead of a fresh Deferred per change: most changes have nobody waiting.
    let waiters: Array<() => void> = []
    // A store shared by several instances keeps every event with the record, for readers elsewhere; readers
    // here get an event once it is stored, so the id a reader holds is one every instance has.
    const shared = env.store.shared !== undefined
    const { everRead, log, pace } = pacedLog(makeEventLog<StreamResult>({
      window: env.window,
      snapshot: () => (replied !== undefined ? replied : taskOf(snapshot)),
      startAfter: init.restored?.lastSeq ?? 0,
      gated: shared
    }), env.window, env.stallMs)
    const unsent: Array<Sequenced<StreamResult>> | undefined = shared ? [] : undefined
    const append = unsent === undefined
      ? (event: StreamResult) => void log.append(event)
      : (event: StreamResult) => {
        const sequenced = log.append(event)
        if (sequenced !== undefined) unsent.push(sequenced)
      }
    const persist = persistTask({
      store: env.store,
      owner,
      version: init.restored?.version ?? 0,
      pushConfigs: init.pushConfigs,
      current: () => (materialized ? taskOf(snapshot) : undefined),
      onFailure: () => {
        env.storeHealth.failedWrites++
      },
      ...(unsent === undefined
        ? {}
        : { unsent, onStored: (seq: number) => log.publish(seq), fork: (effect: Effect.Effect<void>) => Effect.asVoid(env.spawn(effect, false)) }),
      onRefused: (refusal) => abandon(refusal.message)
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
      const rs = receivers
      receivers = []
      for (const r of rs) r(undefined)
    }
    let forgotten = false
    const forget = Effect.sync(() => {
      if (forgotten) return
      forgotten = true
      env.release(taskId)
    })
    // A terminal record that the store refused is retried in the background until it is stored; until
    // then the host stays, so every reader keeps getting the task's true state rather than the stale record.
    let retrying = false
    const retryStore = (firstFailure: unknown): Effect.Effect<void> => {
      let attempts = 1
      const what = () => `task ${taskId} ended ${state()} but its record is not stored`
      return Effect.andThen(
        Effect.logError(`${what()}; retrying with backoff`, firstFailure),
        persist.flush.pipe(
          Effect.tapError((failure) => {
            attempts++
            // Logged at 2, 4, 8, ... attempts: visible for as long as it lasts, without a line per retry.
            return (attempts & (attempts - 1)) === 0 ? Effect.logError(`${what()} after ${attempts} attempts`, failure) : Effect.void
          }),
          Effect.retry(env.storeRetry),
          Effect.matchEffect({
            // The schedule never ends: were it to, the task would simply stay hosted.
            onFailure: () => Effect.void,
            onSuccess: () =>
              Effect.logInfo(`task ${taskId} stored after ${attempts + 1} attempts`).pipe(
                Effect.andThen(Effect.sync(() => {
                  retrying = false
                  env.storeHealth.unstoredTasks--
                })),
                Effect.andThen(forget)
              )
          }),
          Effect.onInterrupt(() => Effect.logError(`${what()}: the runtime stopped before the store took it`))
        )
      )
    }
    const storeFinal = Effect.suspend(() =>
      retrying
        ? Effect.void
        : Effect.catch(Effect.andThen(persist.flush, forget), (failure) =>
          Effect.suspend(() => {
            if (retrying || forgotten) return Effect.void
            // Refused for good (another instance ended or took the task): nothing to retry.
            if (failure._tag === "WriteRefused") return forget
            retrying = true
            env.storeHealth.unstoredTasks++
            return Effect.asVoid(env.spawn(retryStore(failure), false))
          })))
    const persistAndMaybeForget = Effect.suspend(() => (released ? storeFinal : persist.write))
    /**
     * On a shared store the agent does not wait for the write of an artifact or a status change (readers get
     * the events once stored; a burst goes in one write), unless it is far ahead of the store.
     */
    const persistSoon = Effect.suspend(() =>
      released ? storeFinal : unsent !== undefined && unsent.length > unsentBound ? persist.write : persist.writeSoon)

    const materialize = () => {
      if (materialized || replied !== undefined) return
      materialized = true
      const task = taskOf(snapshot)
      append(task)
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
      for (const e of result.emitted) append(e)
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
        // On a shared store an artifact is stored before the agent goes on, for readers on other instances.
        if (event.type === "artifact") return shared ? Effect.andThen(persistSoon, pace) : pace
        if (event.type === "status") return Effect.andThen(shared ? persistSoon : persistAndMaybeForget, pace)
        return persistAndMaybeForget
      })

    const refused = (action: string) => (r: TransitionRefused) =>
      new TaskActionRefused({ action, state: r.from, reason: r.reason, message: r.message })

    const agentMessage = (input: MessageInput | undefined) =>
      input === undefined ? {} : { message: toAgentMessage(input, { taskId, contextId }) }

    /** The agent handed something that is not valid A2A: refused before anything changes. */
    const invalidOutput = (action: string, problem: string) =>
      new TaskActionRefused({ action, state: replied !== undefined ? "completed" : materialized ? state() : "pending", reason: "invalid-output", message: problem })

    /** The agent's message checked against the wire schema (see agent-output.ts), or the refusal. */
    const checkedMessage = (action: string, input: MessageInput): Result.Result<Message, TaskActionRefused> =>
      Result.mapError(agentMessageOf(input, { taskId, contextId }), (problem) => invalidOutput(action, problem))

    /** A status change as a literal: spreading a temporary `{ message }` into it cost an allocation and a slow copy per action. */
    const statusEvent = <T extends "status" | "complete" | "fail" | "reject" | "requestInput" | "requestAuth">(
      type: T,
      timestamp: string,
      message: Message | undefined
    ) =>
      message === undefined ? { type, timestamp } : { type, timestamp, message }

    const statusAction = (type: "status" | "complete" | "fail" | "reject", action: string) => {
      // One refusal mapper per action kind, not one per call.
      const onRefused = refused(action)
      return (input?: MessageInput): Effect.Effect<void, TaskActionRefused> =>
        Effect.flatMap(isoNow, (ts) => {
          if (input === undefined) return Effect.mapError(apply(statusEvent(type, ts, undefined)), onRefused)
          const message = checkedMessage(action, input)
          return Result.isFailure(message)
            ? Effect.fail(message.failure)
            : Effect.mapError(apply(statusEvent(type, ts, message.success)), onRefused)
        })
    }

    const waitFor = (type: "requestInput" | "requestAuth") => (input: MessageInput) =>
      Effect.flatMap(isoNow, (ts) =>
        Effect.suspend(() => {
          const question = checkedMessage(type, input)
          if (Result.isFailure(question)) return Effect.fail(question.failure)
          // The waiter exists before the state becomes visible, so no answer can slip past it.
          const waiter: InputWaiter = { answer: undefined, wake: undefined }
          const previous = inputWaiter
          inputWaiter = waiter
          const refusal = applySync(statusEvent(type, ts, question.success))
          if (refusal !== undefined) {
            inputWaiter = previous
            return Effect.fail(refused(type)(refusal))
          }
          return Effect.andThen(persist.write, awaitAnswer(waiter)).pipe(
            Effect.onInterrupt(() =>
              Effect.sync(() => {
                if (inputWaiter === waiter) inputWaiter = undefined
              })
            )
          )
        }))

    /** The answer for `waiter`: at once when it came already, else when `resume` hands it over. */
    const awaitAnswer = (waiter: InputWaiter): Effect.Effect<Message> =>
      Effect.suspend(() =>
        waiter.answer !== undefined ? Effect.succeed(waiter.answer) : waitForWake<Message>((wake) => {
          waiter.wake = (answer) => wake(Effect.succeed(answer))
          return Effect.sync(() => {
            waiter.wake = undefined
          })
        }))

    const receive = (): Effect.Effect<Message, TaskActionRefused> =>
      Effect.suspend(() => {
        const next = inbox.shift()
        if (next !== undefined) return Effect.succeed(next.message)
        if (released) {
          return Effect.fail(new TaskActionRefused({ action: "receive", state: replied !== undefined ? "completed" : state(), reason: "terminal", message: "the task has ended: no message will come" }))
        }
        return waitForWake<Message, TaskActionRefused>((resume) => {
          const receiver = (input: RunInput | undefined) =>
            resume(input === undefined
              ? Effect.fail(new TaskActionRefused({ action: "receive", state: state(), reason: "terminal", message: "the task ended while waiting for a message" }))
              : Effect.succeed(input.message))
          receivers.push(receiver)
          return Effect.sync(() => {
            receivers = receivers.filter((r) => r !== receiver)
          })
        })
      })

    const tryReceive = (): Effect.Effect<Option.Option<Message>> =>
      Effect.sync(() => Option.map(Option.fromNullishOr(inbox.shift()), (input) => input.message))

    const replyRefusal = () =>
      materialized || replied !== undefined
        ? new TaskActionRefused({ action: "reply", state: materialized ? state() : "completed", reason: "task-exists", message: "reply is only valid as the first action of a new task" })
        : undefined

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
        Effect.suspend(() => {
          const chunk = artifactChunkOf(parts, options)
          if (Result.isFailure(chunk)) return Effect.fail(invalidOutput("artifact", chunk.failure))
          const { append, artifact, lastChunk } = chunk.success
          return Effect.mapError(
            apply({
              type: "artifact",
              artifact,
              ...(append === undefined ? {} : { append }),
              ...(lastChunk === undefined ? {} : { lastChunk })
            }),
            artifactRefused
          )
        }),
      requestInput: waitFor("requestInput"),
      requestAuth: waitFor("requestAuth"),
      receive,
      tryReceive,
      complete: statusAction("complete", "complete"),
      fail: statusAction("fail", "fail"),
      reject: statusAction("reject", "reject"),
      reply: (input) =>
        Effect.suspend(() => {
          const refusal = replyRefusal()
          if (refusal !== undefined) return Effect.fail(refusal)
          const checked = checkedMessage("reply", input)
          if (Result.isFailure(checked)) return Effect.fail(checked.failure)
          const { taskId: _omit, ...message } = checked.success
          // No task record will carry the context the reply names: claim it for the owner explicitly.
          return Effect.andThen(
            Effect.catch(env.store.claimContext(contextId, owner), (failure) =>
              Effect.logError(`context ${contextId} of a reply could not be recorded as ${owner}'s`, failure)),
            Effect.suspend(() => {
              const late = replyRefusal()
              if (late !== undefined) return Effect.fail(late)
              replied = message
              // Not stored (no task exists): published at once.
              log.append(message)
              log.publish(log.lastSeq())
              signal()
              release()
              return forget
            })
          )
        })
    })

    // Cleared only at the very end, so that no reader sees an idle task that is about to be completed or failed.
    const runEnded = Effect.sync(() => {
      running = false
      runFiber = undefined
      signal()
    })

    /** The agent ended the task while messages waited for it: they stay in the history, unanswered. */
    const warnUnread = Effect.suspend(() => {
      const n = inbox.length
      inbox.length = 0
      if (n === 0 || state() === "canceled") return Effect.void
      return Effect.logWarning(`task ${taskId} ended ${state()} with ${n} message${n === 1 ? "" : "s"} the agent never took`)
    })

    /**
     * A run returned with the task still `submitted`/`working`: a message that waits for the agent is an
     * unanswered turn, so `execute` runs again with it; otherwise `onReturn` decides. The inbox check and
     * the step that follows are one synchronous block, so no message can arrive unseen in between.
     */
    const afterReturn = () => Effect.flatMap(isoNow, (timestamp) =>
      Effect.suspend(() => {
        if (isTerminal(state()) || isInterrupted(state())) return runEnded
        const next = inbox.shift()
        if (next !== undefined) return begin(next, false)
        // Kept as it is: stored as it is (a run that returned without acting left the new Task unwritten).
        if (env.agent.onReturn === "keep") return Effect.andThen(persistAndMaybeForget, runEnded)
        const refusal = applySync({ type: "complete", timestamp })
        return refusal === undefined ? Effect.andThen(persistAndMaybeForget, runEnded) : runEnded
      }))

    /** Decides the task's end from how a run of `execute` ended, when the agent did not. */
    const onRunEnd = (exit: Exit.Exit<void, unknown>): Effect.Effect<void> => {
      if (replied !== undefined || isTerminal(state())) return inbox.length === 0 ? runEnded : Effect.andThen(warnUnread, runEnded)
      if (Exit.isSuccess(exit)) {
        materialize()
        return afterReturn()
      }
      const warn = Cause.hasInterruptsOnly(exit.cause) ? Effect.void : Effect.logWarning("agent execute failed", exit.cause)
      const text = agentFailureText(exit.cause)
      return warn.pipe(
        Effect.andThen(Effect.ignore(Effect.flatMap(isoNow, (timestamp) => apply({ type: "fail", timestamp, ...agentMessage(text) })))),
        Effect.andThen(warnUnread),
        Effect.andThen(runEnded)
      )
    }

    /** Starts a run of `execute` for `input` (the caller made sure no other run is going). */
    const begin = (input: RunInput, inline: boolean): Effect.Effect<void> =>
      Effect.suspend(() => {
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

    const run = (input: RunInput, inline = false): Effect.Effect<void> =>
      Effect.suspend(() => (running || released ? Effect.void : begin(input, inline)))

    const resume = (input: RunInput): Effect.Effect<void, TransitionRefused> =>
      Effect.flatMap(isoNow, (ts) =>
        Effect.suspend(() => {
          const refusal = applySync({ type: "resume", timestamp: ts, message: input.message })
          if (refusal !== undefined) return Effect.fail(refusal)
          const waiter = inputWaiter
          inputWaiter = undefined
          if (waiter !== undefined) {
            waiter.answer = input.message
            waiter.wake?.(input.message)
          }
          // No run in progress (the last one returned while waiting): this message starts a new one.
          if (!running) return Effect.andThen(persist.write, run(input))
          // A run is going and did not ask for input: the message waits for the agent (never dropped).
          if (waiter === undefined) {
            const receiver = receivers.shift()
            if (receiver !== undefined) receiver(input)
            else inbox.push(input)
          }
          return persist.write
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
            : Effect.flatMap(Effect.fiberId, (self) => (self === fiber.id ? Effect.void : Fiber.interrupt(fiber)))
          return Effect.as(Effect.andThen(stop, persistAndMaybeForget), taskOf(snapshot))
        }))

    // Resumed on the waiter's scheduler (wake.ts): the change's step (its store write included) ends first.
    const changed = waitForWake((resume) => {
      const w = () => resume(Effect.void)
      waiters.push(w)
      return Effect.sync(() => {
        waiters = waiters.filter((x) => x !== w)
      })
    })
    const awaitUntil = (done: () => boolean): Effect.Effect<void> => {
      const loop: Effect.Effect<void> = Effect.suspend(() => (done() ? Effect.void : Effect.andThen(changed, loop)))
      return loop
    }

    /**
     * The store refused this host's writes for good: another instance ended the task or took it over
     * (this one was cut off longer than the lease). Stops the agent and leaves; readers here see their
     * stream end and resume from the store.
     */
    let abandoned = false
    function abandon(reason: string) {
      if (abandoned) return
      abandoned = true
      const fiber = runFiber
      // Events not stored will never be: readers here end, and resume where the events are stored.
      log.discard()
      release()
      Effect.runFork(Effect.andThen(
        Effect.logWarning(`task ${taskId}: stopped here: ${reason}`),
        Effect.andThen(fiber === undefined ? Effect.void : Fiber.interrupt(fiber), forget)
      ))
      signal()
    }

    const failWith = (text: string): Effect.Effect<void, TransitionRefused> =>
      Effect.flatMap(isoNow, (timestamp) =>
        Effect.suspend(() => {
          const fiber = runFiber
          const message = toAgentMessage(text, { taskId, contextId })
          const refusal = applySync({ type: "fail", timestamp, message })
          if (refusal !== undefined) return Effect.fail(refusal)
          const stop = fiber === undefined ? Effect.void : Fiber.interrupt(fiber)
          return Effect.andThen(stop, persistAndMaybeForget)
        }))

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
      awaitStored: persist.write,
      failWith,
      updatePushConfigs: persist.updatePushConfigs
    }
    return host
  })
