import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  AuthenticatedExtendedCardNotConfigured,
  catalogue,
  ContentTypeNotSupported,
  fromWireError,
  Internal,
  InvalidAgentResponse,
  InvalidParams,
  InvalidRequest,
  isProtocolError,
  JSONParse,
  MethodNotFound,
  PushNotificationNotSupported,
  RemoteError,
  TaskNotCancelable,
  TaskNotFound,
  toWireError,
  UnsupportedOperation,
  ExtensionSupportRequired,
  VersionNotSupported
} from "./error-catalogue.ts"
import { A2AError, JSONRPCError } from "./wire-errors.ts"

const expected = [
  [JSONParse, -32700, 400],
  [InvalidRequest, -32600, 400],
  [MethodNotFound, -32601, 404],
  [InvalidParams, -32602, 400],
  [Internal, -32603, 500],
  [TaskNotFound, -32001, 404],
  [TaskNotCancelable, -32002, 409],
  [PushNotificationNotSupported, -32003, 400],
  [UnsupportedOperation, -32004, 400],
  [ContentTypeNotSupported, -32005, 415],
  [InvalidAgentResponse, -32006, 502],
  [AuthenticatedExtendedCardNotConfigured, -32007, 404],
  [ExtensionSupportRequired, -32008, 400],
  [VersionNotSupported, -32009, 400]
] as const

describe("error catalogue", () => {
  it("lists every A2A error once", () => {
    expect(catalogue.map((c) => c.code)).toEqual(expected.map(([, code]) => code))
  })

  it.each(expected)("%o has its code and HTTP status, static and on instances", (Class, code, status) => {
    const e = new Class({ message: "detail" })
    expect([Class.code, Class.httpStatus]).toEqual([code, status])
    expect([e.code, e.httpStatus]).toEqual([code, status])
    expect(e.message).toBe("detail")
    expect(isProtocolError(e)).toBe(true)
  })

  it("defaults the message to upstream's text", () => {
    expect(new TaskNotFound().message).toBe("Task not found")
    expect(new TaskNotCancelable({}).message).toBe("Task cannot be canceled")
  })

  it.each(expected)("%o survives toWireError then fromWireError", (Class, code) => {
    const e = new Class({ message: "m", data: { taskId: "t1" } })
    const wire = toWireError(e)
    expect(wire).toEqual({ code, message: "m", data: { taskId: "t1" } })
    // What we emit is the specific upstream error shape, not just any JSON-RPC error (0.3 has no -32008, -32009).
    expect(Schema.decodeUnknownSync(code > -32008 || code < -32099 ? A2AError : JSONRPCError)(wire)).toEqual(wire)
    const back = fromWireError(wire)
    expect(back).toBeInstanceOf(Class)
    expect(back).toMatchObject({ _tag: e._tag, message: "m", data: { taskId: "t1" } })
  })

  it("leaves data out of the wire object when there is none", () => {
    expect(Object.keys(toWireError(new Internal({ message: "x" })))).toEqual(["code", "message"])
    expect(JSON.stringify(toWireError(new Internal()))).toBe('{"code":-32603,"message":"Internal error"}')
  })

  it("never puts more than 1,024 characters of a message on the wire, however much a caller sent", () => {
    const id = "t".repeat(5_000_000)
    const wire = toWireError(new TaskNotFound({ message: `Task ${id} not found`, data: { a: 1 } }))
    expect(wire.message).toHaveLength(1_024)
    expect(wire.message.startsWith("Task ttt")).toBe(true)
    expect(wire.message.endsWith("…")).toBe(true)
    expect(wire.data).toEqual({ a: 1 })
    expect(toWireError(new TaskNotFound({ message: "m".repeat(1_024) })).message).toBe("m".repeat(1_024))
  })

  it("keeps an unknown code as a RemoteError, and gives it back unchanged", () => {
    const wire = { code: -32050, message: "vendor specific", data: [1] }
    const e = fromWireError(wire)
    expect(e).toBeInstanceOf(RemoteError)
    expect([e.code, e.httpStatus]).toEqual([-32050, 500])
    expect(isProtocolError(e)).toBe(true)
    expect(toWireError(e)).toEqual(wire)
    expect(Schema.decodeUnknownSync(JSONRPCError)(toWireError(e))).toEqual(wire)
  })

  it("recognises only its own classes", () => {
    expect(isProtocolError(new Error("x"))).toBe(false)
    expect(isProtocolError({ _tag: "TaskNotFound", code: -32001, message: "m" })).toBe(false)
    expect(isProtocolError(undefined)).toBe(false)
  })
})
