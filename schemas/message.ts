import { Schema } from "effect"
import { metadataField, optional } from "./internal/common.ts"
import { Part } from "./parts.ts"

/**
 * One turn of communication between a user and an agent. `parts` must hold at least one part: CONFORMANCE.md
 * makes an empty `parts` an invalid-params error, which upstream's schema does not (stricter than upstream).
 */
export const Message = Schema.Struct({
  kind: Schema.Literal("message"),
  messageId: Schema.String,
  role: Schema.Literal("agent", "user"),
  parts: Schema.Array(Part).pipe(Schema.minItems(1)),
  taskId: optional(Schema.String),
  contextId: optional(Schema.String),
  referenceTaskIds: optional(Schema.Array(Schema.String)),
  extensions: optional(Schema.Array(Schema.String)),
  ...metadataField
}).annotations({ identifier: "Message" })
/** @see Message */
export type Message = Schema.Schema.Type<typeof Message>
