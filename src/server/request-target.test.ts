import { describe, expect, it } from "vitest"
import { isRoutableSegment, isRouteTarget, MAX_TARGET_SEGMENTS } from "./request-target.ts"

describe("isRouteTarget: only targets in normal form reach a route", () => {
  it("accepts ordinary targets, with queries, encoded characters and the absolute form", () => {
    for (const target of [
      "/",
      "/?x=1",
      "/v1/message:send",
      "/v1/tasks/t-1?historyLength=2",
      "/v1/tasks/a%2Fb",
      "/v1/tasks/a.b/pushNotificationConfigs/c..d",
      "/.well-known/agent-card.json",
      "/a/%25%32%65",
      "http://127.0.0.1:8080/v1/card",
      "http://127.0.0.1:8080",
      `/${Array.from({ length: MAX_TARGET_SEGMENTS }, () => "s").join("/")}`
    ]) expect(isRouteTarget(target), target).toBe(true)
  })

  it("refuses dot segments in every spelling, backslashes, empty segments, fragments and depth", () => {
    for (const target of [
      "/x/..",
      "/x/../",
      "/..",
      "/.",
      "/./",
      "/%2e%2e/",
      "/%2E%2E/",
      "/.%2e/",
      "/%2e./v1/card",
      "/v1/x/%2e%2e/card",
      "/..\\..\\",
      "/v1\\card",
      "/v1/%5c/card",
      "/v1/%5Ccard",
      "//",
      "//v1/card",
      "/v1//card",
      "/v1/card/",
      "/#frag",
      "/v1/card#x",
      "/?a#b",
      "http://host/x/..",
      "*",
      "",
      "v1/card",
      `/${Array.from({ length: MAX_TARGET_SEGMENTS + 1 }, () => "s").join("/")}`
    ]) expect(isRouteTarget(target), target).toBe(false)
  })

  it("judges a decoded segment (Bun's route parameters) the same way", () => {
    for (const segment of ["..", ".", "a\\b", "a#b"]) expect(isRoutableSegment(segment), segment).toBe(false)
    for (const segment of ["a/..", "...", "message:send", "%25"]) expect(isRoutableSegment(segment), segment).toBe(true)
  })
})
