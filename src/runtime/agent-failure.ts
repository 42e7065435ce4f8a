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
 * The text of the agent message that explains why a task failed because its agent did: the error's
 * message, never its stack.
 */
export const agentFailureText = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return `The agent failed: ${clean(describe(failure.value))}`
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) return `The agent crashed: ${clean(describe(defect.value))}`
  return "The agent was interrupted before finishing the task."
}
