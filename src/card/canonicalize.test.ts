import { describe, expect, it } from "vitest"
import { CanonicalizeError, canonicalBytes, canonicalize } from "./canonicalize.ts"

// Expected outputs are the published examples of RFC 8785 (sections 3.2.2, 3.2.3, appendix B).

const fromIeeeHex = (hex: string): number => {
  const view = new DataView(new ArrayBuffer(8))
  view.setBigUint64(0, BigInt(`0x${hex}`))
  return view.getFloat64(0)
}

describe("canonicalize (RFC 8785)", () => {
  it("serialises the section 3.2.2 example", () => {
    const input = JSON.parse(
      `{
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
        "literals": [null, true, false]
      }`
    )
    expect(canonicalize(input)).toBe(
      `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],` +
        `"string":"\u20ac$\\u000f\\nA'B\\"\\\\\\\\\\"/"}`
    )
  })

  it("sorts members by UTF-16 code units (section 3.2.3)", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }
    expect(canonicalize(input)).toBe(
      `{"\\r":"Carriage Return","1":"One","\u0080":"Control",` +
        `"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",` +
        `"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}`
    )
  })

  it("emits UTF-8 bytes (section 3.2.4 shape: no BOM, raw non-ASCII)", () => {
    expect(Array.from(canonicalBytes({ "\u20ac": "\u00f6" }))).toEqual([
      0x7b, 0x22, 0xe2, 0x82, 0xac, 0x22, 0x3a, 0x22, 0xc3, 0xb6, 0x22, 0x7d
    ])
  })

  const numbers: ReadonlyArray<readonly [string, string]> = [
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"]
  ]
  it.each(numbers)("serialises IEEE 754 %s as %s (appendix B)", (hex, text) => {
    expect(canonicalize(fromIeeeHex(hex))).toBe(text)
  })

  it.each(["7fffffffffffffff", "7ff0000000000000"])("refuses NaN/Infinity %s", (hex) => {
    expect(() => canonicalize(fromIeeeHex(hex))).toThrow(CanonicalizeError)
  })

  it("escapes controls with lowercase hex and keeps '/' and DEL unescaped", () => {
    expect(canonicalize("\u0000\u001f/\u007f\b\t\n\f\r")).toBe('"\\u0000\\u001f/\u007f\\b\\t\\n\\f\\r"')
  })

  it("refuses lone surrogates, cycles and non-plain values", () => {
    expect(() => canonicalize("\ud800")).toThrow(CanonicalizeError)
    expect(() => canonicalize({ k: "a\udc00" })).toThrow(CanonicalizeError)
    const cyclic: Record<string, unknown> = {}
    cyclic["self"] = cyclic
    expect(() => canonicalize(cyclic)).toThrow(CanonicalizeError)
    expect(() => canonicalize(new Date(0))).toThrow(CanonicalizeError)
    expect(() => canonicalize(1n)).toThrow(CanonicalizeError)
    expect(() => canonicalize([undefined])).toThrow(CanonicalizeError)
  })

  it("with loneSurrogates: escape, writes lone surrogates as escapes that parse back to the same string", () => {
    const value = { "\udc00k": ["\ud800", "a\udfff\u0001", "\ud83d\ude00"] }
    const text = canonicalize(value, { loneSurrogates: "escape" })
    expect(text).toBe('{"\\udc00k":["\\ud800","a\\udfff\\u0001","\ud83d\ude00"]}')
    expect(JSON.parse(text)).toEqual(value)
    expect(canonicalize(JSON.parse(text), { loneSurrogates: "escape" })).toBe(text)
    // Values without lone surrogates are unaffected by the option.
    expect(canonicalize({ b: "\ud83d\ude00\n", a: 1 }, { loneSurrogates: "escape" })).toBe(canonicalize({ b: "\ud83d\ude00\n", a: 1 }))
  })

  it("drops undefined members, nests without whitespace and allows shared (non-cyclic) values", () => {
    const shared = { z: 1, a: [] }
    expect(canonicalize({ b: shared, a: shared, u: undefined })).toBe('{"a":{"a":[],"z":1},"b":{"a":[],"z":1}}')
  })
})
