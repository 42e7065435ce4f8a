import { describe, expect, it } from "vitest"
import { withBodyDeadline } from "./body-deadline.ts"

const streamOf = (chunks: ReadonlyArray<string>, everyMs: number) => {
  const encoder = new TextEncoder()
  let i = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs))
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]!))
      else controller.close()
    }
  })
}

const post = (body: ReadableStream<Uint8Array>) =>
  new Request("http://127.0.0.1/", { method: "POST", body, duplex: "half" } as RequestInit)

describe("request body deadline", () => {
  it("passes a body that arrives in time through unchanged", async () => {
    const { request, expired } = withBodyDeadline(post(streamOf(["{\"a\":", "1}"], 5)), 1_000)
    expect(await request.text()).toBe("{\"a\":1}")
    expect(request.method).toBe("POST")
    expect(expired()).toBe(false)
  })

  it("fails a body that is still arriving when the deadline passes", async () => {
    const { request, expired } = withBodyDeadline(post(streamOf(Array.from({ length: 100 }, () => "x"), 20)), 100)
    await expect(request.text()).rejects.toThrow()
    expect(expired()).toBe(true)
  })

  it("leaves a request without a body, or a deadline of 0, as it is", () => {
    const get = new Request("http://127.0.0.1/")
    expect(withBodyDeadline(get, 100).request).toBe(get)
    const unbounded = post(streamOf(["x"], 1))
    expect(withBodyDeadline(unbounded, 0).request).toBe(unbounded)
  })
})
