/**
 * What an agent sends, made safe to print on a terminal. Card fields, ids, states, status and artifact text,
 * error messages: all of it comes from the server, and a terminal obeys control sequences wherever they
 * appear (ESC and CSI sequences move the cursor and clear the screen, OSC sets the title or a hyperlink, BEL
 * rings, CR and backspace overwrite what was printed, bidirectional overrides reorder it). Every human-readable
 * printer of the `a2a` command passes server text through {@link terminalText}; `--json` output stays exact.
 *
 * @module
 */

// C0 controls but tab and line feed, DEL, C1 controls (U+0080-U+009F, where 0x9B is a one-byte CSI), the line
// and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates.
const unsafeMultiline = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g
// The same, and line feeds: a field printed on one line must not start another (a fake line).
const unsafeLine = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g

const named: Readonly<Record<string, string>> = { "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\v": "\\v" }

const escape = (c: string): string => {
  const known = named[c]
  if (known !== undefined) return known
  const code = c.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`
}

/**
 * `text` with every control character written out as an escape (`\x1b`, `\r`, `\u{202e}`), so it prints as
 * what it is and does nothing to the terminal. Tabs stay; line feeds stay only with `multiline` (message and
 * artifact text, which may hold several lines).
 *
 * @example
 * terminalText("done\x1b[2J\rok") // "done\\x1b[2J\\rok"
 * terminalText("line 1\nline 2", { multiline: true }) // unchanged
 */
export const terminalText = (text: string, options: { readonly multiline?: boolean } = {}): string =>
  text.replace(options.multiline === true ? unsafeMultiline : unsafeLine, escape)

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A copy of a value received from an agent (card, Task, Message, stream event) with {@link terminalText}
 * applied to every string and key, for the human-readable printers. A text part's `text` keeps its line feeds;
 * a data part's `data` is left for its printer, which escapes the JSON it writes.
 */
export const forTerminal = <A>(value: A): A => walk(value, false) as A

const walk = (u: unknown, multiline: boolean): unknown => {
  if (typeof u === "string") return terminalText(u, { multiline })
  if (Array.isArray(u)) return u.map((v) => walk(v, false))
  if (!isRecord(u)) return u
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(u)) {
    const raw = u["kind"] === "data" && key === "data"
    // Defined, not assigned: a key `__proto__` stays a key.
    Object.defineProperty(out, terminalText(key), {
      value: raw ? value : walk(value, u["kind"] === "text" && key === "text"),
      enumerable: true,
      writable: true,
      configurable: true
    })
  }
  return out
}
