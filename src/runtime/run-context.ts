/**
 * The {@link TaskContext} a run of `execute` gets: the agent's actions, each checked against the wire
 * schemas and turned into one event of the task's machine through its host (task-host.ts).
 */
import { Clock, Effect, Option, Result } from "effect"
import { taskOf } from "../../machines/task.ts"
import type { LifecycleState, TaskEvent, TaskSnapshot, TransitionRefused } from "../../machines/task.ts"
import type { Message, Task } from "../../schemas/index.ts"
import { agentMessageOf, artifactChunkOf, savedStateOf } from "../agent/agent-output.ts"
import type { MessageInput } from "../agent/messages.ts"
import { TaskActionRefused } from "../agent/task-context.ts"
import type { ContextActionName, TaskContext } from "../agent/task-context.ts"
import type { RunInput } from "./host-contract.ts"
import type { TaskStoreFailure } from "./task-store.ts"
import { waitForWake } from "./wake.ts"

/** A `requestInput`/`requestAuth` waiting for its answer (kept when the answer comes before the wait). */
export interface InputWaiter {
  answer: Message | undefined
  wake: ((answer: Message) => void) | undefined
}

/** The host's state that the actions read and change. */
export interface RunState {
  snapshot: TaskSnapshot
  /** Whether the Task exists for clients (false until the agent's first action, which may be a reply). */
  materialized: boolean
  /** The Message the agent answered with instead of a task. */
  replied: Message | undefined
  /** Terminal, replied or gone: the log is closed and `receive` waits for nothing. */
  released: boolean
  inputWaiter: InputWaiter | undefined
  /**
   * Messages that arrived while a run was going and nobody waited for input: the agent takes them with
   * `receive`/`tryReceive` (in order), or the next run of `execute` starts with the first of them.
   */
  inbox: Array<RunInput>
  /** Runs waiting in `receive`, oldest first; called with undefined when the task ends. */
  receivers: Array<(input: RunInput | undefined) => void>
  /** What the agent saved (`save`), and a number raised by each change (the writer stores it when it moved). */
  saved: unknown
  savedVersion: number
}

/** What the actions need from their host. */
export interface RunHost {
  readonly taskId: string
  readonly contextId: string
  readonly owner: string
  readonly core: RunState
  readonly state: () => LifecycleState
  /** One step of `event`, then what the agent waits for before going on; a refusal becomes `onRefused`'s effect. */
  readonly applyThen: <E>(event: TaskEvent, onRefused: (refusal: TransitionRefused) => Effect.Effect<never, E>) => Effect.Effect<void, E>
  readonly applySync: (event: TaskEvent) => TransitionRefused | undefined
  /** The agent answered with a Message and no task: it goes to readers at once (no task is stored). */
  readonly publishReply: (message: Message) => void
  readonly forget: Effect.Effect<void>
  readonly write: Effect.Effect<void>
  readonly awaitAnswer: (waiter: InputWaiter) => Effect.Effect<Message>
  readonly admitWaiting: (owner: string) => Effect.Effect<string | undefined>
  readonly claimContext: (contextId: string, owner: string) => Effect.Effect<string, TaskStoreFailure>
}

const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

