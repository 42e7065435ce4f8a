/**
 * JSON text of a request body turned into a value the schemas may judge: prototype keys removed, nesting
 * bounded. Both bindings and the fixture runner read bodies through here, so what authentication, the
 * decoder and the agent see is one and the same value.
 *
 * @module
 */
import secureJson from "secure-json-parse"

/** How deeply a request body may nest objects and arrays (`{}` is one level, `{"a":[]}` two). */
export const MAX_JSON_DEPTH = 64

/** The outcome of {@link readJsonText}. */
export type JsonText =
  | { readonly _tag: "Parsed"; readonly value: unknown }
  /** Not one JSON text; `detail` is the parser's message, for a short error message. */
  | { readonly _tag: "NotJson"; readonly detail: string }
  /**
   * Valid JSON nested deeper than the bound; `member` is the top-level key (or index) under which it is, so a
   * binding can tell a too-deep envelope from too-deep params.
   */
  | { readonly _tag: "TooDeep"; readonly value: unknown; readonly maxDepth: number; readonly member: string | number | null }

/** Options of {@link readJsonText}. */
export interface JsonTextOptions {
  /** Default {@link MAX_JSON_DEPTH}. */
  readonly maxDepth?: number
}

// `remove`, not `error`: a hostile key is dropped as if it had never been sent, which is what the body means
// to every other JSON reader, and the rest of the request is still judged on its merits.
const secureOptions = { protoAction: "remove", constructorAction: "remove" } as const

/**
 * How many `{` and `[` the text holds, counted up to `limit + 1`. Nesting can never be deeper than this, so
 * an ordinary body (a few dozen brackets at most) is known to be shallow without walking the parsed value.
 */
const openings = (text: string, limit: number): number => {
  let n = 0
  for (let i = text.indexOf("{"); i !== -1 && n <= limit; i = text.indexOf("{", i + 1)) n++
  for (let i = text.indexOf("["); i !== -1 && n <= limit; i = text.indexOf("[", i + 1)) n++
  return n
}

/**
 * Where `root` nests objects or arrays deeper than `max`: the member of `root` (key or index) under which it
 * does, `null` when `root` itself is too deep for `max`, `undefined` when nothing is. Iterative, so any depth is
 * safe to check; it stops at the first container past the bound.
 */
const tooDeepAt = (root: unknown, max: number): string | number | null | undefined => {
  if (typeof root !== "object" || root === null) return undefined
  if (max < 1) return null
  const values: Array<object> = []
  const depths: Array<number> = []
  const members: Array<string | number> = []
  const visit = (value: object, depth: number, member: string | number): void => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i]
        if (typeof child === "object" && child !== null) {
          values.push(child)
          depths.push(depth)
          members.push(member === -1 ? i : member)
        }
      }
    } else {
      for (const key in value) {
        const child: unknown = (value as Record<string, unknown>)[key]
        if (typeof child === "object" && child !== null) {
          values.push(child)
          depths.push(depth)
          members.push(member === -1 ? key : member)
        }
      }
    }
  }
  visit(root, 2, -1)
  while (values.length > 0) {
    const value = values.pop()!
    const depth = depths.pop()!
    const member = members.pop()!
    if (depth > max) return member
    visit(value, depth + 1, member)
  }
  return undefined
}

/**
 * Parses `text` (one leading byte-order mark is ignored, as RFC 8259 allows). `__proto__` keys are removed
 * in every spelling (`"\u005f_proto__"` included), and so is a `constructor` key holding a `prototype`:
 * decoding copies records key by key, and such a key would otherwise hand the decoded object a prototype
 * that one reader sees and another does not. Never throws.
 *
 * @example
 * const body = readJsonText(text)
 * if (body._tag !== "Parsed") return refuse(body)
 */
export const readJsonText = (text: string, options: JsonTextOptions = {}): JsonText => {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH
  let value: unknown
  try {
    value = secureJson.parse(text, null, secureOptions)
  } catch (cause) {
    return { _tag: "NotJson", detail: cause instanceof Error ? cause.message : "" }
  }
  if (openings(text, maxDepth) <= maxDepth) return { _tag: "Parsed", value }
  const member = tooDeepAt(value, maxDepth)
  return member === undefined ? { _tag: "Parsed", value } : { _tag: "TooDeep", value, maxDepth, member }
}
