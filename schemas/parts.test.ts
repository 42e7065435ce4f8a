import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { FilePart, FileWithBytes, Part } from "./parts.ts"

const decode = Schema.decodeUnknownEither(Part)

describe("Part decoding", () => {
  it("accepts a part without kind when exactly one of text, file, data is present, and adds kind", () => {
    expect(decode({ text: "hi" })).toEqual(Either.right({ kind: "text", text: "hi" }))
    expect(decode({ file: { uri: "https://x/f", mimeType: "text/plain" }, metadata: { a: 1 } })).toEqual(
      Either.right({ kind: "file", file: { uri: "https://x/f", mimeType: "text/plain" }, metadata: { a: 1 } })
    )
    expect(decode({ data: { n: 1 } })).toEqual(Either.right({ kind: "data", data: { n: 1 } }))
  })

  it("encodes a part leniently decoded with kind", () => {
    const part = Schema.decodeUnknownSync(Part)({ text: "hi" })
    expect(Schema.encodeSync(Part)(part)).toEqual({ kind: "text", text: "hi" })
  })

  it("refuses a part without kind whose fields are ambiguous or missing", () => {
    expect(Either.isLeft(decode({ text: "hi", data: {} }))).toBe(true)
    expect(Either.isLeft(decode({ text: "hi", file: { uri: "u" } }))).toBe(true)
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
