import { Cause, Option } from "effect"

const maxLength = 300

const describe = (u: unknown): string => {
  if (typeof u === "string") return u
  if (u instanceof Error) return u.message
  if (typeof u === "object" && u !== null) {
    const { _tag, message } = u as { _tag?: unknown; message?: unknown }
    if (typeof message === "string" && message !== "") return message
    if (typeof _tag === "string") return _tag
  }
  return "unknown error"
}

/** Only the first line, bounded: error messages may embed stacks or dumps that must not reach clients. */
const clean = (text: string): string => {
  const line = text.split("\n", 1)[0]?.trim() ?? ""
  return line.length > maxLength ? `${line.slice(0, maxLength)}...` : line
}

/**
 * The text of the agent message that explains why a task failed because its agent did: the message of
 * the error the agent failed with, never its stack. A defect (a bug: a thrown exception, `Effect.die`)
 * is not described at all, since its text may carry internals; the server log has it.
 */
export const agentFailureText = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.findErrorOption(cause)
  if (Option.isSome(failure)) return `The agent failed: ${clean(describe(failure.value))}`
  if (Cause.hasDies(cause)) return "The agent crashed; the details are in the server log."
  return "The agent was interrupted before finishing the task."
}
