import { append, emptyLog, type AppendLog } from "./append-log.ts"

/**
 * A persistent set that only grows, with O(1) `add` and `has`.
 *
 * The members are an {@link AppendLog} and an index from member to position shared by every set on
 * the same backing array: an entry counts for a set only when it lies below that set's length, since
 * all those sets hold the same prefix. A set that branches off an older one (the log copies its
 * prefix) gets an index of its own. Every value therefore behaves as an immutable set.
 *
 * @internal
 */
export interface GrowOnlySet<T> {
  readonly members: AppendLog<T>
  readonly at: Map<T, number>
}

/** A set with no members. */
export const emptySet = <T>(): GrowOnlySet<T> => ({ members: emptyLog(), at: new Map() })

/** Whether `x` belongs to `set`. */
export const has = <T>(set: GrowOnlySet<T>, x: T): boolean => {
  const i = set.at.get(x)
  return i !== undefined && i < set.members.length
}

/** `set` with `x`; never changes what `set` (or any other value) reads. */
export const add = <T>(set: GrowOnlySet<T>, x: T): GrowOnlySet<T> => {
  if (has(set, x)) return set
  const members = append(set.members, x)
  const at = members.items === set.members.items ? set.at : indexOf(members)
  at.set(x, members.length - 1)
  return { members, at }
}

const indexOf = <T>(members: AppendLog<T>): Map<T, number> => {
  const at = new Map<T, number>()
  for (let i = 0; i < members.length - 1; i++) at.set(members.items[i]!, i)
  return at
}
