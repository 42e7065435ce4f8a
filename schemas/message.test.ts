import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Message } from "./message.ts"
import { TaskQueryParams, MessageSendParams } from "./params.ts"
import { TaskState } from "./task.ts"

const message = { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] }
const decodeMessage = Schema.decodeUnknownEither(Message)

describe("Message", () => {
  it("decodes a minimal message unchanged", () => {
    expect(decodeMessage(message)).toEqual(Either.right(message))
  })

  it.each(["messageId", "role", "parts", "kind"])("refuses a message without %s", (field) => {
    const { [field]: _omitted, ...rest } = message as Record<string, unknown>
    expect(Either.isLeft(decodeMessage(rest))).toBe(true)
  })

  it("refuses an empty parts array (CONFORMANCE.md: -32602; upstream allows it)", () => {
    expect(Either.isLeft(decodeMessage({ ...message, parts: [] }))).toBe(true)
  })

  it("refuses non-string ids", () => {
    expect(Either.isLeft(decodeMessage({ ...message, messageId: 1 }))).toBe(true)
    expect(Either.isLeft(decodeMessage({ ...message, taskId: 1 }))).toBe(true)
    expect(Either.isLeft(decodeMessage({ ...message, contextId: null }))).toBe(true)
  })

  it("refuses an unknown role", () => {
    expect(Either.isLeft(decodeMessage({ ...message, role: "system" }))).toBe(true)
  })

  it("drops unknown extra fields instead of failing (peers add their own)", () => {
    expect(decodeMessage({ ...message, vendor: { x: 1 } })).toEqual(Either.right(message))
  })
})

describe("params", () => {
  const decodeQuery = Schema.decodeUnknownEither(TaskQueryParams)

  it("accepts historyLength 0 and positive integers", () => {
    expect(Either.isRight(decodeQuery({ id: "t", historyLength: 0 }))).toBe(true)
    expect(Either.isRight(decodeQuery({ id: "t", historyLength: 5 }))).toBe(true)
  })

  it("refuses a negative or fractional historyLength (CONFORMANCE.md: -32602)", () => {
    expect(Either.isLeft(decodeQuery({ id: "t", historyLength: -1 }))).toBe(true)
    expect(Either.isLeft(decodeQuery({ id: "t", historyLength: 1.5 }))).toBe(true)
    const send = Schema.decodeUnknownEither(MessageSendParams)
    expect(Either.isLeft(send({ message, configuration: { historyLength: -2 } }))).toBe(true)
  })

  it("refuses a non-string task id", () => {
    expect(Either.isLeft(decodeQuery({ id: 42 }))).toBe(true)
  })
})

describe("TaskState", () => {
  it("includes unknown and refuses other strings", () => {
    expect(Schema.is(TaskState)("unknown")).toBe(true)
    expect(Schema.is(TaskState)("cancelled")).toBe(false)
  })
})
