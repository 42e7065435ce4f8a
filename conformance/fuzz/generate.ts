import { Prng } from "./prng.ts"
import { escapedSpellings, jsonType, pathsOf, setPath, validRequest, validSend, wrongTypedValues, type Json } from "./templates.ts"

/** One hostile request body. */
export interface FuzzCase {
  /** Position in the generated sequence (replay with the same seed). */
  readonly index: number
  /** The family of hostility, e.g. `wrong-type`, `deep-nesting`. */
  readonly category: FuzzCategory
  /** A short description of this particular body. */
  readonly label: string
  readonly body: string | Uint8Array
  /** Content-Type header to send; `null` sends none. */
  readonly contentType: string | null
}

/** The families of bodies the generator produces. */
export const fuzzCategories = [
  "wrong-type", "deep-nesting", "huge-string", "invalid-utf8", "truncated", "prototype-keys",
  "non-json-tokens", "bom", "duplicate-keys", "giant-numbers", "garbage", "content-type", "structure",
  "long-ids", "parts"
] as const

/** A family of hostile bodies. */
export type FuzzCategory = (typeof fuzzCategories)[number]

const encoder = new TextEncoder()

const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** A null here could read as "absent" and turn a refused send into a blocking (held) one. */
const nullUnsafe = (path: ReadonlyArray<string | number>): boolean => path.includes("configuration")

type Made = { label: string; body: string | Uint8Array; contentType?: string | null }

