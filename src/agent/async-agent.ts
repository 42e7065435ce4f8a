import { Cause, Effect, Exit, Option } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import type { Principal } from "../auth/principal.ts"
import type { Agent, OnReturn } from "./agent.ts"
import type { AgentCardInput } from "./agent-card-input.ts"
import { completeCard } from "./agent-card-input.ts"
import type { MessageInput, PartsInput } from "./messages.ts"
import type { ArtifactOptions, ContextActionName, TaskContext } from "./task-context.ts"

/**
 * {@link TaskContext} for agents written with async functions. Refused actions reject with the
 * `TaskActionRefused` error; `signal` aborts when the task is canceled (pass it to fetch and friends).
 */
export interface AsyncTaskContext {
  readonly taskId: string
  readonly contextId: string
  readonly task: Task
  readonly message: Message
  readonly history: ReadonlyArray<Message>
  /** Whether this run continues a task that existed before it (see `TaskContext.resumed`). */
  readonly resumed: boolean
  /** What the agent saved for this task (see `TaskContext.saved`). */
  readonly saved: unknown
  /** Keeps a JSON value with the task for a later run on any instance (see `TaskContext.save`). */
  readonly save: (value: unknown) => Promise<void>
  readonly extensions: ReadonlyArray<string>
  readonly principal: Principal
  /** Aborted when the task is canceled or the runtime shuts down. */
  readonly signal: AbortSignal
  readonly working: (message?: MessageInput) => Promise<void>
  readonly artifact: (parts: PartsInput, options?: ArtifactOptions) => Promise<void>
  readonly requestInput: (message: MessageInput) => Promise<Message>
  readonly requestAuth: (message: MessageInput) => Promise<Message>
  /** The next user message sent to the task while the agent works on it (see `TaskContext.receive`). */
  readonly receive: () => Promise<Message>
  /** The next waiting user message, or undefined when none waits (see `TaskContext.tryReceive`). */
  readonly tryReceive: () => Message | undefined
  readonly complete: (message?: MessageInput) => Promise<void>
  readonly fail: (message?: MessageInput) => Promise<void>
  readonly reject: (message?: MessageInput) => Promise<void>
  readonly reply: (message: MessageInput) => Promise<void>
}

/** Options of `Agent.fromAsync`. */
export interface AsyncAgentOptions {
  readonly card: AgentCardInput
  readonly execute: (ctx: AsyncTaskContext) => Promise<void>
  /** See `OnReturn`; default `"complete"`. */
  readonly onReturn?: OnReturn
  /**
   * Whether `execute` may run again from the start for a task whose instance stopped mid-run (on a store
   * shared by several instances): then another instance runs it again with the task's last user message.
   * Default false: such a task ends `failed` with a message saying why.
   */
  readonly retrySafe?: boolean
}

/** The actions of an async context. */
type AsyncActions = Pick<AsyncTaskContext, ContextActionName>

/**
 * The async context's actions, made here and not in its constructor: closures a constructor makes and
 * stores on the new object kept each context, and the task behind it, alive through young collections.
 */
const asyncActions = (ctx: TaskContext, signal: AbortSignal): AsyncActions => {
  // Each call runs in its own fiber tied to `signal`, so a cancel also ends a pending requestInput.
  const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> =>
    Effect.runPromiseExit(effect, { signal }).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      throw Cause.squash(exit.cause)
    })
  return {
    save: (value) => run(ctx.save(value)),
    working: (m) => run(ctx.working(m)),
    artifact: (parts, options) => run(ctx.artifact(parts, options)),
    requestInput: (m) => run(ctx.requestInput(m)),
    requestAuth: (m) => run(ctx.requestAuth(m)),
    receive: () => run(ctx.receive()),
    tryReceive: () => Option.getOrUndefined(Effect.runSync(ctx.tryReceive())),
    complete: (m) => run(ctx.complete(m)),
    fail: (m) => run(ctx.fail(m)),
    reject: (m) => run(ctx.reject(m)),
    reply: (m) => run(ctx.reply(m))
  }
}

/**
 * The async context of a run. `task`, `history` and `saved` are read from the run's context when asked
 * for, by getters on the prototype (getters in an object literal would give each context a hidden class of
 * its own, kept in the old generation, which keeps the run alive through young collections).
 */
class AsyncRunContext implements AsyncTaskContext {
  readonly #ctx: TaskContext
  readonly taskId: string
  readonly contextId: string
  readonly message: Message
  readonly resumed: boolean
  readonly extensions: ReadonlyArray<string>
  readonly principal: Principal
  readonly signal: AbortSignal
  readonly save: AsyncTaskContext["save"]
  readonly working: AsyncTaskContext["working"]
  readonly artifact: AsyncTaskContext["artifact"]
  readonly requestInput: AsyncTaskContext["requestInput"]
  readonly requestAuth: AsyncTaskContext["requestAuth"]
  readonly receive: AsyncTaskContext["receive"]
  readonly tryReceive: AsyncTaskContext["tryReceive"]
  readonly complete: AsyncTaskContext["complete"]
  readonly fail: AsyncTaskContext["fail"]
  readonly reject: AsyncTaskContext["reject"]
  readonly reply: AsyncTaskContext["reply"]

  constructor(ctx: TaskContext, signal: AbortSignal, actions: AsyncActions) {
    this.#ctx = ctx
    this.taskId = ctx.taskId
    this.contextId = ctx.contextId
    this.message = ctx.message
    this.resumed = ctx.resumed
    this.extensions = ctx.extensions
    this.principal = ctx.principal
    this.signal = signal
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
    return this.#ctx.task
  }

  get history(): ReadonlyArray<Message> {
    return this.#ctx.history
  }

  get saved(): unknown {
    return this.#ctx.saved
  }
}

/** An agent from an async `execute` (see `Agent.fromAsync`). */
export const fromAsync = (options: AsyncAgentOptions): Agent => ({
  card: completeCard(options.card),
  onReturn: options.onReturn ?? "complete",
  ...(options.retrySafe === undefined ? {} : { retrySafe: options.retrySafe }),
  execute: (ctx) =>
    Effect.tryPromise({
      try: (signal) => options.execute(new AsyncRunContext(ctx, signal, asyncActions(ctx, signal))),
      catch: (error) => error
    })
})
