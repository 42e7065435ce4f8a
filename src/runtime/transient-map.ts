/**
 * A `Map` for entries that come and go all the time (one per task), whose values must not outlive their
 * entry.
 *
 * V8 replaces a `Map`'s hash table whenever deleted entries fill it, and the table it replaces keeps the
 * entries it held then, with a link to its successor. Those old tables are garbage, but once one of them
 * has reached the old generation, a young collection treats it as alive: every later table, and every
 * value any of them held, survives until the next full collection. A registry of live tasks then keeps
 * every task it ever held for a while; in a blocking send about a third of what a task allocated was
 * copied by young collections and promoted this way. Here each value sits in a slot that is emptied when
 * its entry goes, so an old table holds only an empty slot and its key.
 *
 * Keys are kept as they are: use it with small keys (ids), not with objects that hold much.
 */
interface Slot<V> {
  value: V | undefined
}

export class TransientMap<K, V> {
  readonly #slots = new Map<K, Slot<V>>()

  get size(): number {
    return this.#slots.size
  }

  get(key: K): V | undefined {
    return this.#slots.get(key)?.value
  }

  has(key: K): boolean {
    return this.#slots.has(key)
  }

  set(key: K, value: V): this {
    const slot = this.#slots.get(key)
    if (slot === undefined) this.#slots.set(key, { value })
    else slot.value = value
    return this
  }

  delete(key: K): boolean {
    const slot = this.#slots.get(key)
    if (slot === undefined) return false
    slot.value = undefined
    return this.#slots.delete(key)
  }

  /** Entries in insertion order (a value set again keeps its place). */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, slot] of this.#slots) yield [key, slot.value as V]
  }

  *values(): IterableIterator<V> {
    for (const slot of this.#slots.values()) yield slot.value as V
  }
}
