import { describe, expect, it } from "vitest"
import { requestUrl } from "./request-url.ts"

describe("requestUrl reads a request target as a path", () => {
  it("keeps a path that starts with // whole, where URL-reference resolution would read a host", () => {
    expect(requestUrl("//").pathname).toBe("//")
    expect(requestUrl("//v1/card").pathname).toBe("//v1/card")
    expect(requestUrl("//.well-known/agent-card.json?x=1").pathname).toBe("//.well-known/agent-card.json")
    expect(requestUrl("//evil.example/v1/card").host).toBe("localhost")
  })

  it("keeps the query of an ordinary target", () => {
    const url = requestUrl("/v1/tasks/t1?historyLength=2&api_key=k")
    expect(url.pathname).toBe("/v1/tasks/t1")
    expect(url.searchParams.get("historyLength")).toBe("2")
    expect(url.searchParams.get("api_key")).toBe("k")
  })

  it("parses an absolute-form target as is, and reads anything else as /", () => {
    expect(requestUrl("http://example.com/v1/card?a=1").pathname).toBe("/v1/card")
    for (const target of ["*", "", "::", "http://[bad/"]) expect(requestUrl(target).pathname).toBe("/")
  })
})