const makers: Record<FuzzCategory, (prng: Prng) => Made> = {
  "wrong-type": (prng) => {
    const request = validRequest(prng)
    const path = prng.pick([["jsonrpc"], ["method"], ["params"], ...pathsOf(request).filter((p) => p[0] !== "jsonrpc")])
    const original = path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key]!, request)
    const candidates = wrongTypedValues(prng).filter((v) => jsonType(v) !== jsonType(original) && !(v === null && nullUnsafe(path)))
    const value = prng.pick(candidates)
    return { label: `${request.method} ${path.join(".")} := ${JSON.stringify(value)?.slice(0, 40)}`, body: JSON.stringify(setPath(request, path, value)) }
  },
  "deep-nesting": (prng) => {
    // 60 and 61 levels inside a message's metadata land right at and just past a 64-level bound.
    const depth = prng.pick([60, 61, 1_000, 10_000, 100_000])
    const [open, close] = prng.pick([["[", "]"], ['{"a":', "}"]] as const)
    const nest = `${open.repeat(depth)}1${close.repeat(depth)}`
    const where = prng.int(4)
    const body = where === 0 ? nest : where === 1
      ? `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x","metadata":${nest}}}`
      : where === 2
        ? `{"jsonrpc":"2.0","id":${nest},"method":"tasks/get","params":{"id":"x"}}`
        : JSON.stringify(validSend(prng)).replace(`"metadata":{"source":"fuzz"}`, `"metadata":{"n":${nest}}`)
    return { label: `${open} x ${depth} (${["whole body", "in params", "as id", "in message metadata"][where]})`, body }
  },
  "huge-string": (prng) => {
    const size = prng.pick([64 * 1024, 512 * 1024, 2 * 1024 * 1024])
    const s = prng.pick(["a", "\\u0000", "\\\"", "é", "\\ud83d\\ude00"]).repeat(Math.ceil(size / 6))
    const field = prng.pick(["method", "id", "params.id", "params.message.parts.text"])
    const bodies: Record<string, string> = {
      method: `{"jsonrpc":"2.0","id":1,"method":"${s}","params":{}}`,
      id: `{"jsonrpc":"2.0","id":"${s}","method":"tasks/get","params":{"id":"x"}}`,
      "params.id": `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"${s}"}}`,
      "params.message.parts.text": `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"configuration":{"blocking":false},"message":{"kind":"message","role":"user","messageId":"huge-${prng.int(1e9)}","parts":[{"kind":"text","text":"${s}"}]}}}`
    }
    return { label: `${field} of ~${size} bytes`, body: bodies[field]! }
  },
  "invalid-utf8": (prng) => {
    const text = JSON.stringify(validRequest(prng))
    const cut = 1 + prng.int(text.length - 1)
    const bad = prng.pick([[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf], [0x80]])
    return { label: `bytes ${bad.map((b) => b.toString(16)).join(" ")} at ${cut}`, body: concat(encoder.encode(text.slice(0, cut)), new Uint8Array(bad), encoder.encode(text.slice(cut))) }
  },
  truncated: (prng) => {
    const text = JSON.stringify(validRequest(prng))
    const cut = prng.int(text.length)
    return { label: `cut at ${cut}/${text.length}`, body: text.slice(0, cut) }
  },
  "prototype-keys": (prng) => {
    const request = validRequest(prng) as { [key: string]: Json }
    const objects = [request, ...pathsOf(request).map((p) => p.reduce<Json>((n, k) => (n as Record<string | number, Json>)[k]!, request))]
      .filter((v): v is { [key: string]: Json } => v !== null && typeof v === "object" && !Array.isArray(v))
    const target = prng.pick(objects)
    const key = prng.pick(["__proto__", "constructor", "prototype", "__defineGetter__", "hasOwnProperty", "toString"])
    const value: Json = prng.pick([{ polluted: true }, { prototype: { polluted: true } }, "x", 1, null])
    Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
    // The same key as JSON parsers read it, written with escapes, which a search for the plain text misses.
    const spelling = prng.pick(["plain", ...(escapedSpellings.get(key) ?? [])])
    const text = JSON.stringify(request)
    const body = spelling === "plain" ? text : text.replace(`"${key}":`, `"${spelling}":`)
    return { label: `${spelling === "plain" ? key : spelling} := ${JSON.stringify(value)}`, body }
  },
  "non-json-tokens": (prng) => {
    const token = prng.pick(["NaN", "Infinity", "-Infinity", "undefined", "0x10", "01", "1e99999", ".5", "+1", "'single'", "True", "None"])
    const place = prng.int(3)
    const body = place === 0
      ? `{"jsonrpc":"2.0","id":${token},"method":"tasks/get","params":{"id":"x"}}`
      : place === 1
        ? `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x","historyLength":${token}}}`
        : prng.pick([`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x",},}`, `{"jsonrpc":"2.0",/*c*/"id":1,"method":"tasks/get"}`, `{jsonrpc:"2.0",id:1,method:"tasks/get"}`])
    return { label: place < 2 ? `${token} at ${place === 0 ? "id" : "historyLength"}` : "JSON5-isms", body }
  },
  bom: (prng) => {
    const text = JSON.stringify(validRequest(prng))
    const kind = prng.int(3)
    if (kind === 0) return { label: "UTF-8 BOM", body: concat(new Uint8Array([0xef, 0xbb, 0xbf]), encoder.encode(text)) }
    if (kind === 1) return { label: "BOM twice", body: concat(new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), encoder.encode(text)) }
    const utf16 = new Uint8Array(2 + text.length * 2)
    utf16.set([0xff, 0xfe])
    for (let i = 0; i < text.length; i++) utf16[2 + i * 2] = text.charCodeAt(i) & 0xff
    return { label: "UTF-16LE with BOM", body: utf16 }
  },
  "duplicate-keys": (prng) => {
    const variants = [
      '{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"tasks/get","params":{"id":"x"}}',
      '{"jsonrpc":"2.0","id":1,"id":{"a":1},"method":"tasks/get","params":{"id":"x"}}',
      '{"jsonrpc":"2.0","id":1,"method":"tasks/get","method":"nope/nope","params":{"id":"x"}}',
      '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"},"params":[1]}',
      '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"configuration":{"blocking":false,"blocking":false},"message":{"kind":"message","kind":"task","role":"user","messageId":"d","parts":[]}}}'
    ]
    const i = prng.int(variants.length)
    return { label: `variant ${i}`, body: variants[i]! }
  },
  "giant-numbers": (prng) => {
    const n = prng.pick(["1e308", "-1e308", "1.7976931348623159e308", "123456789012345678901234567890", "-0", "5e-324", "1e-400", "9007199254740993", "0.1e1000"])
    const place = prng.int(3)
    const body = place === 0
      ? `{"jsonrpc":"2.0","id":${n},"method":"tasks/get","params":{"id":"x"}}`
      : place === 1
        ? `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x","historyLength":${n}}}`
        : `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":${n}}}`
    return { label: `${n} at ${["id", "historyLength", "params.id"][place]}`, body }
  },
  garbage: (prng) => {
    const n = prng.pick([1, 7, 100, 4096])
    return { label: `${n} random bytes`, body: prng.bytes(n) }
  },
  "content-type": (prng) => {
    const ct = prng.pick([null, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16", "application/xml", "*/*", "application/json\u0000"])
    return { label: `Content-Type ${JSON.stringify(ct)}`, body: JSON.stringify(validRequest(prng)), contentType: ct === "application/json\u0000" ? "application/jsonx" : ct }
  },
  "long-ids": (prng) => {
    // Just past a 256-character id bound (or 2 KiB for a webhook URL), and far past it.
    const length = prng.pick([257, 4_096, 1_000_000])
    const long = "i".repeat(length)
    const send = validSend(prng)
    const message = send.params.message
    const variants: Array<[string, Json]> = [
      ["messageId", { ...send, params: { ...send.params, message: { ...message, messageId: long } } }],
      ["taskId", { ...send, params: { ...send.params, message: { ...message, taskId: long } } }],
      ["contextId", { ...send, params: { ...send.params, message: { ...message, contextId: long } } }],
      ["referenceTaskIds", { ...send, params: { ...send.params, message: { ...message, referenceTaskIds: ["r", long] } } }],
      ["tasks/get id", { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: long } }],
      ["pushNotificationConfigId", { jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/get", params: { id: "t", pushNotificationConfigId: long } }],
      ["push config id", { jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/set", params: { taskId: "t", pushNotificationConfig: { url: "https://push-receiver.invalid/hook", id: long } } }],
      ["webhook url", { jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/set", params: { taskId: "t", pushNotificationConfig: { url: `https://push-receiver.invalid/${long}` } } }]
    ]
    const [field, body] = prng.pick(variants)
    return { label: `${field} of ${length} characters`, body: JSON.stringify(body) }
  },
  parts: (prng) => {
    const send = validSend(prng)
    const part = prng.pick<Json>([
      { text: "no kind" }, { data: { a: 1 } }, { file: { uri: "https://files.invalid/f" } }, { kind: "image", text: "x" },
      { kind: "text", data: { a: 1 } }, { kind: "file", file: {} }, { kind: null, text: "x" }, { kind: "TEXT", text: "x" }
    ])
    const body = { ...send, params: { ...send.params, message: { ...send.params.message, parts: [part] } } }
    return { label: `part ${JSON.stringify(part)}`, body: JSON.stringify(body) }
  },
  structure: (prng) => {
    const one = (): Json => validRequest(prng)
    const variants: Array<[string, string]> = [
      ["empty body", ""], ["whitespace", " \n\t "], ["empty object", "{}"], ["empty array", "[]"],
      ["scalar", String(prng.int(100))], ["string", '"tasks/get"'], ["null", "null"],
      ["batch of 2", JSON.stringify([one(), one()])], ["batch of junk", "[1,2,3]"],
      ["nested envelope", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: one() })],
      ["two documents", `${JSON.stringify(one())}${JSON.stringify(one())}`],
      ["trailing junk", `${JSON.stringify(one())} garbage`]
    ]
    const [label, body] = prng.pick(variants)
    return { label, body }
  }
}

/** Relative frequency of each family (the huge bodies are kept rare so runs stay fast). */
const weights: Record<FuzzCategory, number> = {
  "wrong-type": 30, "deep-nesting": 2, "huge-string": 1, "invalid-utf8": 8, truncated: 10, "prototype-keys": 8,
  "non-json-tokens": 6, bom: 4, "duplicate-keys": 4, "giant-numbers": 6, garbage: 6, "content-type": 6, structure: 8,
  "long-ids": 4, parts: 4
}

/**
 * Generates `count` hostile bodies deterministically from `seed`. The first bodies cycle through
 * every family once, so even a short run covers them all.
 */
export function* generateFuzzCases(options: { readonly seed?: number; readonly count: number }): Generator<FuzzCase> {
  const prng = new Prng(options.seed ?? 0xa2a)
  const table = fuzzCategories.flatMap((c) => Array.from({ length: weights[c] }, () => c))
  for (let index = 0; index < options.count; index++) {
    const category = index < fuzzCategories.length ? fuzzCategories[index]! : prng.pick(table)
    const made = makers[category](prng)
    yield { index, category, label: made.label, body: made.body, contentType: made.contentType === undefined ? "application/json" : made.contentType }
  }
}
