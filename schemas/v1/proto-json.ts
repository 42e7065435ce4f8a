/**
 * Input leniency of the 1.0 codec: what ProtoJSON parsers accept besides the canonical form, rewritten as
 * the canonical form for the schemas to judge.
 *
 * - field names in the proto's snake_case (`message_id`) as well as their JSON names (`messageId`);
 * - enums by number (`"role": 1`) as well as by name (`"ROLE_USER"`);
 * - `null` for any field, meaning the field's default (left out), except a part's `data`, where it is the
 *   JSON value null.
 *
 * Unknown fields are left for the schemas, which ignore them. Free-form members (`metadata`, a part's `data`,
 * an extension's `params`, a signature's `header`) are copied as they are, never renamed; the keys of maps
 * (`securitySchemes`, `scopes`, a requirement's `schemes`) are names a user chose and are kept too. A value
 * that needs no rewriting is returned as it is, so a canonical body costs one walk and no allocation.
 *
 * @module
 */
import { enumNames } from "./enums.ts"

const freeForm: ReadonlySet<string> = new Set(["metadata", "data", "params", "header"])
const maps: ReadonlySet<string> = new Set(["securitySchemes", "scopes", "schemes"])

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The JSON name of a proto field name: `message_id` → `messageId`; a JSON name is returned as it is. */
export const jsonName = (key: string): string =>
  key.includes("_") ? key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : key

const enumName = (key: string, value: unknown): unknown => {
  if (typeof value !== "number") return value
  const names = enumNames[key]
  return names !== undefined && Number.isInteger(value) && value >= 0 && value < names.length ? names[value] : value
}

const normaliseArray = (items: ReadonlyArray<unknown>): ReadonlyArray<unknown> => {
  let out: Array<unknown> | undefined
  for (let i = 0; i < items.length; i++) {
    const item = items[i]
    const next = normaliseValue(item)
    if (next !== item) {
      out ??= items.slice()
      out[i] = next
    }
  }
  return out ?? items
}

const normaliseValue = (value: unknown): unknown =>
  Array.isArray(value) ? normaliseArray(value) : isRecord(value) ? normaliseProtoJson(value) : value

/** A map member: its keys as they are, its values normalised. */
const normaliseMap = (map: Record<string, unknown>): Record<string, unknown> => {
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(map)) {
    const value = map[key]
    const next = normaliseValue(value)
    if (next !== value) {
      out ??= { ...map }
      out[key] = next
    }
  }
  return out ?? map
}

/**
 * The canonical ProtoJSON form of a message object (see the module comment). Anything that is not an
 * object is returned unchanged, for the schema to refuse.
 *
 * @example
 * normaliseProtoJson({ message_id: "m", role: 1 }) // { messageId: "m", role: "ROLE_USER" }
 */
export const normaliseProtoJson = (object: Record<string, unknown>): Record<string, unknown> => {
  let out: Record<string, unknown> | undefined
  const keys = Object.keys(object)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const value = object[key]
    const name = jsonName(key)
    let next: unknown
    if (freeForm.has(name)) next = value
    else if (value === null) next = undefined
    else if (maps.has(name) && isRecord(value)) next = normaliseMap(value)
    else next = normaliseValue(enumName(name, value))
    if (name === key && next === value) {
      if (out !== undefined) out[key] = value
      continue
    }
    if (out === undefined) {
      out = {}
      for (let j = 0; j < i; j++) out[keys[j]!] = object[keys[j]!]
    }
    // The JSON name wins over the proto name when a body spells both; no key may name a prototype.
    if ((name !== key && Object.hasOwn(object, name)) || name === "__proto__") continue
    if (next !== undefined) out[name] = next
  }
  if (out === undefined) return object
  return out
}

/** {@link normaliseProtoJson} for any JSON value: objects and arrays of objects are normalised. */
export const normaliseProtoJsonValue = normaliseValue
