/**
 * A persistent append-only sequence with O(1) amortised append.
 *
 * Task histories and artifact chunk streams only ever grow, and a task host keeps just its newest
 * snapshot, so copying a whole array per event (what a naive immutable update does) makes a long
 * stream quadratic. Instead every log value shares one backing array and remembers its own length:
 * the value that reaches the end of the backing array may push in place; an older value that is
 * appended to again (a branch, as in tests that step the same snapshot twice) copies its prefix first.
 * Readers never see items beyond their own `length`, so each value behaves as an immutable list.
 *
 * @internal
 */
export interface AppendLog<T> {
  /** Shared backing array; only indices below `length` belong to this value. */
  readonly items: Array<T>
  readonly length: number
}

/** An empty log (fresh backing array, so independent logs never share). */
export const emptyLog = <T>(): AppendLog<T> => ({ items: [], length: 0 })

/** A log holding a copy of `xs`. */
export const logFrom = <T>(xs: ReadonlyArray<T>): AppendLog<T> => ({ items: xs.slice(), length: xs.length })

/** `log` followed by `item`; never changes what `log` (or any other value) reads. */
export const append = <T>(log: AppendLog<T>, item: T): AppendLog<T> => {
  const items = log.items.length === log.length ? log.items : log.items.slice(0, log.length)
  items.push(item)
  return { items, length: log.length + 1 }
}

/** A fresh array with the log's items, safe to hand out (later appends never touch it). */
export const toArray = <T>(log: AppendLog<T>): Array<T> => log.items.slice(0, log.length)
