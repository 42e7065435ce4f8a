import { Data } from "effect"
import type { Effect } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import type { Principal } from "../auth/principal.ts"
import type { MessageInput, PartsInput } from "./messages.ts"

/**
 * The task refused an agent action, e.g. `complete` after a cancel, `artifact` while waiting for input,
 * a chunk for a closed artifact, or `reply` after the task was created. `reason` is the machine's.
 */
export class TaskActionRefused extends Data.TaggedError("TaskActionRefused")<{
  readonly action: string
  /** The task state when the action was refused ("pending" before the task exists). */
  readonly state: string
  readonly reason: string
  readonly message: string
}> {}

/** Options of {@link TaskContext.artifact}. */
export interface ArtifactOptions {
  /** Defaults to a fresh id per call; pass the same id to stream chunks of one artifact. */
  readonly artifactId?: string
  readonly name?: string
  readonly description?: string
  /** Add the parts to the artifact with this id instead of replacing it. */
  readonly append?: boolean
  /** This chunk closes the artifact. */
  readonly lastChunk?: boolean
  readonly metadata?: Record<string, unknown>
}

/**
 * What an agent's `execute` receives: the task it works on and the actions that move it along.
 *
 * Every action is an event of the task's lifecycle machine; an action the machine does not accept fails
 * with {@link TaskActionRefused} and changes nothing. Messages may be given as text, part(s) or a Message.
 *
 * @example
 * const execute = (ctx: TaskContext) => Effect.gen(function*() {
 *   yield* ctx.working("Looking it up")
 *   const answer = yield* ctx.requestInput("Which city?")
 *   yield* ctx.artifact(`Weather in ${messageText(answer)}: sunny`)
 *   yield* ctx.complete()
 * })
 */
export interface TaskContext {
  readonly taskId: string
  readonly contextId: string
  /** The task as it stands now (a fresh snapshot on every read). */
  readonly task: Task
  /** The user message that started this run of `execute`. */
  readonly message: Message
  /** The task's messages so far, oldest first (a fresh snapshot on every read). */
  readonly history: ReadonlyArray<Message>
  /** Extension URIs the client activated for the request that started this run. */
  readonly extensions: ReadonlyArray<string>
  /** Who sent the message; the task belongs to this principal. */
  readonly principal: Principal
  /** Moves the task to `working`, optionally with a progress message. */
  readonly working: (message?: MessageInput) => Effect.Effect<void, TaskActionRefused>
  /** Emits an artifact (or a chunk of one, with `append` / `lastChunk`). */
  readonly artifact: (parts: PartsInput, options?: ArtifactOptions) => Effect.Effect<void, TaskActionRefused>
  /** Moves to `input-required` with the question and waits for the user's next message on this task. */
  readonly requestInput: (message: MessageInput) => Effect.Effect<Message, TaskActionRefused>
  /** Moves to `auth-required` and waits for the user's next message on this task. */
  readonly requestAuth: (message: MessageInput) => Effect.Effect<Message, TaskActionRefused>
  /** Ends the task `completed`. */
  readonly complete: (message?: MessageInput) => Effect.Effect<void, TaskActionRefused>
  /** Ends the task `failed`. */
  readonly fail: (message?: MessageInput) => Effect.Effect<void, TaskActionRefused>
  /** Ends the task `rejected`: the agent will not do it. */
  readonly reject: (message?: MessageInput) => Effect.Effect<void, TaskActionRefused>
  /**
   * Answers with a single Message and no task. Only valid as the first action of a new task: the client
   * then receives the Message and no task is ever created.
   */
  readonly reply: (message: MessageInput) => Effect.Effect<void, TaskActionRefused>
}
