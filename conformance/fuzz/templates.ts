import type { Prng } from "./prng.ts"

/** A JSON value as the fuzzer builds it. */
export type Json = null | boolean | number | string | Array<Json> | { [key: string]: Json }

const hex = (prng: Prng, n: number): string => Array.from({ length: n }, () => prng.int(16).toString(16)).join("")

/**
 * Valid JSON-RPC requests for every method, the seeds of the mutations. `message/send` always
 * carries `blocking: false`: a held conformance task would otherwise keep a valid send waiting.
 */
export const validRequest = (prng: Prng): { [key: string]: Json } => {
  const taskId = `fuzz-${hex(prng, 12)}`
  const message = (): { [key: string]: Json } => ({
    kind: "message",
    role: "user",
    messageId: `fuzz-msg-${hex(prng, 12)}`,
    parts: [{ kind: "text", text: "fuzz" }, { kind: "data", data: { k: 1 } }],
    metadata: { source: "fuzz" }
  })
  const params: Array<[string, Json]> = [
    ["message/send", { message: message(), configuration: { blocking: false, historyLength: 2, acceptedOutputModes: ["text/plain"] } }],
    ["message/stream", { message: { ...message(), taskId } }],
    ["tasks/get", { id: taskId, historyLength: 3 }],
    ["tasks/cancel", { id: taskId, metadata: {} }],
    ["tasks/resubscribe", { id: taskId }],
    ["tasks/pushNotificationConfig/set", { taskId, pushNotificationConfig: { url: "https://push-receiver.invalid/hook", token: "t", authentication: { schemes: ["Bearer"] } } }],
    ["tasks/pushNotificationConfig/get", { id: taskId, pushNotificationConfigId: "default" }],
    ["tasks/pushNotificationConfig/list", { id: taskId }],
    ["tasks/pushNotificationConfig/delete", { id: taskId, pushNotificationConfigId: "x" }],
    ["agent/getAuthenticatedExtendedCard", {}]
  ]
  const [method, p] = prng.pick(params)
  return { jsonrpc: "2.0", id: prng.chance(0.5) ? `fuzz-${hex(prng, 6)}` : prng.int(1_000_000), method, params: p }
}

/** A non-blocking `message/send` request (a held conformance task would otherwise keep it waiting). */
export const validSend = (prng: Prng): { jsonrpc: "2.0"; id: string; method: "message/send"; params: { message: { [key: string]: Json }; configuration: Json } } => ({
  jsonrpc: "2.0",
  id: `fuzz-${hex(prng, 6)}`,
  method: "message/send",
  params: {
    message: {
      kind: "message",
      role: "user",
      messageId: `fuzz-msg-${hex(prng, 12)}`,
      parts: [{ kind: "text", text: "fuzz" }],
      metadata: { source: "fuzz" }
    },
    configuration: { blocking: false }
  }
})

/**
 * Key spellings that JSON parsers decode to `__proto__` and `constructor`, as raw JSON string contents: a
 * guard that searches the body text for the plain spelling misses them.
 */
export const escapedSpellings: ReadonlyMap<string, ReadonlyArray<string>> = new Map([
  ["__proto__", [String.raw`\u005f_proto__`, String.raw`\u005F\u005Fproto\u005F\u005F`, String.raw`__pro\u0074o__`]],
  ["constructor", [String.raw`\u0063onstructor`, String.raw`constructo\u0072`]]
])

/** Every path (as key lists) to a value inside `value`, the root excluded. */
export const pathsOf = (value: Json, prefix: ReadonlyArray<string | number> = []): Array<Array<string | number>> => {
  const out: Array<Array<string | number>> = []
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...prefix, i], ...pathsOf(v, [...prefix, i]))
    })
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push([...prefix, k], ...pathsOf(v, [...prefix, k]))
  }
  return out
}

/** The JSON type name of a value, as a mutation must change it. */
export const jsonType = (v: Json): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)

/** Values of every JSON type, including edge cases of each. */
export const wrongTypedValues = (prng: Prng): Array<Json> => [
  null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER * 1000,
  "", " ", "0", "null", "\u0000", "\ud800", "a".repeat(prng.int(64)), "<script>", "../../etc/passwd",
  [], [null], [[[]]], ["2.0"], {}, { kind: "text" }, { "": "" }
]

/** Sets `path` in a deep copy of `root` to `value`. */
export const setPath = (root: Json, path: ReadonlyArray<string | number>, value: Json): Json => {
  const copy = structuredClone(root) as Json
  let node = copy as { [key: string]: Json } | Array<Json>
  for (const key of path.slice(0, -1)) node = (node as Record<string | number, Json>)[key] as { [key: string]: Json }
  ;(node as Record<string | number, Json>)[path.at(-1)!] = value
  return copy
}
