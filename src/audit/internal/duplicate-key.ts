/**
 * Duplicate member names in JSON text. `JSON.parse` keeps the last of two equal names without a
 * word, while other readers keep the first: a line with duplicates can show one reader different
 * content than the one that was hashed.
 *
 * @module
 */

/**
 * The first member name that occurs twice in one object of `text` (names compared after
 * unescaping, so `"a"` and `"\u0061"` collide), or `undefined`. `text` must be valid JSON.
 */
export const firstDuplicateKey = (text: string): string | undefined => {
  // One entry per open container: the names seen so far in an object, `null` for an array.
  const open: Array<Set<string> | null> = []
  let expectName = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') {
      let end = i + 1
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1
      const names = open.at(-1)
      if (expectName && names !== undefined && names !== null) {
        const name = JSON.parse(text.slice(i, end + 1)) as string
        if (names.has(name)) return name
        names.add(name)
      }
      expectName = false
      i = end
    } else if (c === "{") {
      open.push(new Set())
      expectName = true
    } else if (c === "[") {
      open.push(null)
      expectName = false
    } else if (c === "}" || c === "]") {
      open.pop()
      expectName = false
    } else if (c === ",") {
      const top = open.at(-1)
      expectName = top !== undefined && top !== null
    }
  }
  return undefined
}
