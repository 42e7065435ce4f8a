/**
 * RFC 8785 JSON Canonicalization Scheme (JCS).
 *
 * Signatures over JSON need one byte sequence per value; JCS gives it: object members sorted by
 * the UTF-16 code units of their names, numbers in ECMAScript `Number.prototype.toString` form,
 * strings with the minimal JSON escapes, and no whitespace.
 *
 * @module
 */

/** Thrown for a value that has no I-JSON form (NaN, Infinity, lone surrogates, bigint, ...). */
export class CanonicalizeError extends Error {
  override readonly name = "CanonicalizeError"
}

const escapes: Readonly<Record<string, string>> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
  '"': '\\"',
  "\\": "\\\\"
}

// Characters JCS must escape: C0 controls, quote and backslash. Everything else is written as is.
const mustEscape = /[\u0000-\u001f"\\]/g

// I-JSON (RFC 7493) forbids unpaired surrogates, and JCS inherits that rule.
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const loneSurrogates = new RegExp(loneSurrogate.source, "g")

const hexEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`

/** Options of {@link canonicalize}. */
export interface CanonicalizeOptions {
  /**
   * What to do with a string holding an unpaired UTF-16 surrogate, which RFC 8785 (through I-JSON)
   * has no form for. `"refuse"` (the default, what signatures need) throws {@link CanonicalizeError};
   * `"escape"` writes each one as a lowercase `\\udxxx` escape: ASCII that any JSON parser reads back
   * as the same string, so records of whatever a client sent stay exact and hash the same after a
   * round trip through a UTF-8 file. Values without lone surrogates serialise identically either way.
   */
  readonly loneSurrogates?: "refuse" | "escape"
}

const serializeString = (value: string, escapeLone: boolean): string => {
  const lone = loneSurrogate.test(value)
  if (lone && !escapeLone) {
    throw new CanonicalizeError("string contains an unpaired UTF-16 surrogate")
  }
  const body = value.replace(mustEscape, (c) => escapes[c] ?? hexEscape(c))
  return `"${lone ? body.replace(loneSurrogates, hexEscape) : body}"`
}

const serializeNumber = (value: number): string => {
  if (!Number.isFinite(value)) {
    throw new CanonicalizeError(`number ${String(value)} has no JSON form`)
  }
  // ECMAScript's Number-to-String is exactly the JCS number form; -0 becomes "0".
  return Object.is(value, -0) ? "0" : String(value)
}

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

const serialize = (value: unknown, seen: Set<object>, escapeLone: boolean): string => {
  switch (typeof value) {
    case "string":
      return serializeString(value, escapeLone)
    case "number":
      return serializeNumber(value)
    case "boolean":
      return value ? "true" : "false"
    case "object": {
      if (value === null) return "null"
      if (seen.has(value)) throw new CanonicalizeError("value contains a cycle")
      seen.add(value)
      try {
        if (Array.isArray(value)) {
          return `[${value.map((item: unknown) => {
            if (item === undefined) throw new CanonicalizeError("array holds undefined")
            return serialize(item, seen, escapeLone)
          }).join(",")}]`
        }
        if (!isPlainObject(value)) {
          throw new CanonicalizeError("only plain objects, arrays and primitives are JSON data")
        }
        // Default sort compares UTF-16 code units, which is what RFC 8785 section 3.2.3 asks for.
        const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort()
        return `{${keys.map((k) => `${serializeString(k, escapeLone)}:${serialize(value[k], seen, escapeLone)}`).join(",")}}`
      } finally {
        seen.delete(value)
      }
    }
    default:
      throw new CanonicalizeError(`a ${typeof value} is not JSON data`)
  }
}

/**
 * The RFC 8785 canonical JSON text of `value`. Object members whose value is `undefined` are
 * left out (as `JSON.stringify` does); anything else without a JSON form throws
 * {@link CanonicalizeError}.
 *
 * @example
 * canonicalize({ b: 1, a: [true, null, 1e21] }) // '{"a":[true,null,1e+21],"b":1}'
 */
export const canonicalize = (value: unknown, options: CanonicalizeOptions = {}): string =>
  serialize(value, new Set(), options.loneSurrogates === "escape")

const encoder = new TextEncoder()

/** The UTF-8 bytes of {@link canonicalize}: what gets hashed or signed. */
export const canonicalBytes = (value: unknown): Uint8Array => encoder.encode(canonicalize(value))
