import { Schema } from "effect"
import { Identifier, JsonObject, optional } from "../internal/common.ts"
import { Role } from "./enums.ts"
import { Part } from "./parts.ts"

/** A role that names a sender: `ROLE_UNSPECIFIED` is not one. */
export const SenderRole: typeof Role = Role.check(Schema.makeFilter((r) => r !== "ROLE_UNSPECIFIED" || "role must be ROLE_USER or ROLE_AGENT"))

/**
 * `lf.a2a.v1.Message`. `parts` must hold at least one part (REQUIRED arrays are non-empty, spec §5.7); ids are at
 * most 256 characters long, as on the 0.3 path (stricter than upstream).
 */
export const Message: Schema.Struct<{
  readonly messageId: Schema.String
  readonly contextId: Schema.optionalKey<Schema.String>
  readonly taskId: Schema.optionalKey<Schema.String>
  readonly role: typeof SenderRole
  readonly parts: Schema.$Array<typeof Part>
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly extensions: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly referenceTaskIds: Schema.optionalKey<Schema.$Array<Schema.String>>
}> = Schema.Struct({
  messageId: Identifier,
  contextId: optional(Identifier),
  taskId: optional(Identifier),
  role: SenderRole,
  parts: Schema.Array(Part).check(Schema.isMinLength(1)),
  metadata: optional(JsonObject),
  extensions: optional(Schema.Array(Schema.String)),
  referenceTaskIds: optional(Schema.Array(Identifier))
}).annotate({ identifier: "Message" })
/** @see Message */
export type Message = Schema.Schema.Type<typeof Message>
