import { Schema } from "effect"

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
export const optional = <S extends Schema.Top>(schema: S): Schema.optionalKey<S> => Schema.optionalKey(schema)

/**
 * Any JSON value (`data`, `result`). Typed `unknown` and not walked while decoding (a deep value costs
 * nothing here: bodies are depth-checked when parsed). Values generated from it for property tests are JSON
 * values, so generated documents survive `JSON.stringify`.
 */
export const JsonUnknown: Schema.Unknown = Schema.Unknown

/** A JSON object with arbitrary values: upstream's `{ type: "object", additionalProperties: {} }`. */
export const JsonObject: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, JsonUnknown)

/**
 * An object with string keys and `value` values (upstream's `additionalProperties: {...}`). Every key is an
 * own key of the decoded record, `__proto__` included: decoding never changes a prototype.
 */
export const StringRecord = <V extends Schema.Top>(value: V): Schema.$Record<Schema.String, V> =>
  Schema.Record(Schema.String, value)

/** Extension data keyed by extension URI or application-defined names; free-form JSON. */
export const Metadata: Schema.$Record<Schema.String, Schema.Unknown> = JsonObject.annotate({ identifier: "Metadata" })

/** `metadata?: Metadata`, the field most wire objects carry. */
export const metadataField: { readonly metadata: Schema.optionalKey<typeof Metadata> } = { metadata: optional(Metadata) }

/** How long an id (task, context, message, push config) may be: longer ones are refused, never stored or echoed. */
export const MAX_ID_LENGTH = 256

/**
 * The id of a task, context, message or push config as a peer sends it: a string of at most
 * {@link MAX_ID_LENGTH} characters (upstream sets no bound; we are stricter). The message never repeats the
 * value, which may be huge.
 */
export const Identifier: Schema.String = Schema.String.check(
  Schema.isMaxLength(MAX_ID_LENGTH, { message: `an id may be at most ${MAX_ID_LENGTH} characters long` })
)

/**
 * How many tasks a message may reference (`referenceTaskIds`): each one is looked up for its owner before the
 * message is taken, so the list is bounded (upstream sets no bound).
 */
export const MAX_REFERENCE_TASK_IDS = 64

/** How long a webhook URL may be, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048

/** A webhook URL as a peer sends it: at most {@link MAX_WEBHOOK_URL_LENGTH} characters (stricter than upstream). */
export const WebhookUrl: Schema.String = Schema.String.check(
  Schema.isMaxLength(MAX_WEBHOOK_URL_LENGTH, {
    message: `a webhook URL may be at most ${MAX_WEBHOOK_URL_LENGTH} characters (2 KiB) long`
  })
)

/**
 * A property that must not be present (`field?: never`). Generated values never carry it, so the generators of
 * the structs that use it need no help.
 */
export const absent: Schema.optionalKey<Schema.Never> = optional(Schema.Never.annotate({ message: "Expected absent" }))

type Absent<K extends string> = { readonly [P in K]: typeof absent }

/**
 * A struct that refuses the listed properties: `exclusive({ bytes }, ["uri"])` accepts `{ bytes }` and
 * rejects `{ bytes, uri }`, which plain excess-property stripping would silently accept.
 */
export const exclusive = <Fields extends Schema.Struct.Fields, K extends string>(
  fields: Fields,
  forbidden: ReadonlyArray<K>
): Schema.Struct<Fields & Absent<K>> => {
  const absentFields = Object.fromEntries(forbidden.map((k) => [k, absent])) as unknown as Absent<K>
  return Schema.Struct({ ...fields, ...absentFields })
}

/** @see JsonObject */
export type JsonObject = Schema.Schema.Type<typeof JsonObject>
/** @see Metadata */
export type Metadata = Schema.Schema.Type<typeof Metadata>
