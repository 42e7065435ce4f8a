import { describe, expect, it } from "vitest"
import { add, emptySet, has, type GrowOnlySet } from "./grow-only-set.ts"

const members = (set: GrowOnlySet<string>, candidates: ReadonlyArray<string>) => candidates.filter((x) => has(set, x))

describe("grow-only set", () => {
  it("holds what was added, in this set and the later ones only", () => {
    const a = add(emptySet<string>(), "a")
    const ab = add(a, "b")
    expect(members(a, ["a", "b"])).toEqual(["a"])
    expect(members(ab, ["a", "b", "c"])).toEqual(["a", "b"])
  })

  it("gives the same set back for a member added again", () => {
    const a = add(emptySet<string>(), "a")
    expect(add(a, "a")).toBe(a)
  })

  it("keeps branches apart when an older set grows twice", () => {
    const base = add(emptySet<string>(), "a")
    const left = add(base, "l")
    const right = add(base, "r")
    const rightMore = add(right, "l")
    expect(members(base, ["a", "l", "r"])).toEqual(["a"])
    expect(members(left, ["a", "l", "r"])).toEqual(["a", "l"])
    expect(members(right, ["a", "l", "r"])).toEqual(["a", "r"])
    expect(members(rightMore, ["a", "l", "r"])).toEqual(["a", "l", "r"])
    expect(members(left, ["a", "l", "r"])).toEqual(["a", "l"])
  })

  it("adds in place while a set is the newest of its line", () => {
    const a = add(emptySet<string>(), "a")
    const ab = add(a, "b")
    expect(ab.members.items).toBe(a.members.items)
    expect(ab.at).toBe(a.at)
  })
})
