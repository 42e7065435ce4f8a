/**
 * Reading an artifact chunk's fields straight from the JSON text of its SSE event, without parsing it: the
 * quick path of the stream checks (stream-check.ts), which samples its readings against a full parse.
 *
 * @module
 */

const NUMBER_END = /^(?:\s|\\[nrt])*"/

/**
 * The integer the first text part of `s[from, to)` carries, read without parsing (whitespace and `\n`, `\r`,
 * `\t` escapes around the digits allowed); -1 when there is none.
 */
export const readNumber = (s: string, from: number, to: number): number => {
  const at = s.indexOf("\"text\":\"", from)
  if (at < 0 || at >= to) return -1
  let i = at + 8
  while (i < to && (s.charCodeAt(i) === 32 || (s.charCodeAt(i) === 92 && "nrt".includes(s[i + 1] ?? "")))) i += s.charCodeAt(i) === 92 ? 2 : 1
  let n = 0
  let digits = 0
  for (; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) break
    n = n * 10 + (c - 48)
    digits++
  }
  if (digits === 0 || digits > 15) return -1
  if (s.charCodeAt(i) === 34) return n
  return NUMBER_END.test(s.slice(i, Math.min(to, i + 16))) ? n : -1
}

/** True when `s[from, to)` holds a double quote. */
export const hasQuote = (s: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 34) return true
  return false
}

/** The integer that the JSON string content `s[from, to)` holds, whitespace (and its escapes) around it allowed; -1 when none. */
export const numberIn = (s: string, from: number, to: number): number => {
  let i = from
  let n = 0
  let digits = 0
  let after = false
  while (i < to) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57 && !after) {
      n = n * 10 + (c - 48)
      digits++
      i++
    } else if (c === 32) {
      after = digits > 0
      i++
    } else if (c === 92 && i + 1 < to && "nrt".includes(s[i + 1]!)) {
      after = digits > 0
      i += 2
    } else return -1
  }
  return digits > 0 && digits <= 15 ? n : -1
}

export const numberOfText = (text: unknown): number => {
  if (typeof text !== "string") return -1
  const trimmed = text.trim()
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : -1
}

/**
 * Whether `s` holds `needle` at `at`. A slice compared with `===` rather than `startsWith(needle, at)`, which
 * V8 runs several times slower on the long concatenated strings a body is read into (it was most of the
 * checks' cost on a fast stream).
 */
export const holdsAt = (s: string, needle: string, at: number): boolean => s.slice(at, at + needle.length) === needle

/** True when `payload` is written as `JSON.stringify` writes it (no spaces between tokens). */
export const isCompact = (payload: string): boolean => {
  try {
    return JSON.stringify(JSON.parse(payload)).length === payload.length
  } catch {
    return false
  }
}
