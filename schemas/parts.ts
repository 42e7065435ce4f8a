import { Schema } from "effect"
import { exclusive, JsonObject, metadataField, optional } from "./internal/common.ts"

/** Fields every part carries. */
export const PartBase: Schema.Struct<{ readonly metadata: Schema.optionalKey<typeof JsonObject> }> = Schema.Struct({ ...metadataField }).annotate({ identifier: "PartBase" })
/** @see PartBase */
export type PartBase = Schema.Schema.Type<typeof PartBase>

/**
 * What A2A 1.0 says of every part and 0.3 only of files: its media type and file name. Optional members
 * beside 0.3's own, which the pinned 0.3 schema allows (its objects admit other members), so a part written
 * over 1.0 keeps them when a 0.3 reader reads it and hands it back.
 */
const partFields: {
  readonly mediaType: Schema.optionalKey<Schema.String>
  readonly filename: Schema.optionalKey<Schema.String>
} = {
  mediaType: optional(Schema.String),
  filename: optional(Schema.String)
}

/** A piece of text; `mediaType` (e.g. `text/markdown`) and `filename` are 1.0's, optional. */
export const TextPart: Schema.Struct<{
  readonly metadata: Schema.optionalKey<typeof JsonObject>
  readonly kind: Schema.Literal<"text">
  readonly text: Schema.String
  readonly mediaType: Schema.optionalKey<Schema.String>
  readonly filename: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  kind: Schema.Literal("text"),
  text: Schema.String,
  ...partFields,
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

/**
 * Structured JSON data: an object, as 0.3 requires. A 1.0 data part may hold any JSON value; one that is not
 * an object is kept as `{ value }` with `metadata.data_part_compat: true` (the official SDKs' representation,
 * see `dataPartValue`), which every 0.3 reader accepts and the 1.0 codec unwraps.
 */
export const DataPart: Schema.Struct<{
  readonly metadata: Schema.optionalKey<typeof JsonObject>
  readonly kind: Schema.Literal<"data">
  readonly data: typeof JsonObject
  readonly mediaType: Schema.optionalKey<Schema.String>
  readonly filename: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  kind: Schema.Literal("data"),
  data: JsonObject,
  ...partFields,
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

/** The metadata key that marks a data part's `{ value }` as a wrapped non-object value (the official SDKs' name). */
export const dataPartCompatKey = "data_part_compat"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A data part holding any JSON value: an object as it is, anything else (array, string, number, boolean,
 * null) as `{ value }` marked with `metadata.data_part_compat: true`.
 *
 * @example
 * dataPart([1, 2]) // { kind: "data", data: { value: [1, 2] }, metadata: { data_part_compat: true } }
 */
export const dataPart = (value: unknown, metadata?: Record<string, unknown>): DataPart =>
  isObject(value)
    ? (metadata === undefined ? { kind: "data", data: value } : { kind: "data", data: value, metadata })
    : { kind: "data", data: { value }, metadata: { ...metadata, [dataPartCompatKey]: true } }

/** Whether a data part holds a wrapped non-object value (see {@link dataPart}). */
export const isWrappedDataPart = (part: DataPart): boolean =>
  part.metadata?.[dataPartCompatKey] === true && Object.hasOwn(part.data, "value")

/** The JSON value a data part holds: the wrapped value of a marked part, else its object. */
export const dataPartValue = (part: DataPart): unknown => (isWrappedDataPart(part) ? part.data["value"] : part.data)
