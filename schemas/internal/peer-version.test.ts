import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import effectPackage from "effect/package.json" with { type: "json" }
import xstatePackage from "xstate/package.json" with { type: "json" }
import { describe, expect, it } from "vitest"
import { requirePeer, satisfies, supportedPeers, unsupportedPeer } from "./peer-version.ts"

const pkg = JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as {
  peerDependencies: Record<string, string>
}

describe("supported peer versions", () => {
  it("are the peer dependencies package.json declares", () => {
    expect(supportedPeers).toEqual(pkg.peerDependencies)
  })

  it("include the effect and xstate this repository is tested with", () => {
    expect(unsupportedPeer("effect", effectPackage.version)).toBeUndefined()
    expect(unsupportedPeer("xstate", xstatePackage.version)).toBeUndefined()
  })

  it("~M.m.p keeps the major and minor, from the patch up", () => {
    expect(["4.1.0", "4.1.9", "4.1.12"].map((v) => satisfies(v, "~4.1.0"))).toEqual([true, true, true])
    expect(["4.0.9", "4.2.0", "3.22.4", "5.1.0", "4.1.0-beta.1", "4.1", "x"].map((v) => satisfies(v, "~4.1.0")))
      .toEqual([false, false, false, false, false, false, false])
  })

  it("^M.m.p keeps the major, from the minor and patch up", () => {
    expect(["5.33.0", "5.33.3", "5.40.0"].map((v) => satisfies(v, "^5.33.0"))).toEqual([true, true, true])
    expect(["5.32.9", "6.0.0", "4.38.0", "5.34.0-rc.1"].map((v) => satisfies(v, "^5.33.0")))
      .toEqual([false, false, false, false])
  })

  it("refuse another version with a message naming the loaded version and the supported range", () => {
    expect(() => requirePeer("effect", "3.22.4")).toThrow(
      "a2a-actors supports effect ~4.1.0, but effect 3.22.4 was loaded. Your code and a2a-actors must share " +
        "one copy of effect in that range: install it, e.g. `npm install effect@~4.1.0`."
    )
    expect(() => requirePeer("xstate", "4.38.3")).toThrow("a2a-actors supports xstate ^5.33.0, but xstate 4.38.3 was loaded.")
    expect(() => requirePeer("effect", "4.1.2")).not.toThrow()
  })
})
