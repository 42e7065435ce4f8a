import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { FilePart, FileWithBytes, Part } from "./parts.ts"

const decode = Schema.decodeUnknownResult(Part)

describe("Part decoding", () => {
  it("decodes each kind as given", () => {
    expect(decode({ kind: "text", text: "hi" })).toEqual(Result.succeed({ kind: "text", text: "hi" }))
    expect(decode({ kind: "data", data: { n: 1 } })).toEqual(Result.succeed({ kind: "data", data: { n: 1 } }))
  })

  it("refuses a part without kind, even when its fields would make the kind unambiguous", () => {
    for (const part of [{ text: "hi" }, { file: { uri: "https://x/f", mimeType: "text/plain" } }, { data: { n: 1 } }]) {
      expect(Result.isFailure(decode(part)), JSON.stringify(part)).toBe(true)
    }
    expect(Result.isFailure(decode({ text: "hi", data: {} }))).toBe(true)
    expect(Result.isFailure(decode({ metadata: {} }))).toBe(true)
  })

  it("refuses a part whose kind contradicts its fields, rather than guessing from the fields", () => {
    expect(Result.isFailure(decode({ kind: "text", file: { uri: "u" } }))).toBe(true)
    expect(Result.isFailure(decode({ kind: "image", text: "hi" }))).toBe(true)
  })

  it("refuses wrong field types", () => {
    expect(Result.isFailure(decode({ kind: "text", text: 1 }))).toBe(true)
    expect(Result.isFailure(decode({ kind: "data", data: [1, 2] }))).toBe(true)
    expect(Result.isFailure(decode({ kind: "data", data: "x" }))).toBe(true)
  })
})

describe("FilePart (stricter than upstream's JSON Schema: exactly one of bytes and uri)", () => {
  const decodeFile = Schema.decodeUnknownResult(FilePart)

  it("accepts bytes alone and uri alone", () => {
    expect(Result.isSuccess(decodeFile({ kind: "file", file: { bytes: "aGk=" } }))).toBe(true)
    expect(Result.isSuccess(decodeFile({ kind: "file", file: { uri: "https://x/f" } }))).toBe(true)
  })

  it("refuses both, and neither", () => {
    expect(Result.isFailure(decodeFile({ kind: "file", file: { bytes: "aGk=", uri: "https://x/f" } }))).toBe(true)
    expect(Result.isFailure(decodeFile({ kind: "file", file: { name: "f" } }))).toBe(true)
  })

  it("names the offending field in the error", () => {
    const result = Schema.decodeUnknownResult(FileWithBytes)({ bytes: "aGk=", uri: "u" })
    expect(Result.isFailure(result) && result.failure.message).toContain('["uri"]')
  })
})
