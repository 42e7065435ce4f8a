import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { isMethodName, methods } from "./methods.ts"
import { A2ARequest, GetTaskPushNotificationConfigRequest } from "./requests.ts"

describe("method table", () => {
  it("lists the ten core methods, and which of them stream", () => {
    expect(Object.keys(methods).sort()).toEqual([
      "agent/getAuthenticatedExtendedCard",
      "message/send",
      "message/stream",
      "tasks/cancel",
      "tasks/get",
      "tasks/pushNotificationConfig/delete",
      "tasks/pushNotificationConfig/get",
      "tasks/pushNotificationConfig/list",
      "tasks/pushNotificationConfig/set",
      "tasks/resubscribe"
    ])
    const streaming = Object.entries(methods).filter(([, spec]) => spec.streaming).map(([name]) => name)
    expect(streaming.sort()).toEqual(["message/stream", "tasks/resubscribe"])
  })

  it("knows its method names and nothing inherited", () => {
    expect(isMethodName("tasks/get")).toBe(true)
    expect(isMethodName("toString")).toBe(false)
  })

  it("accepts absent or object params for the extended card, nothing else", () => {
    const decode = Schema.decodeUnknownResult(methods["agent/getAuthenticatedExtendedCard"].params)
    expect(Result.isSuccess(decode(undefined))).toBe(true)
    expect(Result.isSuccess(decode({}))).toBe(true)
    expect(Result.isFailure(decode([]))).toBe(true)
    expect(Result.isFailure(decode("x"))).toBe(true)
  })

  it("keeps pushNotificationConfigId for push-config get, and accepts plain TaskIdParams", () => {
    const params = { id: "t1", pushNotificationConfigId: "default" }
    expect(Schema.decodeUnknownSync(methods["tasks/pushNotificationConfig/get"].params)(params)).toEqual(params)
    const request = { jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/get", params }
    expect(Schema.decodeUnknownSync(GetTaskPushNotificationConfigRequest)(request).params).toEqual(params)
    expect(Schema.decodeUnknownSync(methods["tasks/pushNotificationConfig/get"].params)({ id: "t1" })).toEqual({ id: "t1" })
  })

  it("delete answers null", () => {
    expect(Schema.decodeUnknownSync(methods["tasks/pushNotificationConfig/delete"].result)(null)).toBeNull()
  })

  it("decodes an A2A request by its method, with a string or integer id only", () => {
    const request = { jsonrpc: "2.0", id: "r1", method: "tasks/get", params: { id: "t1" } }
    expect(Schema.decodeUnknownSync(A2ARequest)(request)).toEqual(request)
    expect(Result.isSuccess(Schema.decodeUnknownResult(A2ARequest)({ ...request, id: 7 }))).toBe(true)
    expect(Result.isFailure(Schema.decodeUnknownResult(A2ARequest)({ ...request, id: 1.5 }))).toBe(true)
    expect(Result.isFailure(Schema.decodeUnknownResult(A2ARequest)({ ...request, id: null }))).toBe(true)
    expect(Result.isFailure(Schema.decodeUnknownResult(A2ARequest)({ ...request, jsonrpc: "1.0" }))).toBe(true)
    expect(Result.isFailure(Schema.decodeUnknownResult(A2ARequest)({ ...request, method: "tasks/unknown" }))).toBe(true)
  })
})
