import { Data } from "effect"
import type { Effect, Option } from "effect"
import type { Message, Task } from "../../schemas/index.ts"
import type { Principal } from "../auth/principal.ts"
import type { MessageInput, PartsInput } from "./messages.ts"

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const TaskActionRefusedBase: ReturnType<typeof Data.TaggedError<"TaskActionRefused">> = Data.TaggedError("TaskActionRefused")

/**
 * The task refused an agent action, e.g. `complete` after a cancel, `artifact` while waiting for input,
 * a chunk for a closed artifact, or `reply` after the task was created (`reason` is the machine's:
 * "terminal", "interrupted", "artifact-closed", "task-exists", ...). Reason "invalid-output": what the
 * action carried is not valid A2A 0.3.0 (a part of the wrong shape, empty parts, a file with both bytes
 * and uri, metadata or data that is not JSON such as a bigint, Date or function); `message` says where,
 * e.g. "artifact is not valid A2A: artifact.parts[0].text: Expected string".
 */
export class TaskActionRefused extends TaskActionRefusedBase<{
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
 * The names of a context's actions (the same on {@link TaskContext} and its async form): the runtime builds
 * them once per task and hands them to each run's context.
 *
 * @internal
 */
export type ContextActionName =
  "save" | "working" | "artifact" | "requestInput" | "requestAuth" | "receive" | "tryReceive" | "complete" | "fail" | "reject" | "reply"

/**
 * What an agent's `execute` receives: the task it works on and the actions that move it along.
 *
 * Every action is an event of the task's lifecycle machine; an action the machine does not accept fails
 * with {@link TaskActionRefused} and changes nothing. Messages may be given as text, part(s) or a Message.
 * What an action carries is checked once against the wire schemas and copied: text is always valid,
 * objects that are not valid A2A are refused (reason "invalid-output"), fields the schema does not know
 * are dropped, and changing an object after handing it over does not change the task.
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
  /**
   * The conversation this task belongs to. A context belongs to the principal that started it: a message
   * naming another principal's context starts its task in a fresh context instead, so `contextId` is a
   * safe key for conversation memory (for as long as the task store keeps the context; see its TTL).
   */
  readonly contextId: string
  /** The task as it stands now (a fresh snapshot on every read). */
  readonly task: Task
  /**
   * The user message that started this run of `execute`: the task's first message, the answer that woke a
   * task whose last run returned while waiting for input, or a message that arrived during the previous
   * run and was not taken with {@link TaskContext.receive}.
   */
  readonly message: Message
  /** This task's messages so far, oldest first (a fresh snapshot on every read); never another task's. */
  readonly history: ReadonlyArray<Message>
  /**
   * Whether this run continues a task that existed before it. False for the run that creates the task.
   * True for every later run: one started by an answer to a task waiting for input (its earlier run
   * returned, or ran on an instance that stopped or restarted, so what it held in memory is gone), by a
   * message the previous run did not take, or again from its last user message on another instance
   * (`retrySafe`). A resumed run has no memory of earlier ones: it finds what they did in `history`,
   * `task` and `saved`, and `message` is the user message it is for (for a task that waited for input:
   * the answer).
   *
   * @example
   * // An agent that asks, written so that the answer also works when it reaches another instance:
   * const answer = ctx.resumed ? ctx.message : yield* ctx.requestInput("What is your name?")
   */
  readonly resumed: boolean
  /**
   * What the agent saved for this task with {@link TaskContext.save}, on this run or an earlier one, on any
   * instance; undefined when nothing is saved.
   */
  readonly saved: unknown
  /**
   * Keeps `value` (JSON, at most 1 MiB) with the task in the store, for a later run of this task on any
   * instance ({@link TaskContext.saved}): what a resumed run needs that the history does not hold (a
   * workflow keeps its machine's snapshot). It stays on the server, never sent to clients, goes with the
   * task's next change (before anyone can see that change) and is dropped when the task ends. `undefined`
   * clears it. Fails with {@link TaskActionRefused} (reason "invalid-output") when the value is not JSON or
   * too large.
   */
  readonly save: (value: unknown) => Effect.Effect<void, TaskActionRefused>
  /** Extension URIs the client activated for the request that started this run. */
  readonly extensions: ReadonlyArray<string>
  /** Who sent the message; the task belongs to this principal. */
  readonly principal: Principal
  /** Moves the task to `working`, optionally with a progress message. */
  readonly working: (message?: MessageInput) => Effect.Effect<void, TaskActionRefused>
  /** Emits an artifact (or a chunk of one, with `append` / `lastChunk`). */
  readonly artifact: (parts: PartsInput, options?: ArtifactOptions) => Effect.Effect<void, TaskActionRefused>
  /**
   * Moves to `input-required` with the question and waits for the user's next message on this task. Fails
   * with {@link TaskActionRefused} (reason "limit") when the task's owner already has as many tasks waiting
   * for input as the runtime allows (`waitingTasks.perPrincipal`); unless the agent handles it, the task
   * then ends `failed` with that reason.
   */
  readonly requestInput: (message: MessageInput) => Effect.Effect<Message, TaskActionRefused>
  /** Moves to `auth-required` and waits for the user's next message on this task (bounded as `requestInput`). */
  readonly requestAuth: (message: MessageInput) => Effect.Effect<Message, TaskActionRefused>
  /**
   * Takes the next user message sent to this task while the agent works on it, waiting for one if none
   * is there yet; the task stays `working`. Messages are taken in the order they arrived. A message that
   * arrives while a `requestInput`/`requestAuth` waits answers that instead. Messages the agent does not
   * take are not lost: when a run returns with the task still `submitted` or `working`, `execute` runs
   * again with the first of them as `ctx.message` (before `onReturn` applies). Fails with
   * {@link TaskActionRefused} once the task has ended.
   */
  readonly receive: () => Effect.Effect<Message, TaskActionRefused>
  /** As {@link TaskContext.receive}, without waiting: the next waiting message, if any. */
  readonly tryReceive: () => Effect.Effect<Option.Option<Message>>
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
