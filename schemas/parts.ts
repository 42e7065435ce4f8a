import { Schema } from "effect"
import { exclusive, JsonObject, metadataField, optional } from "./internal/common.ts"

/** Fields every part carries. */
export const PartBase: Schema.Struct<{ readonly metadata: Schema.optionalKey<typeof JsonObject> }> = Schema.Struct({ ...metadataField }).annotate({ identifier: "PartBase" })
/** @see PartBase */
export type PartBase = Schema.Schema.Type<typeof PartBase>

/** A piece of text. */
export const TextPart: Schema.Struct<{
  readonly metadata: Schema.optionalKey<typeof JsonObject>
  readonly kind: Schema.Literal<"text">
  readonly text: Schema.String
}> = Schema.Struct({
  kind: Schema.Literal("text"),
  text: Schema.String,
  ...metadataField
}).annotate({ identifier: "TextPart" })
/** @see TextPart */
export type TextPart = Schema.Schema.Type<typeof TextPart>

/** Fields shared by both file forms. */
export const FileBase: Schema.Struct<{
  readonly mimeType: Schema.optionalKey<Schema.String>
  readonly name: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  mimeType: optional(Schema.String),
  name: optional(Schema.String)
}).annotate({ identifier: "FileBase" })
/** @see FileBase */
export type FileBase = Schema.Schema.Type<typeof FileBase>

/**
 * File content inline, base64-encoded. `uri` must be absent: the upstream types make bytes and uri exclusive,
 * the upstream JSON Schema does not (our schema is stricter there).
 */
export const FileWithBytes: Schema.Struct<
  {
    bytes: Schema.String
    mimeType: Schema.optionalKey<Schema.String>
    name: Schema.optionalKey<Schema.String>
  } & { readonly uri: Schema.optionalKey<Schema.Never> }
> = exclusive({ ...FileBase.fields, bytes: Schema.String }, ["uri"]).annotate({
  identifier: "FileWithBytes"
})
/** @see FileWithBytes */
export type FileWithBytes = Schema.Schema.Type<typeof FileWithBytes>

/** File content by reference. `bytes` must be absent (see FileWithBytes). */
export const FileWithUri: Schema.Struct<
  {
    uri: Schema.String
    mimeType: Schema.optionalKey<Schema.String>
    name: Schema.optionalKey<Schema.String>
  } & { readonly bytes: Schema.optionalKey<Schema.Never> }
> = exclusive({ ...FileBase.fields, uri: Schema.String }, ["bytes"]).annotate({
  identifier: "FileWithUri"
})
/** @see FileWithUri */
export type FileWithUri = Schema.Schema.Type<typeof FileWithUri>

/** A file, inline or by URI: exactly one of `bytes` and `uri`. */
export const FilePart: Schema.Struct<{
  readonly metadata: Schema.optionalKey<typeof JsonObject>
  readonly kind: Schema.Literal<"file">
  readonly file: Schema.Union<readonly [typeof FileWithBytes, typeof FileWithUri]>
}> = Schema.Struct({
  kind: Schema.Literal("file"),
  file: Schema.Union([FileWithBytes, FileWithUri]),
  ...metadataField
}).annotate({ identifier: "FilePart" })
/** @see FilePart */
export type FilePart = Schema.Schema.Type<typeof FilePart>

/** Structured JSON data. */
export const DataPart: Schema.Struct<{
  readonly metadata: Schema.optionalKey<typeof JsonObject>
  readonly kind: Schema.Literal<"data">
  readonly data: typeof JsonObject
}> = Schema.Struct({
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
export const Part: Schema.Union<readonly [typeof TextPart, typeof FilePart, typeof DataPart]> = Schema.Union([TextPart, FilePart, DataPart]).annotate({ identifier: "Part" })
/** @see Part */
export type Part = Schema.Schema.Type<typeof Part>
