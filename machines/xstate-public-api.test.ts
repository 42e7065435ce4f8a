import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../", import.meta.url))
const self = fileURLToPath(import.meta.url)

const sources = (dir: string): Array<string> =>
  readdirSync(`${root}${dir}`, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `${root}${dir}/${f}`)
    .filter((f) => f !== self)

/**
 * What only XState's internals offer: snapshot and actor fields, the actor scope its interpreter passes
 * around, the machine's own stepping and resolving methods (the documented ones are `createActor`,
 * `initialTransition` and `transition`; a stored state is found among the snapshots these returned), the
 * deprecated helpers built on an inert actor scope, and files inside the package.
 */
const internals: ReadonlyArray<readonly [string, RegExp]> = [
  ["a private field (snapshot._nodes, actor._snapshot, ...)", /\._(?!tag\b)[A-Za-z]\w*/],
  ["the _nodes of a snapshot", /\b_nodes\b/],
  ["an actor scope", /\b(?:Any)?ActorScope\b/],
  ["resolveState (a snapshot built from a state value)", /\bresolveState\b/],
  ["a helper built on an inert actor scope", /\b(?:getNextSnapshot|createInertActorScope|macrostep)\b/],
  ["getInitialSnapshot", /\bgetInitialSnapshot\(/],
  ["a machine's transition method", /\.(?:transition|microstep|getTransitionData|restoreSnapshot)\(/],
  ["the root state node", /\.root\b/],
  ["an __unsafe_ export", /__unsafe_/],
  ["a file inside the package", /["']xstate\/dist/]
]

describe("XState use", () => {
  it("goes through its public, documented API only, in machines/, src/ and bench/", () => {
    const found: Array<string> = []
    for (const file of [...sources("machines"), ...sources("src"), ...sources("bench")]) {
      readFileSync(file, "utf8").split("\n").forEach((line, i) => {
        for (const [what, pattern] of internals) {
          if (pattern.test(line)) found.push(`${file.slice(root.length)}:${i + 1}: ${what}: ${line.trim()}`)
        }
      })
    }
    expect(found).toEqual([])
  })
})
