import { Arbitrary, Schema } from "effect"
import type { FastCheck } from "effect"

/*
 * Field helpers shared by every wire schema.
 *
 * Excess properties: upstream objects allow unknown fields, and peers add their own. Effect Schema's default
 * (`onExcessProperty: "ignore"`) drops them while decoding, which is what we want on input: a peer that
 * sends a newer or extended shape still gets through, and nothing we did not declare reaches our code.
 */

/**
 * An optional property that, when present, holds a value of `schema` (never `undefined`), as in JSON where a
 * missing field has no value. With `exactOptionalPropertyTypes` the type is `field?: A`, not `A | undefined`.
 */
export const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(schema)

// Passed through JSON once so generated values are exactly what a peer would read back (e.g. -0 becomes 0).
const jsonValue = (fc: typeof FastCheck) =>
  fc.jsonValue({ maxDepth: 2 }).map((v): unknown => JSON.parse(JSON.stringify(v)))

// Keys that an object literal turns into prototype changes would not survive a decode, so the generators
// that stand for free-form JSON leave them out.
const jsonKey = (fc: typeof FastCheck) =>
  fc.string({ maxLength: 8 }).filter((k) => k !== "__proto__" && k !== "constructor" && k !== "prototype")

/**
 * Any JSON value (`data`, `result`). Typed `unknown`; its generator yields JSON values only, so generated
 * documents survive `JSON.stringify`.
 */
export const JsonUnknown = Schema.Unknown.annotate({ arbitrary: () => (fc) => jsonValue(fc) })

/** A JSON object with arbitrary values: upstream's `{ type: "object", additionalProperties: {} }`. */
export const JsonObject = Schema.Record(Schema.String, JsonUnknown).annotate({
  arbitrary: () => (fc) => fc.dictionary(jsonKey(fc), jsonValue(fc), { maxKeys: 3, noNullPrototype: true })
})

/**
 * An object with string keys and `value` values (upstream's `additionalProperties: {...}`). Its generator
 * leaves out `__proto__`-like keys, which an object literal turns into a prototype change: such a key does not
 * survive a decode, so JSON parsing upstream of the schemas must drop it.
 */
export const StringRecord = <V extends Schema.Codec<any, any>>(value: V) =>
  Schema.Record({ key: Schema.String, value }).annotate({
    arbitrary: () => (fc) => fc.dictionary(jsonKey(fc), Arbitrary.make(value), { maxKeys: 3, noNullPrototype: true })
  })

/** Extension data keyed by extension URI or application-defined names; free-form JSON. */
export const Metadata = JsonObject.annotate({ identifier: "Metadata" })

/** `metadata?: Metadata`, the field most wire objects carry. */
export const metadataField = { metadata: optional(Metadata) }

const Forbidden = Schema.Never.annotate({
  // Only reached through `exclusive`, whose own generator never emits the field; present so the derivation
  // of the surrounding schema does not stop at `never`.
  arbitrary: () => (fc) => fc.constant(undefined as never),
  title: "absent"
})

/** How long an id (task, context, message, push config) may be: longer ones are refused, never stored or echoed. */
export const MAX_ID_LENGTH = 256

/**
 * The id of a task, context, message or push config as a peer sends it: a string of at most
 * {@link MAX_ID_LENGTH} characters (upstream sets no bound; we are stricter). The message never repeats the
 * value, which may be huge.
 */
export const Identifier = Schema.String.pipe(
  Schema.maxLength(MAX_ID_LENGTH, { message: () => `an id may be at most ${MAX_ID_LENGTH} characters long` })
)

/** How long a webhook URL may be, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048

/** A webhook URL as a peer sends it: at most {@link MAX_WEBHOOK_URL_LENGTH} characters (stricter than upstream). */
export const WebhookUrl = Schema.String.pipe(
  Schema.maxLength(MAX_WEBHOOK_URL_LENGTH, {
    message: () => `a webhook URL may be at most ${MAX_WEBHOOK_URL_LENGTH} characters (2 KiB) long`
  })
)

/** A property that must not be present (`field?: never`). */
export const absent = optional(Forbidden)

type Absent<K extends string> = { readonly [P in K]: typeof absent }

/**
 * A struct that refuses the listed properties: `exclusive({ bytes }, ["uri"])` accepts `{ bytes }` and
 * rejects `{ bytes, uri }`, which plain excess-property stripping would silently accept.
 */
export const exclusive = <Fields extends Schema.Struct.Fields, K extends string>(
  fields: Fields,
  forbidden: ReadonlyArray<K>
): Schema.Struct<Fields & Absent<K>> => {
  const allowed = Schema.Struct(fields)
  const absentFields = Object.fromEntries(forbidden.map((k) => [k, absent])) as unknown as Absent<K>
  return Schema.Struct({ ...fields, ...absentFields }).annotate({
    arbitrary: () => () => Arbitrary.make(allowed) as FastCheck.Arbitrary<Schema.Struct.Type<Fields & Absent<K>>>
  })
}

/** @see JsonObject */
export type JsonObject = Schema.Schema.Type<typeof JsonObject>
/** @see Metadata */
export type Metadata = Schema.Schema.Type<typeof Metadata>
