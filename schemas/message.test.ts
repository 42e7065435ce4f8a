import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Message } from "./message.ts"
import { TaskQueryParams, MessageSendParams } from "./params.ts"
import { TaskState } from "./task.ts"

const message = { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] }
const decodeMessage = Schema.decodeUnknownResult(Message)

describe("Message", () => {
  it("decodes a minimal message unchanged", () => {
    expect(decodeMessage(message)).toEqual(Result.succeed(message))
  })

  it.each(["messageId", "role", "parts", "kind"])("refuses a message without %s", (field) => {
    const { [field]: _omitted, ...rest } = message as Record<string, unknown>
    expect(Result.isFailure(decodeMessage(rest))).toBe(true)
  })

  it("refuses an empty parts array (CONFORMANCE.md: -32602; upstream allows it)", () => {
    expect(Result.isFailure(decodeMessage({ ...message, parts: [] }))).toBe(true)
  })

  it("refuses non-string ids", () => {
    expect(Result.isFailure(decodeMessage({ ...message, messageId: 1 }))).toBe(true)
    expect(Result.isFailure(decodeMessage({ ...message, taskId: 1 }))).toBe(true)
    expect(Result.isFailure(decodeMessage({ ...message, contextId: null }))).toBe(true)
  })

  it("refuses an unknown role", () => {
    expect(Result.isFailure(decodeMessage({ ...message, role: "system" }))).toBe(true)
  })

  it("drops unknown extra fields instead of failing (peers add their own)", () => {
    expect(decodeMessage({ ...message, vendor: { x: 1 } })).toEqual(Result.succeed(message))
  })
})

describe("params", () => {
  const decodeQuery = Schema.decodeUnknownResult(TaskQueryParams)

  it("accepts historyLength 0 and positive integers", () => {
    expect(Result.isSuccess(decodeQuery({ id: "t", historyLength: 0 }))).toBe(true)
    expect(Result.isSuccess(decodeQuery({ id: "t", historyLength: 5 }))).toBe(true)
  })

  it("refuses a negative or fractional historyLength (CONFORMANCE.md: -32602)", () => {
    expect(Result.isFailure(decodeQuery({ id: "t", historyLength: -1 }))).toBe(true)
    expect(Result.isFailure(decodeQuery({ id: "t", historyLength: 1.5 }))).toBe(true)
    const send = Schema.decodeUnknownResult(MessageSendParams)
    expect(Result.isFailure(send({ message, configuration: { historyLength: -2 } }))).toBe(true)
  })

  it("refuses a non-string task id", () => {
    expect(Result.isFailure(decodeQuery({ id: 42 }))).toBe(true)
  })
})

describe("TaskState", () => {
  it("includes unknown and refuses other strings", () => {
    expect(Schema.is(TaskState)("unknown")).toBe(true)
    expect(Schema.is(TaskState)("cancelled")).toBe(false)
  })
})
