/**
 * Remembers the `jti` of every accepted push token until the token expires, so a captured
 * notification cannot be played again. Bounded: when full of live entries it refuses new tokens
 * (fail closed) rather than forgetting live ones, which would reopen the replay window.
 *
 * @module
 */
import { Clock, Effect } from "effect"

/** The result of offering a `jti`. */
export type ReplayVerdict = "fresh" | "replayed" | "full"

/**
 * Where seen token ids live. The in-memory cache suits one receiver process; receivers behind a load
 * balancer plug in a shared store (e.g. Redis `SET NX PX`).
 */
export interface ReplayCache {
  /** Records `jti` until `expiresAtMs`; says whether it was new. */
  readonly remember: (jti: string, expiresAtMs: number) => Effect.Effect<ReplayVerdict>
}

/**
 * An in-memory replay cache holding at most `maxEntries` (default 10 000) live token ids; expired
 * ids are dropped when room is needed. Time comes from Effect's Clock.
 */
export const memoryReplayCache = (options: { readonly maxEntries?: number } = {}): ReplayCache => {
  const maxEntries = options.maxEntries ?? 10_000
  const seen = new Map<string, number>()
  const prune = (now: number) => {
    for (const [jti, expiresAt] of seen) if (expiresAt <= now) seen.delete(jti)
  }
  return {
    remember: (jti, expiresAtMs) =>
      Effect.map(Clock.currentTimeMillis, (now): ReplayVerdict => {
        const known = seen.get(jti)
        if (known !== undefined && known > now) return "replayed"
        if (seen.size >= maxEntries) prune(now)
        if (seen.size >= maxEntries) return "full"
        seen.set(jti, expiresAtMs)
        return "fresh"
      })
  }
}
