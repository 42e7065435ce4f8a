import { describe, expect, it } from "vitest"
import { freshId } from "./fresh-id.ts"

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("freshId", () => {
  it("is a version 4 UUID, different every time, across refills of its random pool", () => {
    const ids = Array.from({ length: 2_000 }, freshId)
    for (const id of ids) expect(id).toMatch(uuidV4)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("uses every hex digit in each random position (the bytes are random, not a counter)", () => {
    const seen = Array.from({ length: 36 }, () => new Set<string>())
    for (let i = 0; i < 2_000; i++) {
      const id = freshId()
      for (let c = 0; c < 36; c++) seen[c]!.add(id[c]!)
    }
    for (let c = 0; c < 36; c++) {
      const expected = [8, 13, 18, 23].includes(c) ? 1 : c === 14 ? 1 : c === 19 ? 4 : 16
      expect(seen[c]!.size, `position ${c}`).toBe(expected)
    }
  })
})
