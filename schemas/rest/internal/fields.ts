/*
 * Field access shared by the REST mapping. Peers spell REST payloads two ways (plain A2A JSON in camelCase,
 * and the protobuf JSON mapping, which parsers accept in lowerCamelCase and in the proto field names'
 * snake_case), so every read names the spellings it accepts. Only own members are read: a body is plain
 * JSON, and nothing inherited may stand in for a missing member.
 */

/** A JSON object as read from a body. */
export type JsonRecord = { readonly [key: string]: unknown }

/** True for a JSON object (not an array, not null). */
export const isRecord = (u: unknown): u is JsonRecord => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The first of `keys` that `o` holds with a value. `null` counts as absent, as in the protobuf JSON mapping,
 * where it stands for the field's default.
 */
export const pick = (o: JsonRecord, ...keys: ReadonlyArray<string>): unknown => {
  for (const key of keys) {
    if (Object.hasOwn(o, key)) {
      const value = o[key]
      if (value !== undefined && value !== null) return value
    }
  }
  return undefined
}

/**
 * A repeated (list) field: the first of `keys` that `o` holds, else an empty list. The protobuf JSON mapping
 * leaves an empty list out, so in a REST payload an absent list is an empty one, whatever its spelling. Use
 * it for every list the A2A schema requires; an optional list stays absent, which means the same.
 */
export const repeated = (o: JsonRecord, ...keys: ReadonlyArray<string>): unknown => pick(o, ...keys) ?? []

/** True when `o` holds any of `keys` with a value. */
export const holds = (o: JsonRecord, ...keys: ReadonlyArray<string>): boolean => pick(o, ...keys) !== undefined

/** `o` without its `undefined` members, so the result satisfies exact optional property types. */
export const compact = <T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(o)) if (o[key] !== undefined) out[key] = o[key]
  return out as { [K in keyof T]: Exclude<T[K], undefined> }
}

/** `f` over an array; anything else is returned unchanged, for the schema to refuse with a clear message. */
export const mapArray = (u: unknown, f: (item: unknown) => unknown): unknown => (Array.isArray(u) ? u.map(f) : u)

/** `f` over a JSON object; anything else is returned unchanged, for the schema to refuse. */
export const mapRecord = (u: unknown, f: (o: JsonRecord) => unknown): unknown => (isRecord(u) ? f(u) : u)
