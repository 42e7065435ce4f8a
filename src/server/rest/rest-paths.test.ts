import { describe, expect, it } from "vitest"
import { matchRestRoute } from "./rest-paths.ts"

const op = (method: string, path: string) => {
  const m = matchRestRoute(method, path)
  return m._tag === "Matched" ? m.operation : m
}

describe("matchRestRoute", () => {
  it("matches every A2A 0.3.0 REST operation", () => {
    expect(op("POST", "/v1/message:send")).toEqual({ op: "send" })
    expect(op("POST", "/v1/message:stream")).toEqual({ op: "stream" })
    expect(op("GET", "/v1/card")).toEqual({ op: "card" })
    expect(op("GET", "/v1/tasks/t-1")).toEqual({ op: "get", taskId: "t-1" })
    expect(op("POST", "/v1/tasks/t-1:cancel")).toEqual({ op: "cancel", taskId: "t-1" })
    expect(op("POST", "/v1/tasks/t-1:subscribe")).toEqual({ op: "subscribe", taskId: "t-1" })
    expect(op("GET", "/v1/tasks/t-1:subscribe")).toEqual({ op: "subscribe", taskId: "t-1" })
    expect(op("POST", "/v1/tasks/t-1/pushNotificationConfigs")).toEqual({ op: "setPushConfig", taskId: "t-1" })
    expect(op("GET", "/v1/tasks/t-1/pushNotificationConfigs")).toEqual({ op: "listPushConfigs", taskId: "t-1" })
    expect(op("GET", "/v1/tasks/t-1/pushNotificationConfigs/c-1")).toEqual({ op: "getPushConfig", taskId: "t-1", configId: "c-1" })
    expect(op("DELETE", "/v1/tasks/t-1/pushNotificationConfigs/c-1")).toEqual({
      op: "deletePushConfig",
      taskId: "t-1",
      configId: "c-1"
    })
  })

  it("percent-decodes ids and reads an encoded action colon", () => {
    expect(op("GET", "/v1/tasks/a%2Fb%3Ac")).toEqual({ op: "get", taskId: "a/b:c" })
    expect(op("POST", "/v1/tasks/a%3Acancel")).toEqual({ op: "cancel", taskId: "a" })
    expect(op("POST", "/v1/message%3Asend")).toEqual({ op: "send" })
    expect(op("GET", "/v1/tasks/urn:x:y")).toEqual({ op: "get", taskId: "urn:x:y" })
    expect(op("POST", "/v1/tasks/urn:x:y:cancel")).toEqual({ op: "cancel", taskId: "urn:x:y" })
  })

  it("answers the allowed methods for a known path with another method", () => {
    expect(matchRestRoute("GET", "/v1/message:send")).toEqual({ _tag: "MethodNotAllowed", allow: ["POST"] })
    expect(matchRestRoute("PUT", "/v1/tasks/t/pushNotificationConfigs/c")).toEqual({ _tag: "MethodNotAllowed", allow: ["GET", "DELETE"] })
  })

  it("refuses unknown paths, empty ids and broken percent-encoding", () => {
    for (const path of ["/v1/", "/v1/nothing", "/v1/tasks/", "/v1/tasks/:cancel", "/v1/tasks//pushNotificationConfigs", "/v2/card", "/v1/tasks/t/x/y/z"]) {
      expect(matchRestRoute("GET", path)._tag, path).toBe("NotFound")
    }
    expect(matchRestRoute("GET", "/v1/tasks")).toMatchObject({ _tag: "NotFound", message: expect.stringMatching(/not part/) })
    expect(matchRestRoute("GET", "/v1/tasks/%E0%A4%A")._tag).toBe("BadPath")
  })
})
