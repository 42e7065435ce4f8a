import type { Effect } from "effect"
import type { AgentCard } from "../../schemas/index.ts"
import { completeCard } from "./agent-card-input.ts"
import type { AgentCardInput } from "./agent-card-input.ts"
import { fromAsync } from "./async-agent.ts"
import type { TaskContext } from "./task-context.ts"

export { completeCard } from "./agent-card-input.ts"
export type { AgentCardInput } from "./agent-card-input.ts"

/**
 * An agent: its card and what it does for each task.
 *
 * `execute` runs in its own fiber, once per task (and once more per user message that reaches a task whose
 * previous run already returned). Its outcome decides the task's end when the agent did not:
 * - failure or defect: `failed`, with an agent message explaining (the error's message, never a stack);
 * - returning while `submitted`/`working`: by {@link OnReturn} (default `"complete"`: `completed`, so a
 *   forgotten `complete()` never leaves a task open forever);
 * - returning while `input-required`/`auth-required`: the task keeps waiting; the next user message
 *   starts a new run with that message as `ctx.message`.
 *
 * A user message that reaches the task while a run is going answers a pending `requestInput`, or waits
 * for the agent in `ctx.receive()`; if the run returns with the task still `submitted`/`working` and such
 * a message not taken, `execute` runs again with it as `ctx.message` (before `onReturn` is considered).
 */
export interface Agent {
  readonly card: AgentCard
  readonly execute: (ctx: TaskContext) => Effect.Effect<void, unknown>
  /** Absent means `"complete"`. */
  readonly onReturn?: OnReturn
  /**
   * Whether `execute` may run again from the start for a task whose instance stopped mid-run (on a store
   * shared by several instances): then another instance runs it again with the task's last user message.
   * Default false: such a task ends `failed` with a message saying why.
   */
  readonly retrySafe?: boolean
}

/**
 * What happens to a `submitted`/`working` task when a run of `execute` returns and no message sent during
 * the run waits for the agent (one that does starts the next run). `"complete"` (default) ends it `completed`. `"keep"` leaves it as it is, turn by turn (the official SDKs' model): a blocking send
 * answers once the run has returned, and the next user message on the task runs `execute` again.
 */
export type OnReturn = "complete" | "keep"

/** Options of {@link Agent.make}. */
export interface AgentOptions {
  readonly card: AgentCardInput
  readonly execute: (ctx: TaskContext) => Effect.Effect<void, unknown>
  /** See {@link OnReturn}; default `"complete"`. */
  readonly onReturn?: OnReturn
  /**
   * Whether `execute` may run again from the start for a task whose instance stopped mid-run (on a store
   * shared by several instances): then another instance runs it again with the task's last user message.
   * Default false: such a task ends `failed` with a message saying why.
   */
  readonly retrySafe?: boolean
}

/** Builds agents, with Effect (`make`) or with async functions (`fromAsync`). */
export const Agent = {
  /**
   * An agent written with Effect.
   *
   * @example
   * const echo = Agent.make({
   *   card,
   *   execute: (ctx) => ctx.complete(`You said: ${messageText(ctx.message)}`)
   * })
   */
  make: (options: AgentOptions): Agent => ({
    card: completeCard(options.card),
    execute: options.execute,
    onReturn: options.onReturn ?? "complete",
    ...(options.retrySafe === undefined ? {} : { retrySafe: options.retrySafe })
  }),
  /**
   * An agent written with async functions: the same context with Promise-returning methods and an
   * `AbortSignal` (`ctx.signal`) that fires when the task is canceled.
   */
  fromAsync
} as const
