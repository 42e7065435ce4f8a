import { Schema } from "effect"
import { JsonObject, JsonUnknown, optional } from "../internal/common.ts"

const contents = ["text", "raw", "url", "data"] as const

/** How many of the content members (`text`, `raw`, `url`, `data`) a part holds; `data: null` counts (NullValue). */
export const partContents = (part: object): number => {
  let n = 0
  for (const key of contents) if (Object.hasOwn(part, key)) n++
  return n
}

/**
 * `lf.a2a.v1.Part`: exactly one of `text`, `raw` (base64 bytes), `url` and `data` (any JSON value), with
 * optional `metadata`, `filename` and `mediaType` on every kind of part. No part without content, none with two.
 */
export const Part: Schema.Struct<{
  readonly text: Schema.optionalKey<Schema.String>
  readonly raw: Schema.optionalKey<Schema.String>
  readonly url: Schema.optionalKey<Schema.String>
  readonly data: Schema.optionalKey<Schema.Unknown>
  readonly metadata: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly filename: Schema.optionalKey<Schema.String>
  readonly mediaType: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  text: optional(Schema.String),
  raw: optional(Schema.String),
  url: optional(Schema.String),
  data: optional(JsonUnknown),
  metadata: optional(JsonObject),
  filename: optional(Schema.String),
  mediaType: optional(Schema.String)
}).check(Schema.makeFilter((part) => {
  const n = partContents(part)
  return n === 1 ? undefined : n === 0
    ? "a part needs one of text, raw, url or data"
    : "a part holds exactly one of text, raw, url and data"
})).annotate({ identifier: "Part" })
/** @see Part */
export type Part = Schema.Schema.Type<typeof Part>
