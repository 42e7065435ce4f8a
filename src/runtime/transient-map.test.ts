import { describe, expect, it } from "vitest"
import { TransientMap } from "./transient-map.ts"

describe("TransientMap", () => {
  it("keeps a Map's answers and insertion order", () => {
    const m = new TransientMap<string, { n: number }>()
    const a = { n: 1 }
    m.set("a", a).set("b", { n: 2 }).set("c", { n: 3 })
    expect(m.size).toBe(3)
    expect(m.get("a")).toBe(a)
    expect(m.has("b")).toBe(true)
    expect(m.delete("b")).toBe(true)
    expect(m.delete("b")).toBe(false)
    expect(m.has("b")).toBe(false)
    expect(m.get("b")).toBeUndefined()
    // A value set again keeps its place; one deleted and set again goes last.
    m.set("a", { n: 10 })
    m.set("b", { n: 20 })
    expect([...m.entries()].map(([k, v]) => `${k}${v.n}`)).toEqual(["a10", "c3", "b20"])
    expect([...m.values()].map((v) => v.n)).toEqual([10, 3, 20])
    m.delete("a")
    m.delete("c")
    m.delete("b")
    expect([...m.entries()]).toEqual([])
    expect(m.size).toBe(0)
  })

  it("keeps undefined as a value apart from a missing key", () => {
    const m = new TransientMap<string, undefined | number>()
    m.set("x", undefined)
    expect(m.has("x")).toBe(true)
    expect(m.size).toBe(1)
  })
})
