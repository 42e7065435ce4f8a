/**
 * The peer packages a2a-actors shares with the code that uses it, and the versions it supports. Agents
 * and workflows are written with the application's own `effect` and `xstate`: a second copy of another
 * version would make the application's Effects and machines foreign to the runtime, which then fails far
 * from the cause. The entry points therefore check, before anything else runs, that the copy they load
 * is in the supported range, and otherwise stop with a message naming that range.
 *
 * @module
 */

/** Each peer dependency and its supported range, as package.json declares them. */
export const supportedPeers = {
  effect: "~4.1.0",
  xstate: "^5.33.0",
  "@effect/platform-node": "~4.1.0",
  "@effect/sql-pg": "^4.0.5"
} as const

/** A peer package a2a-actors checks. */
export type Peer = keyof typeof supportedPeers

const numbers = (version: string): readonly [number, number, number] | undefined => {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version)
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])]
}

/**
 * Whether `version` satisfies `range`, for the two range forms package.json uses here: `~M.m.p` (same
 * major and minor, patch at least p) and `^M.m.p` with M > 0 (same major, at least m.p). Pre-releases
 * never satisfy, as in npm.
 */
export const satisfies = (version: string, range: string): boolean => {
  const found = numbers(version)
  const wanted = numbers(range.slice(1))
  if (found === undefined || wanted === undefined) return false
  const [major, minor, patch] = found
  const [wantedMajor, wantedMinor, wantedPatch] = wanted
  if (major !== wantedMajor) return false
  if (range.startsWith("~")) return minor === wantedMinor && patch >= wantedPatch
  if (range.startsWith("^") && wantedMajor > 0) return minor > wantedMinor || (minor === wantedMinor && patch >= wantedPatch)
  return false
}

/** Why the loaded `version` of `peer` cannot be used, or undefined when it is supported. */
export const unsupportedPeer = (peer: Peer, version: string): string | undefined => {
  const range = supportedPeers[peer]
  if (satisfies(version, range)) return undefined
  return `a2a-actors supports ${peer} ${range}, but ${peer} ${version} was loaded. ` +
    `Your code and a2a-actors must share one copy of ${peer} in that range: ` +
    `install it, e.g. \`npm install ${peer}@${range}\`.`
}

/** Stops the import of an entry point when the loaded `version` of `peer` is not supported. */
export const requirePeer = (peer: Peer, version: string): void => {
  const problem = unsupportedPeer(peer, version)
  if (problem !== undefined) throw new Error(problem)
}
