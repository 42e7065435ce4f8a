/**
 * A ProtoJSON validator driven by the proto itself: it reads the messages and enums of `a2a.proto` and checks
 * a JSON value against one of them, independently of our Effect Schemas, so the schemas and what the 1.0
 * writers emit are both held to the normative definition.
 *
 * Two modes. `strict` is what a server must emit: JSON names only, enums by name (never the unspecified
 * value where a value is REQUIRED), no unknown member, no `null`, at most one member of a oneof, every
 * REQUIRED field present. `lenient` is what ProtoJSON parsers accept: proto names too, enum numbers, `null`
 * for a default, unknown members ignored; REQUIRED fields must still be present.
 *
 * @module
 */

/** One field of a message. */
export interface ProtoField {
  readonly name: string
  readonly jsonName: string
  readonly type: string
  readonly repeated: boolean
  readonly map?: { readonly key: string; readonly value: string }
  readonly oneof?: string
  readonly required: boolean
}

/** The messages and enums of a proto file. */
export interface ProtoDefinitions {
  readonly messages: ReadonlyMap<string, ReadonlyArray<ProtoField>>
  readonly enums: ReadonlyMap<string, ReadonlyArray<string>>
}

const jsonNameOf = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())

/** Reads messages and enums from proto source (the subset `a2a.proto` uses: no nested messages). */
export const parseProto = (source: string): ProtoDefinitions => {
  const text = source.replace(/\/\/[^\n]*/g, "")
  const messages = new Map<string, Array<ProtoField>>()
  const enums = new Map<string, Array<string>>()
  for (const m of text.matchAll(/\benum\s+(\w+)\s*\{([^}]*)\}/g)) {
    enums.set(m[1]!, [...m[2]!.matchAll(/(\w+)\s*=\s*(\d+)/g)].sort((a, b) => Number(a[2]) - Number(b[2])).map((v) => v[1]!))
  }
  const messageStart = /\bmessage\s+(\w+)\s*\{/g
  for (let m = messageStart.exec(text); m !== null; m = messageStart.exec(text)) {
    let depth = 1
    let i = messageStart.lastIndex
    while (depth > 0 && i < text.length) {
      if (text[i] === "{") depth++
      else if (text[i] === "}") depth--
      i++
    }
    const body = text.slice(messageStart.lastIndex, i - 1)
    const fields: Array<ProtoField> = []
    const oneofs = [...body.matchAll(/\boneof\s+(\w+)\s*\{([^}]*)\}/g)]
    const inOneof = new Map<string, string>()
    for (const o of oneofs) for (const f of o[2]!.matchAll(/([\w.]+)\s+(\w+)\s*=\s*\d+/g)) inOneof.set(f[2]!, o[1]!)
    const fieldPattern = /(repeated\s+|optional\s+)?(map\s*<\s*(\w+)\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*\d+\s*(\[[^\]]*\])?\s*;/g
    for (const f of body.replace(/\boneof\s+\w+\s*\{/g, "").matchAll(fieldPattern)) {
      const name = f[5]!
      const oneof = inOneof.get(name)
      fields.push({
        name,
        jsonName: jsonNameOf(name),
        type: f[3] === undefined ? f[2]! : "map",
        repeated: f[1]?.trim() === "repeated",
        ...(f[3] === undefined ? {} : { map: { key: f[3]!, value: f[4]! } }),
        ...(oneof === undefined ? {} : { oneof }),
        required: (f[6] ?? "").includes("REQUIRED")
      })
    }
    messages.set(m[1]!, fields)
  }
  return { messages, enums }
}

/** How strictly to read. */
export type ProtoJsonMode = "strict" | "lenient"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/
const base64 = /^[A-Za-z0-9+/]*={0,2}$/
const base64url = /^[A-Za-z0-9_-]*={0,2}$/

