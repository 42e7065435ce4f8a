import { Schema } from "effect"
import { absent, exclusive, JsonObject, metadataField, optional } from "./internal/common.ts"

/** Fields every part carries. */
export const PartBase = Schema.Struct({ ...metadataField }).annotations({ identifier: "PartBase" })
/** @see PartBase */
export type PartBase = Schema.Schema.Type<typeof PartBase>

/** A piece of text. */
export const TextPart = Schema.Struct({
  kind: Schema.Literal("text"),
  text: Schema.String,
  ...metadataField
}).annotations({ identifier: "TextPart" })
/** @see TextPart */
export type TextPart = Schema.Schema.Type<typeof TextPart>

/** Fields shared by both file forms. */
export const FileBase = Schema.Struct({
  mimeType: optional(Schema.String),
  name: optional(Schema.String)
}).annotations({ identifier: "FileBase" })
/** @see FileBase */
export type FileBase = Schema.Schema.Type<typeof FileBase>

/**
 * File content inline, base64-encoded. `uri` must be absent: the upstream types make bytes and uri exclusive,
 * the upstream JSON Schema does not (our schema is stricter there).
 */
export const FileWithBytes = exclusive({ ...FileBase.fields, bytes: Schema.String }, ["uri"]).annotations({
  identifier: "FileWithBytes"
})
/** @see FileWithBytes */
export type FileWithBytes = Schema.Schema.Type<typeof FileWithBytes>

/** File content by reference. `bytes` must be absent (see FileWithBytes). */
export const FileWithUri = exclusive({ ...FileBase.fields, uri: Schema.String }, ["bytes"]).annotations({
  identifier: "FileWithUri"
})
/** @see FileWithUri */
export type FileWithUri = Schema.Schema.Type<typeof FileWithUri>

/** A file, inline or by URI: exactly one of `bytes` and `uri`. */
export const FilePart = Schema.Struct({
  kind: Schema.Literal("file"),
  file: Schema.Union(FileWithBytes, FileWithUri),
  ...metadataField
}).annotations({ identifier: "FilePart" })
/** @see FilePart */
export type FilePart = Schema.Schema.Type<typeof FilePart>

/** Structured JSON data. */
export const DataPart = Schema.Struct({
  kind: Schema.Literal("data"),
  data: JsonObject,
  ...metadataField
}).annotations({ identifier: "DataPart" })
/** @see DataPart */
export type DataPart = Schema.Schema.Type<typeof DataPart>

/*
 * Some peers omit `kind` on parts. We accept such a part when exactly one of `text`, `file` and `data` is
 * present (anything else would be a guess) and decode it to the canonical form with `kind`. Encoding always
 * picks the canonical member first, so what we emit always carries `kind`; generated values (Arbitrary) come
 * from the canonical type side, so property tests never produce a kind-less part.
 */
const KindlessTextPart = Schema.transform(
  Schema.Struct({ text: Schema.String, ...metadataField, kind: absent, file: absent, data: absent }).annotations({
    identifier: "text part without kind"
  }),
  TextPart,
  {
    strict: true,
    decode: ({ kind: _k, file: _f, data: _d, ...rest }) => ({ kind: "text" as const, ...rest }),
    encode: ({ kind: _k, ...rest }) => rest
  }
)

const KindlessFilePart = Schema.transform(
  Schema.Struct({ file: FilePart.fields.file, ...metadataField, kind: absent, text: absent, data: absent }).annotations({
    identifier: "file part without kind"
  }),
  FilePart,
  {
    strict: true,
    decode: ({ kind: _k, text: _t, data: _d, ...rest }) => ({ kind: "file" as const, ...rest }),
    encode: ({ kind: _k, ...rest }) => rest
  }
)

const KindlessDataPart = Schema.transform(
  Schema.Struct({ data: JsonObject, ...metadataField, kind: absent, text: absent, file: absent }).annotations({
    identifier: "data part without kind"
  }),
  DataPart,
  {
    strict: true,
    decode: ({ kind: _k, text: _t, file: _f, ...rest }) => ({ kind: "data" as const, ...rest }),
    encode: ({ kind: _k, ...rest }) => rest
  }
)

/**
 * A message or artifact part. Decodes the canonical forms and, leniently, a part without `kind` whose fields
 * make the kind unambiguous; the decoded (and re-encoded) value always has `kind`.
 */
export const Part = Schema.Union(TextPart, FilePart, DataPart, KindlessTextPart, KindlessFilePart, KindlessDataPart)
  .annotations({ identifier: "Part" })
/** @see Part */
export type Part = Schema.Schema.Type<typeof Part>
