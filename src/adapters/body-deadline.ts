/**
 * A deadline on receiving a request body, for runtimes whose HTTP server has none (Deno): the
 * body is relayed through a stream that fails once the deadline passes, so whoever reads it stops
 * waiting on a client that trickles bytes or sends nothing more.
 *
 * @module
 */

/** A request whose body fails when it is not in within the deadline; see {@link withBodyDeadline}. */
export interface DeadlinedRequest {
  readonly request: Request
  /** Whether the deadline passed before the body was in (then answer 408, not what the handler made). */
  readonly expired: () => boolean
}

/**
 * Wraps `request` so that its body must be received within `ms` (counted from now, when the
 * headers are in). A request without a body, or `ms` of 0, is returned as is.
 *
 * @example
 * const { request, expired } = withBodyDeadline(incoming, 30_000)
 * const response = await handler(request)
 * return expired() ? new Response(null, { status: 408, headers: { connection: "close" } }) : response
 */
export const withBodyDeadline = (incoming: Request, ms: number): DeadlinedRequest => {
  const source = incoming.body
  if (source === null || ms <= 0) return { request: incoming, expired: () => false }
  let expired = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const reader = source.getReader()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setTimeout(() => {
        expired = true
        controller.error(new Error(`the request body did not arrive within ${ms} ms`))
        reader.cancel().catch(() => undefined)
      }, ms)
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (expired) return
        if (done) {
          clearTimeout(timer)
          controller.close()
        } else {
          controller.enqueue(value)
        }
      } catch (cause) {
        clearTimeout(timer)
        if (!expired) controller.error(cause)
      }
    },
    cancel(reason) {
      clearTimeout(timer)
      return reader.cancel(reason)
    }
  })
  const request = new Request(incoming.url, {
    method: incoming.method,
    headers: incoming.headers,
    body,
    signal: incoming.signal,
    duplex: "half"
  } as RequestInit)
  return { request, expired: () => expired }
}
