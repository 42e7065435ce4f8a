/**
 * Fresh ids (random UUIDs, version 4) for tasks, contexts, messages and artifacts.
 *
 * Node's `crypto.randomUUID` returns its UUID as a chain of 36 concatenated pieces, which V8 keeps as
 * they are: about 430 bytes more per id than the flat 36 characters, for as long as the id lives (every
 * stored task holds several), copied by every garbage collection it survives and walked again by every
 * write of it. These ids are written from cryptographically random bytes into one buffer and decoded as
 * a single flat string, in the same format on every runtime.
 */

const hex = new Uint8Array(512)
for (let i = 0; i < 256; i++) {
  const digits = i.toString(16).padStart(2, "0")
  hex[2 * i] = digits.charCodeAt(0)
  hex[2 * i + 1] = digits.charCodeAt(1)
}
/** Where each random byte's two hex digits go in `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`. */
const at = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]
const text = new Uint8Array(36)
text[8] = text[13] = text[18] = text[23] = 0x2d // "-"
const decoder = new TextDecoder()
// Random bytes for 256 ids at a time: one call to the system's generator, not one per id.
const pool = new Uint8Array(16 * 256)
let next = pool.length

/** A random UUID (RFC 9562 version 4), e.g. `"3b241101-e2bb-4255-8caf-4136c566a962"`. */
export const freshId = (): string => {
  if (next === pool.length) {
    crypto.getRandomValues(pool)
    next = 0
  }
  const base = next
  next += 16
  pool[base + 6] = (pool[base + 6]! & 0x0f) | 0x40 // version 4
  pool[base + 8] = (pool[base + 8]! & 0x3f) | 0x80 // variant 10
  for (let i = 0; i < 16; i++) {
    const b = pool[base + i]!
    const to = at[i]!
    text[to] = hex[2 * b]!
    text[to + 1] = hex[2 * b + 1]!
  }
  return decoder.decode(text)
}
