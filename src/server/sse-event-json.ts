/**
 * JSON text of stream events for the SSE writer, with a fast path for artifact updates.
 *
 * A long stream is almost all `artifact-update` events of one task: the same kind, task id and
 * context id, and an artifact holding a few text parts. `JSON.stringify` has a fixed cost per call
 * that dwarfs the bytes such an event produces, so those events are assembled here from a cached
 * head and the few fields that change. The result is byte for byte what `JSON.stringify` writes:
 * anything outside the recognised shape (another key, key order, value type, a string that needs
 * escaping, a non-plain object) takes `JSON.stringify` instead.
 */

/** Strings that JSON writes as they are, between quotes. */
export const plain = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

const quote = (s: string): string => (plain.test(s) ? `"${s}"` : JSON.stringify(s))

export type Fields = Record<string, unknown>

export const isPlainObject = (u: unknown): u is Fields =>
  typeof u === "object" && u !== null && Object.getPrototypeOf(u) === Object.prototype

/** Whether the keys of `fields` are `first` and `second`, in that order, and no others. */
export const hasTwoKeys = (fields: Fields, first: string, second: string): boolean => {
  let keys = 0
  for (const key in fields) {
    if ((keys === 0 && key !== first) || (keys === 1 && key !== second)) return false
    keys++
  }
  return keys === 2
}

/** The text of a bare text part (`{"kind":"text","text":...}`, those two keys in that order); else undefined. */
export const bareText = (part: unknown): string | undefined => {
  if (!isPlainObject(part) || !hasTwoKeys(part, "kind", "text")) return undefined
  const text = part["text"]
  return part["kind"] === "text" && typeof text === "string" ? text : undefined
}

/** Rank of each key of an artifact-update in the order the fast path writes them; 0: not one of them. */
const updateKeyRank = (key: string): number => {
  switch (key) {
    case "kind": return 1
    case "taskId": return 2
    case "contextId": return 3
    case "artifact": return 4
    case "append": return 5
    case "lastChunk": return 6
    case "metadata": return 7
    default: return 0
  }
}

/** Keys, in insertion order, strictly follow `updateKeyRank`, and none is unknown. */
const hasUpdateKeys = (event: Fields): boolean => {
  let last = 0
  for (const key in event) {
    const rank = updateKeyRank(key)
    if (rank <= last) return false
    last = rank
  }
  return true
}

/** `[{"kind":"text","text":...}, ...]`, or undefined when a part is anything but a bare text part. */
const textPartsJson = (parts: unknown): string | undefined => {
  if (!Array.isArray(parts)) return undefined
  let out = "["
  for (let i = 0; i < parts.length; i++) {
    const text = bareText(parts[i])
    if (text === undefined || !plain.test(text)) return undefined
    out += i === 0 ? `{"kind":"text","text":"${text}"}` : `,{"kind":"text","text":"${text}"}`
  }
  return `${out}]`
}

/** An artifact `{ artifactId, parts }` of text parts by hand, anything else by `JSON.stringify`. */
const artifactJson = (artifact: unknown): string => {
  if (!isPlainObject(artifact)) return JSON.stringify(artifact)
  let keys = 0
  for (const key in artifact) {
    if ((keys === 0 && key !== "artifactId") || (keys === 1 && key !== "parts")) return JSON.stringify(artifact)
    keys++
  }
  const artifactId = artifact["artifactId"]
  if (keys !== 2 || typeof artifactId !== "string") return JSON.stringify(artifact)
  const parts = textPartsJson(artifact["parts"])
  return parts === undefined ? JSON.stringify(artifact) : `{"artifactId":${quote(artifactId)},"parts":${parts}}`
}

const flag = (name: string, value: unknown): string | undefined =>
  value === undefined ? "" : value === true ? `,"${name}":true` : value === false ? `,"${name}":false` : undefined

/**
 * A serialiser for one stream's events (it caches the head shared by that task's artifact updates).
 * Returns exactly `JSON.stringify(event)` for every JSON value.
 */
export const makeEventJson = (): ((event: unknown) => string) => {
  let taskId: unknown
  let contextId: unknown
  let head = ""

  const update = (event: Fields): string | undefined => {
    if (!hasUpdateKeys(event)) return undefined
    const t = event["taskId"]
    const c = event["contextId"]
    if (typeof t !== "string" || typeof c !== "string") return undefined
    const append = flag("append", event["append"])
    const lastChunk = flag("lastChunk", event["lastChunk"])
    if (append === undefined || lastChunk === undefined) return undefined
    const artifact = event["artifact"]
    if (artifact === undefined || typeof artifact === "function" || typeof artifact === "symbol") return undefined
    if (t !== taskId || c !== contextId) {
      taskId = t
      contextId = c
      head = `{"kind":"artifact-update","taskId":${quote(t)},"contextId":${quote(c)},"artifact":`
    }
    const metadata = event["metadata"]
    if (metadata !== undefined && typeof metadata !== "object") return undefined
    const tail = metadata === undefined ? "}" : `,"metadata":${JSON.stringify(metadata)}}`
    return `${head}${artifactJson(artifact)}${append}${lastChunk}${tail}`
  }

  return (event) =>
    (isPlainObject(event) && event["kind"] === "artifact-update" ? update(event) : undefined) ?? JSON.stringify(event)
}