/** The problems of `value` as the ProtoJSON of message `type` (empty when it conforms). */
export const protoJsonProblems = (defs: ProtoDefinitions, type: string, value: unknown, mode: ProtoJsonMode = "strict"): Array<string> => {
  const problems: Array<string> = []
  const scalar = (t: string, v: unknown, at: string): void => {
    if (v === null) {
      if (t !== "google.protobuf.Value" && mode === "strict") problems.push(`${at}: null`)
      return
    }
    switch (t) {
      case "string":
        if (typeof v !== "string") problems.push(`${at}: expected a string`)
        return
      case "bool":
        if (typeof v !== "boolean") problems.push(`${at}: expected a boolean`)
        return
      case "int32":
      case "int64":
        if (!(Number.isInteger(v) || (mode === "lenient" && typeof v === "string" && /^-?\d+$/.test(v)))) problems.push(`${at}: expected an integer`)
        return
      case "bytes":
        if (typeof v !== "string" || !(base64.test(v) || (mode === "lenient" && base64url.test(v)))) problems.push(`${at}: expected base64`)
        return
      case "google.protobuf.Timestamp":
        if (typeof v !== "string" || !rfc3339.test(v)) problems.push(`${at}: expected an RFC 3339 timestamp`)
        return
      case "google.protobuf.Struct":
        if (!isObject(v)) problems.push(`${at}: expected an object`)
        return
      case "google.protobuf.Value":
        return
      case "google.protobuf.Empty":
        if (!isObject(v) || Object.keys(v).length > 0) problems.push(`${at}: expected {}`)
        return
    }
    const names = defs.enums.get(t)
    if (names !== undefined) {
      const ok = typeof v === "string" ? names.includes(v) : mode === "lenient" && Number.isInteger(v) && (v as number) >= 0 && (v as number) < names.length
      if (!ok) problems.push(`${at}: ${JSON.stringify(v)} is not a ${t}`)
      return
    }
    if (defs.messages.has(t)) return message(t, v, at)
    problems.push(`${at}: unknown type ${t}`)
  }
  const message = (t: string, v: unknown, at: string): void => {
    if (!isObject(v)) return void problems.push(`${at}: expected a ${t} object`)
    const fields = defs.messages.get(t)!
    const byName = new Map<string, ProtoField>()
    for (const f of fields) {
      byName.set(f.jsonName, f)
      if (mode === "lenient") byName.set(f.name, f)
    }
    const oneofsSet = new Map<string, Array<string>>()
    for (const [key, member] of Object.entries(v)) {
      const f = byName.get(key)
      if (f === undefined) {
        if (mode === "strict") problems.push(`${at}.${key}: not a field of ${t}`)
        continue
      }
      const where = `${at}.${key}`
      if (f.oneof !== undefined && (member !== null || f.type === "google.protobuf.Value")) oneofsSet.set(f.oneof, [...(oneofsSet.get(f.oneof) ?? []), key])
      if (f.map !== undefined) {
        if (!isObject(member)) {
          if (!(member === null && mode === "lenient")) problems.push(`${where}: expected a map`)
          continue
        }
        for (const [k, x] of Object.entries(member)) scalar(f.map.value, x, `${where}[${JSON.stringify(k)}]`)
      } else if (f.repeated) {
        if (!Array.isArray(member)) {
          if (!(member === null && mode === "lenient")) problems.push(`${where}: expected a list`)
          continue
        }
        member.forEach((x, i) => scalar(f.type, x, `${where}[${i}]`))
      } else {
        scalar(f.type, member, where)
      }
    }
    for (const [oneof, set] of oneofsSet) if (set.length > 1) problems.push(`${at}: more than one member of oneof ${oneof}: ${set.join(", ")}`)
    for (const f of fields) {
      if (!f.required) continue
      const present = Object.hasOwn(v, f.jsonName) || (mode === "lenient" && Object.hasOwn(v, f.name))
      if (!present) problems.push(`${at}.${f.jsonName}: REQUIRED and absent`)
    }
  }
  message(type, value, "$")
  return problems
}
