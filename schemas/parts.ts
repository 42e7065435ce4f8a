import { Schema } from "effect"
import { exclusive, JsonObject, metadataField, optional } from "./internal/common.ts"

/** Fields every part carries. */
export const PartBase = Schema.Struct({ ...metadataField }).annotate({ identifier: "PartBase" })
/** @see PartBase */
export type PartBase = Schema.Schema.Type<typeof PartBase>

/** A piece of text. */
export const TextPart = Schema.Struct({
  kind: Schema.Literal("text"),
  text: Schema.String,
  ...metadataField
}).annotate({ identifier: "TextPart" })
/** @see TextPart */
export type TextPart = Schema.Schema.Type<typeof TextPart>

/** Fields shared by both file forms. */
export const FileBase = Schema.Struct({
  mimeType: optional(Schema.String),
  name: optional(Schema.String)
}).annotate({ identifier: "FileBase" })
/** @see FileBase */
export type FileBase = Schema.Schema.Type<typeof FileBase>

/**
 * File content inline, base64-encoded. `uri` must be absent: the upstream types make bytes and uri exclusive,
 * the upstream JSON Schema does not (our schema is stricter there).
 */
export const FileWithBytes = exclusive({ ...FileBase.fields, bytes: Schema.String }, ["uri"]).annotate({
  identifier: "FileWithBytes"
})
/** @see FileWithBytes */
export type FileWithBytes = Schema.Schema.Type<typeof FileWithBytes>

/** File content by reference. `bytes` must be absent (see FileWithBytes). */
export const FileWithUri = exclusive({ ...FileBase.fields, uri: Schema.String }, ["bytes"]).annotate({
  identifier: "FileWithUri"
})
/** @see FileWithUri */
export type FileWithUri = Schema.Schema.Type<typeof FileWithUri>

/** A file, inline or by URI: exactly one of `bytes` and `uri`. */
export const FilePart = Schema.Struct({
  kind: Schema.Literal("file"),
  file: Schema.Union([FileWithBytes, FileWithUri]),
  ...metadataField
}).annotate({ identifier: "FilePart" })
/** @see FilePart */
export type FilePart = Schema.Schema.Type<typeof FilePart>

/** Structured JSON data. */
export const DataPart = Schema.Struct({
  kind: Schema.Literal("data"),
  data: JsonObject,
  ...metadataField
}).annotate({ identifier: "DataPart" })
/** @see DataPart */
export type DataPart = Schema.Schema.Type<typeof DataPart>

/**
 * A message or artifact part: exactly one of the three kinds, told apart by `kind`. A part without `kind`, or
 * with another one, is refused (the pinned schema requires it, and the official TCK checks that it is).
 */
export const Part = Schema.Union([TextPart, FilePart, DataPart]).annotate({ identifier: "Part" })
/** @see Part */
export type Part = Schema.Schema.Type<typeof Part>
