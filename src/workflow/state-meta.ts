/**
 * The vocabulary a workflow machine uses to speak A2A: state `meta` says what a state means for the task,
 * emitted events carry the task's output. Machines write these as plain literals (they may not import
 * `src/`); this module names the shapes and reads them on the host side.
 *
 * @module
 */
import type { AnyMachineSnapshot } from "xstate"
import type { Part } from "../../schemas/index.ts"

/** Text for a message, fixed or computed from the machine's context (a pure function). */
export type TextOf<TContext = any> = string | ((context: TContext) => string)

/**
 * What a state means for the task, as `meta: { a2a: ... }` on the state node.
 *
 * - `input-required` / `auth-required`: the task waits for the user; `prompt` is the question. The user's
 *   reply (or an extension method call) becomes the machine's next event.
 * - `completed` / `rejected` / `failed` on a final state: how the task ends (a final state without meta
 *   completes the task), with an optional closing `message`.
 * - `working`: optional progress text shown when the state is entered.
 */
export type A2AStateMeta<TContext = any> =
  | { readonly a2a: "input-required" | "auth-required"; readonly prompt?: TextOf<TContext> }
  | { readonly a2a: "completed" | "rejected" | "failed"; readonly message?: TextOf<TContext> }
  | { readonly a2a: "working"; readonly status?: TextOf<TContext> }

/**
 * An artifact (chunk) the machine emits with XState's `emit`: `text`, `data` or `parts` as content.
 * Chunks of one artifact share an `artifactId`; `append` adds to it, `lastChunk` closes it.
 */
export interface A2AArtifactEmitted {
  readonly type: "a2a.artifact"
  readonly artifactId?: string
  readonly name?: string
  readonly text?: string
  readonly data?: Record<string, unknown>
  readonly parts?: ReadonlyArray<Part>
  readonly append?: boolean
  readonly lastChunk?: boolean
}

/** A progress message the machine emits: the task stays `working` with this status message. */
export interface A2AStatusEmitted {
  readonly type: "a2a.status"
  readonly text: string
}

/** Everything a machine may emit for the task; other emitted events are ignored by the bridge. */
export type A2AEmitted = A2AArtifactEmitted | A2AStatusEmitted

/** How the task should react to the machine's current snapshot. */
export type StateAction =
  | { readonly _tag: "Wait"; readonly kind: "input-required" | "auth-required"; readonly prompt: string | undefined }
  | { readonly _tag: "Finish"; readonly state: "completed" | "rejected" | "failed"; readonly message: string | undefined }
  | { readonly _tag: "Crashed"; readonly message: string }
  | { readonly _tag: "Run"; readonly status: string | undefined }

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

const textOf = (text: unknown, context: unknown): string | undefined =>
  typeof text === "string" ? text : typeof text === "function" ? String(text(context)) : undefined

/** The A2A meta of the snapshot's active states, deepest last (a child state overrides its parent). */
const a2aMetas = (snapshot: AnyMachineSnapshot): ReadonlyArray<Record<string, unknown>> =>
  Object.values(snapshot.getMeta()).filter((meta): meta is Record<string, unknown> =>
    isRecord(meta) && typeof meta["a2a"] === "string"
  )

/**
 * Reads what the task must do for a snapshot: wait for the user, finish, report a crashed machine, or keep
 * running (the machine is busy with invoked actors or waits for them).
 */
export const stateAction = (snapshot: AnyMachineSnapshot): StateAction => {
  if (snapshot.status === "error") {
    const error = snapshot.error
    return { _tag: "Crashed", message: `Workflow error: ${error instanceof Error ? error.message : String(error)}` }
  }
  const meta = a2aMetas(snapshot).at(-1)
  const kind = meta?.["a2a"]
  if (snapshot.status === "done") {
    const state = kind === "rejected" || kind === "failed" ? kind : "completed"
    return { _tag: "Finish", state, message: textOf(meta?.["message"], snapshot.context) }
  }
  if (kind === "input-required" || kind === "auth-required") {
    return { _tag: "Wait", kind, prompt: textOf(meta?.["prompt"], snapshot.context) }
  }
  return { _tag: "Run", status: kind === "working" ? textOf(meta?.["status"], snapshot.context) : undefined }
}

/** Narrows an emitted event to the A2A vocabulary. */
export const isA2AEmitted = (event: { readonly type: string }): event is A2AEmitted => {
  const e = event as Partial<Record<string, unknown>>
  if (event.type === "a2a.status") return typeof e["text"] === "string"
  if (event.type !== "a2a.artifact") return false
  return typeof e["text"] === "string" || isRecord(e["data"]) || (Array.isArray(e["parts"]) && e["parts"].length > 0)
}

/** The parts of an emitted artifact: `parts`, else `text` and/or `data`. */
export const artifactParts = (event: A2AArtifactEmitted): ReadonlyArray<Part> => {
  if (event.parts !== undefined) return event.parts
  const parts: Array<Part> = []
  if (event.text !== undefined) parts.push({ kind: "text", text: event.text })
  if (event.data !== undefined) parts.push({ kind: "data", data: event.data })
  return parts
}
