/**
 * A dropped connection, made on purpose inside a test's `fetch`: the response passes its first SSE
 * events through, then its body breaks as a network failure would break it.
 *
 * @module
 */

/** Passes the first `count` SSE events of `response` through, then breaks the body as a dropped connection would. */
export const cutAfterEvents = (response: Response, count: number): Response => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let pending = ""
  let seen = 0
  let broken = false
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Erroring a stream drops the chunks still queued, so the break comes on the read after the last event.
      if (broken) return controller.error(new TypeError("connection cut by the test"))
      const { done, value } = await reader.read()
      if (done) return controller.close()
      pending += decoder.decode(value, { stream: true })
      let out = ""
      for (let end = pending.indexOf("\n\n"); end !== -1; end = pending.indexOf("\n\n")) {
        const frame = pending.slice(0, end + 2)
        pending = pending.slice(end + 2)
        out += frame
        if (frame.includes("data:") && ++seen === count) {
          controller.enqueue(encoder.encode(out))
          broken = true
          return void reader.cancel().catch(() => {})
        }
      }
      if (out !== "") controller.enqueue(encoder.encode(out))
    },
    cancel: (reason) => reader.cancel(reason)
  })
  return new Response(body, { status: response.status, headers: response.headers })
}
