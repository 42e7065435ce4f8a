import { Schema } from "effect"
import { Identifier, MAX_REFERENCE_TASK_IDS, metadataField, optional } from "./internal/common.ts"
import { Part } from "./parts.ts"

/**
 * One turn of communication between a user and an agent. `parts` must hold at least one part: CONFORMANCE.md
 * makes an empty `parts` an invalid-params error, which upstream's schema does not; its ids are at most 256
 * characters long, and it references at most 64 tasks (all stricter than upstream).
 */
export const Message: Schema.Struct<{
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly kind: Schema.Literal<"message">
  readonly messageId: Schema.String
  readonly role: Schema.Literals<readonly ["agent", "user"]>
  readonly parts: Schema.$Array<typeof Part>
  readonly taskId: Schema.optionalKey<Schema.String>
  readonly contextId: Schema.optionalKey<Schema.String>
  readonly referenceTaskIds: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly extensions: Schema.optionalKey<Schema.$Array<Schema.String>>
}> = Schema.Struct({
  kind: Schema.Literal("message"),
  messageId: Identifier,
  role: Schema.Literals(["agent", "user"]),
  parts: Schema.Array(Part).check(Schema.isMinLength(1)),
  taskId: optional(Identifier),
  contextId: optional(Identifier),
  referenceTaskIds: optional(Schema.Array(Identifier).check(Schema.isMaxLength(MAX_REFERENCE_TASK_IDS, {
    message: `a message may reference at most ${MAX_REFERENCE_TASK_IDS} tasks`
  }))),
  extensions: optional(Schema.Array(Schema.String)),
  ...metadataField
}).annotate({ identifier: "Message" })
/** @see Message */
export type Message = Schema.Schema.Type<typeof Message>
