/**
 * The host of one task in this process (see {@link TaskHost} in host-contract.ts): its machine snapshot,
 * event log and store writer, and the runs of its agent.
 */
import { Cause, Clock, Effect, Exit, Fiber } from "effect"
import { isInterrupted, isTerminal, refusedStep, start, stepInto, taskOf } from "../../machines/task.ts"
import type { TaskEvent, TaskSnapshot, TransitionRefused } from "../../machines/task.ts"
import type { Message, PushNotificationConfig, StreamResult, Task } from "../../schemas/index.ts"
import { toAgentMessage } from "../agent/messages.ts"
import { agentFailureText } from "./agent-failure.ts"
import { makeEventLog } from "./event-log.ts"
import type { Sequenced } from "./event-log.ts"
import { pacedLog } from "./paced-log.ts"
import { persistTask } from "./persist.ts"
import { makeRunContext } from "./run-context.ts"
import type { InputWaiter, RunState } from "./run-context.ts"
import { finalRecord } from "./final-record.ts"
import type { HostEnv, RunInput, TaskHost } from "./host-contract.ts"
import { tracedRun } from "./tracing.ts"
import { waitForWake } from "./wake.ts"

export type { HostEnv, RunInput, StoreHealthCounters, TaskChange, TaskHost } from "./host-contract.ts"

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
    readonly restored?: {
      readonly snapshot: TaskSnapshot
      readonly version: number
      readonly lastSeq?: number
      /** The epoch of the lease this host holds (a task taken over on a shared store). */
      readonly leaseEpoch?: number
      /** What the agent saved with the task. */
      readonly saved?: unknown
    }
  }
): Effect.Effect<TaskHost> =>
  // No Scope per task: the runtime owns the run fiber (env.spawn) and cancel interrupts it directly.
  Effect.map(Clock.currentTimeMillis, (now) => {
    const { contextId, owner, taskId } = init
    const timestamp = new Date(now).toISOString()
    const core: RunState = {
      snapshot: init.restored?.snapshot ?? start({ id: taskId, contextId, message: init.message, timestamp }),
      materialized: init.restored !== undefined,
      replied: undefined,
      released: false,
      inputWaiter: undefined,
      inbox: [],
      receivers: [],
      saved: init.restored?.saved,
      savedVersion: 0
    }
    // A run is active from its start until onRunEnd; the fiber is known only once spawn returns.
    let running = false
    let runFiber: Fiber.Fiber<void, unknown> | undefined
    // Runs so far: every run but a new task's first one continues the task (`ctx.resumed`).
    let runs = init.restored === undefined ? 0 : 1
    // Lost (see `lose`) or handed over: nothing changes any more.
    let gone: "lost" | "handed-over" | undefined
    // Callbacks instead of a fresh Deferred per change: most changes have nobody waiting.
    let waiters: Array<() => void> = []
    // A store shared by several instances keeps every event with the record, for readers elsewhere; readers
    // here get an event once it is stored, so the id a reader holds is one every instance has.
    const shared = env.store.shared !== undefined
    const { everRead, isPacing, log, pace } = pacedLog(makeEventLog<StreamResult>({
      window: env.window,
      snapshot: () => (core.replied !== undefined ? core.replied : taskOf(core.snapshot)),
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
      taskId,
      store: env.store,
      owner,
      version: init.restored?.version ?? 0,
      ...(init.restored?.leaseEpoch === undefined ? {} : { leaseEpoch: init.restored.leaseEpoch }),
      pushConfigs: init.pushConfigs,
      current: () => (core.materialized ? taskOf(core.snapshot) : undefined),
      saved: { value: () => core.saved, version: () => core.savedVersion },
      onFailure: () => {
        env.storeHealth.failedWrites++
      },
      ...(unsent === undefined
        ? {}
        : { unsent, onStored: (seq: number) => log.publish(seq), fork: (effect: Effect.Effect<void>) => Effect.asVoid(env.spawn(effect, false)) }),
      onRefused: (refusal) => lose(`the store refused its write: ${refusal.message}`)
    })

    const signal = () => {
      if (waiters.length === 0) return
      const ws = waiters
      waiters = []
      for (const w of ws) w()
    }
    const state = () => core.snapshot.state
    // Settled: what a blocking send waits for. An idle task (no run in progress, kept open by
    // `onReturn: "keep"`) is settled too: nothing will change it until the next message.
    const settled = () =>
      gone !== undefined || core.replied !== undefined ||
      (core.materialized && (isTerminal(state()) || isInterrupted(state()) || !running))

    // The log closes at the terminal step; the runtime forgets the host only once the store has the
    // terminal Task, so a reader never finds neither the host nor the final record.
    const release = () => {
      if (core.released) return
      core.released = true
      log.close()
      const rs = core.receivers
      core.receivers = []
      for (const r of rs) r(undefined)
    }
    let forgotten = false
    const forget = Effect.sync(() => {
      if (forgotten) return
      forgotten = true
      env.release(host)
    })
    const storeFinal = finalRecord({ taskId, state, persist, env, forget, forgotten: () => forgotten })
    const persistAndMaybeForget = Effect.suspend(() => (core.released ? storeFinal : persist.write))
    /**
     * On a shared store the agent does not wait for the write of an artifact or a status change (readers get
     * the events once stored; a burst goes in one write), unless it is far ahead of the store.
     */
    const persistSoon = Effect.suspend(() =>
      core.released ? storeFinal : unsent !== undefined && unsent.length > unsentBound ? persist.write : persist.writeSoon)

    const materialize = () => {
      if (core.materialized || core.replied !== undefined) return
      core.materialized = true
      const task = taskOf(core.snapshot)
      append(task)
      env.notify({ task, owner, pushConfigs: persist.pushConfigs() })
      signal()
    }

    /** The synchronous core: one machine step, its events appended, waiters woken. */
    const applySync = (event: TaskEvent): TransitionRefused | undefined => {
      if (core.replied !== undefined) {
        return { _tag: "TransitionRefused", from: "completed", event: event.type, reason: "terminal", message: "the agent already answered with a message" }
      }
      if (gone !== undefined) {
        return { _tag: "TransitionRefused", from: state(), event: event.type, reason: "terminal", message: "the task moved to another instance" }
      }
      materialize()
      const before = state()
      // The step's events are appended as it makes them (none if it is refused). Appending wakes readers on
      // their own turn (wake.ts), never inline: nobody reads the log or the snapshot before it is set below.
      const next = stepInto(core.snapshot, event, append)
      if (refusedStep(next)) return next
      core.snapshot = next
      if (event.type !== "artifact" && (before !== state() || event.type === "status" || isTerminal(state()))) {
        env.notify({ task: taskOf(core.snapshot), previous: before, owner, pushConfigs: persist.pushConfigs() })
        signal()
      }
      if (isTerminal(state())) release()
      return undefined
    }

    // What the agent waits for after a step, built once: live readers far behind get a bounded chance to
    // catch up before the agent goes on (paced-log.ts); on a shared store an artifact is stored before the
    // agent goes on, for readers on other instances.
    const afterArtifact = shared ? Effect.andThen(persistSoon, pace) : pace
    const afterStatus = Effect.andThen(shared ? persistSoon : persistAndMaybeForget, pace)

    /**
     * One step of `event`, then what the agent waits for before it goes on; a refusal becomes `onRefused`'s
     * effect. For an artifact with no reader far behind, that is no effect at all beyond the step: a stream of
     * chunks pays no fiber hop per chunk for pacing or for mapping a refusal it never had.
     */
    const applyThen = <E>(event: TaskEvent, onRefused: (refusal: TransitionRefused) => Effect.Effect<never, E>): Effect.Effect<void, E> => {
      const refusal = applySync(event)
      if (refusal !== undefined) return onRefused(refusal)
      if (event.type === "artifact") return shared || isPacing() ? afterArtifact : Effect.void
      if (event.type === "status") return afterStatus
      return persistAndMaybeForget
    }

    const apply = (event: TaskEvent): Effect.Effect<void, TransitionRefused> => Effect.suspend(() => applyThen(event, Effect.fail))

    /** The answer for `waiter`: at once when it came already, else when `resume` hands it over. */
    const awaitAnswer = (waiter: InputWaiter): Effect.Effect<Message> =>
      Effect.suspend(() =>
        waiter.answer !== undefined ? Effect.succeed(waiter.answer) : waitForWake<Message>((wake) => {
          waiter.wake = (answer) => wake(Effect.succeed(answer))
          return Effect.sync(() => {
            waiter.wake = undefined
          })
        }))

    const contextFor = makeRunContext({
      taskId,
      contextId,
      owner,
      core,
      state,
      applyThen,
      applySync,
      publishReply: (message) => {
        core.replied = message
        // Not stored (no task exists): published at once.
        log.append(message)
        log.publish(log.lastSeq())
        signal()
        release()
      },
      forget,
      write: persist.write,
      awaitAnswer,
      admitWaiting: env.admitWaiting,
      claimContext: env.store.claimContext
    })

    // Cleared only at the very end, so that no reader sees an idle task that is about to be completed or failed.
    const runEnded = Effect.sync(() => {
      running = false
      runFiber = undefined
      signal()
    })

    /** The agent ended the task while messages waited for it: they stay in the history, unanswered. */
    const warnUnread = Effect.suspend(() => {
      const n = core.inbox.length
      core.inbox.length = 0
      if (n === 0 || state() === "canceled" || gone !== undefined) return Effect.void
      return Effect.logWarning(`task ${taskId} ended ${state()} with ${n} message${n === 1 ? "" : "s"} the agent never took`)
    })

    /**
     * A run returned with the task still `submitted`/`working`: a message that waits for the agent is an
     * unanswered turn, so `execute` runs again with it; otherwise `onReturn` decides. The inbox check and
     * the step that follows are one synchronous block, so no message can arrive unseen in between.
     */
    const afterReturn = () => Effect.flatMap(isoNow, (timestamp) =>
      Effect.suspend(() => {
        if (gone !== undefined || isTerminal(state()) || isInterrupted(state())) return runEnded
        const next = core.inbox.shift()
        if (next !== undefined) return begin(next, false)
        // Kept as it is: stored as it is (a run that returned without acting left the new Task unwritten).
        if (env.agent.onReturn === "keep") return Effect.andThen(persistAndMaybeForget, runEnded)
        const refusal = applySync({ type: "complete", timestamp })
        return refusal === undefined ? Effect.andThen(persistAndMaybeForget, runEnded) : runEnded
      }))

    /** Decides the task's end from how a run of `execute` ended, when the agent did not. */
    const onRunEnd = (exit: Exit.Exit<void, unknown>): Effect.Effect<void> => {
      if (core.replied !== undefined || isTerminal(state()) || gone !== undefined) {
        return core.inbox.length === 0 ? runEnded : Effect.andThen(warnUnread, runEnded)
      }
      if (Exit.isSuccess(exit)) {
        materialize()
        return afterReturn()
      }
      const warn = Cause.hasInterruptsOnly(exit.cause) ? Effect.void : Effect.logWarning(`task ${taskId}: the agent's execute failed`, exit.cause)
      const text = agentFailureText(exit.cause)
      return warn.pipe(
        Effect.andThen(Effect.ignore(Effect.flatMap(isoNow, (ts) => apply({ type: "fail", timestamp: ts, message: toAgentMessage(text, { taskId, contextId }) })))),
        Effect.andThen(warnUnread),
        Effect.andThen(runEnded)
      )
    }

    /** Starts a run of `execute` for `input` (the caller made sure no other run is going). */
    const begin = (input: RunInput, inline: boolean): Effect.Effect<void> =>
      Effect.suspend(() => {
        running = true
        const resumed = runs > 0
        runs++
        const program = tracedRun(
          Effect.suspend(() => env.agent.execute(contextFor(input, resumed))),
          taskId,
          input.principal.id
        ).pipe(Effect.asVoid, Effect.onExit(onRunEnd))
        return Effect.map(env.spawn(program, inline), (fiber) => {
          // Defensive: a run that has already ended leaves no fiber to interrupt.
          if (running) runFiber = fiber
        })
      })

    const run = (input: RunInput, inline = false): Effect.Effect<void> =>
      Effect.suspend(() => (running || core.released || gone !== undefined ? Effect.void : begin(input, inline)))

    const resume = (input: RunInput): Effect.Effect<void, TransitionRefused> =>
      Effect.flatMap(isoNow, (ts) =>
        Effect.suspend(() => {
          const refusal = applySync({ type: "resume", timestamp: ts, message: input.message })
          if (refusal !== undefined) return Effect.fail(refusal)
          const waiter = core.inputWaiter
          core.inputWaiter = undefined
          if (waiter !== undefined) {
            waiter.answer = input.message
            waiter.wake?.(input.message)
          }
          // No run in progress (the last one returned while waiting): this message starts a new one.
          if (!running) return Effect.andThen(persist.write, run(input))
          // A run is going and did not ask for input: the message waits for the agent (never dropped).
          if (waiter === undefined) {
            const receiver = core.receivers.shift()
            if (receiver !== undefined) receiver(input)
            else core.inbox.push(input)
          }
          return persist.write
        }))

    /** Interrupts the run, unless called from inside it (a run cannot wait for itself). */
    const stopRun = Effect.suspend(() => {
      const fiber = runFiber
      return fiber === undefined
        ? Effect.void
        : Effect.flatMap(Effect.fiberId, (self) => (self === fiber.id ? Effect.void : Fiber.interrupt(fiber)))
    })

    const cancel = (): Effect.Effect<Task, TransitionRefused> =>
      Effect.flatMap(isoNow, (ts) =>
        Effect.suspend(() => {
          if (!core.materialized) {
            return Effect.fail<TransitionRefused>({ _tag: "TransitionRefused", from: "completed", event: "cancel", reason: "terminal", message: "task already answered" })
          }
          const refusal = applySync({ type: "cancel", timestamp: ts })
          if (refusal !== undefined) return Effect.fail(refusal)
          // Interrupting the run waits for the agent's finalizers.
          return Effect.as(Effect.andThen(stopRun, persistAndMaybeForget), taskOf(core.snapshot))
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

    /** Leaves the runtime without changing the task any more; the agent is stopped in the background. */
    const leave = (how: "lost" | "handed-over", reason: string | undefined) =>
      Effect.suspend(() => {
        if (gone !== undefined) return Effect.void
        gone = how
        const fiber = runFiber
        // Events not stored will never be: readers here end, and resume where the events are stored.
        if (how === "lost") log.discard()
        release()
        signal()
        const stop = fiber === undefined ? Effect.void : Fiber.interrupt(fiber)
        const logged = reason === undefined ? Effect.void : Effect.logWarning(`task ${taskId}: stopped here: ${reason}`)
        return Effect.asVoid(env.spawn(Effect.andThen(logged, Effect.andThen(stop, forget)), false))
      })

    const lose = (reason: string) => leave("lost", reason)

    const handOver: Effect.Effect<number | undefined> = Effect.suspend(() => {
      if (gone !== undefined) return Effect.succeed(undefined)
      gone = "handed-over"
      signal()
      const fiber = runFiber
      return (fiber === undefined ? Effect.void : Fiber.interrupt(fiber)).pipe(
        // What the agent did before it stopped is the task as the next instance finds it.
        Effect.andThen(Effect.catch(persist.sync, (failure) =>
          Effect.logWarning(`task ${taskId}: its last changes could not be stored before handing it over`, failure))),
        Effect.andThen(Effect.sync(() => release())),
        Effect.andThen(forget),
        Effect.as(persist.leaseEpoch())
      )
    })

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
      materialized: () => core.materialized,
      streamed: everRead,
      reply: () => core.replied,
      task: () => taskOf(core.snapshot),
      pushConfigs: persist.pushConfigs,
      saved: () => core.saved,
      run,
      resume,
      cancel,
      // Built when asked for, not per host: a send needs only one of the two (and an inline-finished agent
      // leaves nothing to wait for). Methods, not getters: an object literal with getters of its own gets a
      // hidden class of its own, in the old generation, and through it every young collection until the next
      // full one keeps the whole host (every closure here shares one context) alive.
      awaitMaterialized: () => awaitUntil(() => core.materialized || core.replied !== undefined || gone !== undefined),
      awaitSettled: () => awaitUntil(settled),
      awaitStored: persist.sync,
      failWith,
      updatePushConfigs: persist.updatePushConfigs,
      leaseEpoch: persist.leaseEpoch,
      lost: () => gone !== undefined,
      lose,
      handOver
    }
    return host
  })