/** Builds the context of each run: `(input, resumed) => TaskContext`. */
export const makeRunContext = (host: RunHost) => {
  const { contextId, core, owner, taskId } = host
  const state = host.state

  const refused = (action: string) => (r: TransitionRefused) =>
    new TaskActionRefused({ action, state: r.from, reason: r.reason, message: r.message })
  const artifactRefused = refused("artifact")
  const failArtifact = (r: TransitionRefused) => Effect.fail(artifactRefused(r))

  /** The agent handed something that is not valid A2A: refused before anything changes. */
  const invalidOutput = (action: string, problem: string) =>
    new TaskActionRefused({ action, state: core.replied !== undefined ? "completed" : core.materialized ? state() : "pending", reason: "invalid-output", message: problem })

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
    const fail = (r: TransitionRefused) => Effect.fail(onRefused(r))
    return (input?: MessageInput): Effect.Effect<void, TaskActionRefused> =>
      Effect.flatMap(isoNow, (ts) => {
        if (input === undefined) return host.applyThen(statusEvent(type, ts, undefined), fail)
        const message = checkedMessage(action, input)
        return Result.isFailure(message) ? Effect.fail(message.failure) : host.applyThen(statusEvent(type, ts, message.success), fail)
      })
  }

  /** Asks the user; bounded by how many tasks the owner may have waiting (see `waitingTasks`). */
  const waitFor = (type: "requestInput" | "requestAuth") => (input: MessageInput) =>
    Effect.suspend(() => {
      const question = checkedMessage(type, input)
      if (Result.isFailure(question)) return Effect.fail(question.failure)
      return Effect.flatMap(host.admitWaiting(owner), (refusal) =>
        refusal !== undefined
          ? Effect.fail(new TaskActionRefused({ action: type, state: state(), reason: "limit", message: refusal }))
          : Effect.flatMap(isoNow, (ts) =>
            Effect.suspend(() => {
              // The waiter exists before the state becomes visible, so no answer can slip past it.
              const waiter: InputWaiter = { answer: undefined, wake: undefined }
              const previous = core.inputWaiter
              core.inputWaiter = waiter
              const refusal = host.applySync(statusEvent(type, ts, question.success))
              if (refusal !== undefined) {
                core.inputWaiter = previous
                return Effect.fail(refused(type)(refusal))
              }
              return Effect.andThen(host.write, host.awaitAnswer(waiter)).pipe(
                Effect.onInterrupt(() =>
                  Effect.sync(() => {
                    if (core.inputWaiter === waiter) core.inputWaiter = undefined
                  })
                )
              )
            })))
    })

  const receive = (): Effect.Effect<Message, TaskActionRefused> =>
    Effect.suspend(() => {
      const next = core.inbox.shift()
      if (next !== undefined) return Effect.succeed(next.message)
      if (core.released) {
        return Effect.fail(new TaskActionRefused({ action: "receive", state: core.replied !== undefined ? "completed" : state(), reason: "terminal", message: "the task has ended: no message will come" }))
      }
      return waitForWake<Message, TaskActionRefused>((resume) => {
        const receiver = (input: RunInput | undefined) =>
          resume(input === undefined
            ? Effect.fail(new TaskActionRefused({ action: "receive", state: state(), reason: "terminal", message: "the task ended while waiting for a message" }))
            : Effect.succeed(input.message))
        core.receivers.push(receiver)
        return Effect.sync(() => {
          core.receivers = core.receivers.filter((r) => r !== receiver)
        })
      })
    })

  const tryReceive = (): Effect.Effect<Option.Option<Message>> =>
    Effect.sync(() => Option.map(Option.fromNullishOr(core.inbox.shift()), (input) => input.message))

  const replyRefusal = () =>
    core.materialized || core.replied !== undefined
      ? new TaskActionRefused({ action: "reply", state: core.materialized ? state() : "completed", reason: "task-exists", message: "reply is only valid as the first action of a new task" })
      : undefined

  const save = (value: unknown): Effect.Effect<void, TaskActionRefused> =>
    Effect.suspend(() => {
      const copied = savedStateOf(value)
      if (Result.isFailure(copied)) return Effect.fail(invalidOutput("save", copied.failure))
      core.saved = copied.success
      core.savedVersion++
      return Effect.void
    })

  const actions: RunActions = {
    save,
    working: statusAction("status", "working"),
    artifact: (parts, options = {}) =>
      Effect.suspend(() => {
        const chunk = artifactChunkOf(parts, options)
        if (Result.isFailure(chunk)) return Effect.fail(invalidOutput("artifact", chunk.failure))
        return host.applyThen(chunk.success, failArtifact)
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
          Effect.catch(host.claimContext(contextId, owner), (failure) =>
            Effect.logError(`task ${taskId}: context ${contextId} of a reply could not be recorded as ${owner}'s`, failure)),
          Effect.suspend(() => {
            const late = replyRefusal()
            if (late !== undefined) return Effect.fail(late)
            host.publishReply(message)
            return host.forget
          })
        )
      })
  }
  return (input: RunInput, resumed: boolean): TaskContext => new RunContext(host, actions, input, resumed)
}

/** The actions of a run's context: the same for every run of a task. */
type RunActions = Pick<TaskContext, ContextActionName>

/**
 * A run's context. `task`, `history` and `saved` are read when asked for, by getters on the prototype:
 * getters in an object literal would give every context a hidden class of its own, which V8 keeps in the
 * old generation, so each young collection until the next full one would keep the run's context, and
 * the whole task host its closures share a scope with, alive.
 */
class RunContext implements TaskContext {
  readonly #core: RunState
  readonly taskId: string
  readonly contextId: string
  readonly message: Message
  readonly resumed: boolean
  readonly extensions: ReadonlyArray<string>
  readonly principal: TaskContext["principal"]
  readonly save: TaskContext["save"]
  readonly working: TaskContext["working"]
  readonly artifact: TaskContext["artifact"]
  readonly requestInput: TaskContext["requestInput"]
  readonly requestAuth: TaskContext["requestAuth"]
  readonly receive: TaskContext["receive"]
  readonly tryReceive: TaskContext["tryReceive"]
  readonly complete: TaskContext["complete"]
  readonly fail: TaskContext["fail"]
  readonly reject: TaskContext["reject"]
  readonly reply: TaskContext["reply"]

  constructor(host: RunHost, actions: RunActions, input: RunInput, resumed: boolean) {
    this.#core = host.core
    this.taskId = host.taskId
    this.contextId = host.contextId
    this.message = input.message
    this.resumed = resumed
    this.extensions = input.extensions
    this.principal = input.principal
    this.save = actions.save
    this.working = actions.working
    this.artifact = actions.artifact
    this.requestInput = actions.requestInput
    this.requestAuth = actions.requestAuth
    this.receive = actions.receive
    this.tryReceive = actions.tryReceive
    this.complete = actions.complete
    this.fail = actions.fail
    this.reject = actions.reject
    this.reply = actions.reply
  }

  get task(): Task {
    return taskOf(this.#core.snapshot)
  }

  get history(): ReadonlyArray<Message> {
    return taskOf(this.#core.snapshot).history ?? []
  }

  get saved(): unknown {
    return this.#core.saved
  }
}
