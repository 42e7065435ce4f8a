import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { FilePart, FileWithBytes, Part } from "./parts.ts"

const decode = Schema.decodeUnknownEither(Part)

describe("Part decoding", () => {
  it("decodes each kind as given", () => {
    expect(decode({ kind: "text", text: "hi" })).toEqual(Either.right({ kind: "text", text: "hi" }))
    expect(decode({ kind: "data", data: { n: 1 } })).toEqual(Either.right({ kind: "data", data: { n: 1 } }))
  })

  it("refuses a part without kind, even when its fields would make the kind unambiguous", () => {
    for (const part of [{ text: "hi" }, { file: { uri: "https://x/f", mimeType: "text/plain" } }, { data: { n: 1 } }]) {
      expect(Either.isLeft(decode(part)), JSON.stringify(part)).toBe(true)
    }
    expect(Either.isLeft(decode({ text: "hi", data: {} }))).toBe(true)
    expect(Either.isLeft(decode({ metadata: {} }))).toBe(true)
  })

  it("refuses a part whose kind contradicts its fields, rather than guessing from the fields", () => {
    expect(Either.isLeft(decode({ kind: "text", file: { uri: "u" } }))).toBe(true)
    expect(Either.isLeft(decode({ kind: "image", text: "hi" }))).toBe(true)
  })

  it("refuses wrong field types", () => {
    expect(Either.isLeft(decode({ kind: "text", text: 1 }))).toBe(true)
    expect(Either.isLeft(decode({ kind: "data", data: [1, 2] }))).toBe(true)
    expect(Either.isLeft(decode({ kind: "data", data: "x" }))).toBe(true)
  })
})

describe("FilePart (stricter than upstream's JSON Schema: exactly one of bytes and uri)", () => {
  const decodeFile = Schema.decodeUnknownEither(FilePart)

  it("accepts bytes alone and uri alone", () => {
    expect(Either.isRight(decodeFile({ kind: "file", file: { bytes: "aGk=" } }))).toBe(true)
    expect(Either.isRight(decodeFile({ kind: "file", file: { uri: "https://x/f" } }))).toBe(true)
  })

  it("refuses both, and neither", () => {
    expect(Either.isLeft(decodeFile({ kind: "file", file: { bytes: "aGk=", uri: "https://x/f" } }))).toBe(true)
    expect(Either.isLeft(decodeFile({ kind: "file", file: { name: "f" } }))).toBe(true)
  })

  it("names the offending field in the error", () => {
    const result = Schema.decodeUnknownEither(FileWithBytes)({ bytes: "aGk=", uri: "u" })
    expect(Either.isLeft(result) && result.left.message).toContain('["uri"]')
  })
})
