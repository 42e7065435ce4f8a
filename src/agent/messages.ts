import type { Message, Part } from "../../schemas/index.ts"
import { freshId } from "./fresh-id.ts"

/**
 * What agents may pass where a message is expected: plain text, one part, several parts, or a whole
 * Message (kept as given, except that the task's ids are filled in when absent).
 */
export type MessageInput = string | Part | ReadonlyArray<Part> | Message

/** What agents may pass where artifact content is expected: text, one part or several. */
export type PartsInput = string | Part | ReadonlyArray<Part>

/** A text part. */
export const textPart = (text: string): Part => ({ kind: "text", text })

/**
 * A Message with one text part and a fresh `messageId`.
 *
 * @example
 * textMessage("Which city?")                 // agent message
 * textMessage("Paris", "user")               // user message, e.g. in tests
 */
export const textMessage = (text: string, role: Message["role"] = "agent"): Message => ({
  kind: "message",
  messageId: freshId(),
  role,
  parts: [textPart(text)]
})

const isMessage = (input: MessageInput): input is Message =>
  typeof input === "object" && !Array.isArray(input) && (input as { kind?: unknown }).kind === "message"

/** Normalises parts input to an array of parts. */
export const toParts = (input: PartsInput): ReadonlyArray<Part> =>
  typeof input === "string" ? [textPart(input)] : Array.isArray(input) ? input : [input as Part]

/**
 * Turns agent input into an agent Message of the given task: strings and parts get a fresh `messageId`
 * and role `agent`; a Message keeps its fields and gets the task's ids when it has none.
 */
export const toAgentMessage = (input: MessageInput, ids: { readonly taskId: string; readonly contextId: string }): Message => {
  if (isMessage(input)) {
    return {
      ...input,
      taskId: input.taskId ?? ids.taskId,
      contextId: input.contextId ?? ids.contextId
    }
  }
  return {
    kind: "message",
    messageId: freshId(),
    role: "agent",
    parts: toParts(input as PartsInput),
    taskId: ids.taskId,
    contextId: ids.contextId
  }
}

/** The text of a message's text parts, joined by newlines (handy in agents and tests). */
export const messageText = (message: Message): string =>
  message.parts.flatMap((p) => (p.kind === "text" ? [p.text] : [])).join("\n")
