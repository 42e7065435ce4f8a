import { Cause, Effect, Exit, Option } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import type { Principal } from "../auth/principal.ts"
import type { Agent, OnReturn } from "./agent.ts"
import type { AgentCardInput } from "./agent-card-input.ts"
import { completeCard } from "./agent-card-input.ts"
import type { MessageInput, PartsInput } from "./messages.ts"
import type { ArtifactOptions, TaskContext } from "./task-context.ts"

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

const toAsync = (ctx: TaskContext, signal: AbortSignal): AsyncTaskContext => {
  // Each call runs in its own fiber tied to `signal`, so a cancel also ends a pending requestInput.
  const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> =>
    Effect.runPromiseExit(effect, { signal }).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      throw Cause.squash(exit.cause)
    })
  return {
    taskId: ctx.taskId,
    contextId: ctx.contextId,
    get task() {
      return ctx.task
    },
    message: ctx.message,
    get history() {
      return ctx.history
    },
    resumed: ctx.resumed,
    get saved() {
      return ctx.saved
    },
    save: (value) => run(ctx.save(value)),
    extensions: ctx.extensions,
    principal: ctx.principal,
    signal,
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

/** An agent from an async `execute` (see `Agent.fromAsync`). */
export const fromAsync = (options: AsyncAgentOptions): Agent => ({
  card: completeCard(options.card),
  onReturn: options.onReturn ?? "complete",
  ...(options.retrySafe === undefined ? {} : { retrySafe: options.retrySafe }),
  execute: (ctx) =>
    Effect.tryPromise({
      try: (signal) => options.execute(toAsync(ctx, signal)),
      catch: (error) => error
    })
})
