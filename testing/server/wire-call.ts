/**
 * JSON-RPC calls against a server's Web handler (or any `fetch`), for the security, ownership,
 * audit and extended-card tests: the request is a real `Request`, the answer a real `Response`
 * read back as JSON or as SSE events, with its status and headers.
 *
 * @module
 */
import type { MessageSendParams } from "../../schemas/index.ts"

/** Options of one call. */
export interface WireCallOptions {
  /** Extra request headers (credentials, `X-A2A-Extensions`, ...). */
  readonly headers?: Readonly<Record<string, string>>
  /** The endpoint; default `http://127.0.0.1/`. Query parameters travel with it. */
  readonly url?: string
  readonly id?: string | number
  /** For streaming answers: stop reading after this many events (the body is then cancelled). */
  readonly maxEvents?: number
  /** Bound on reading the whole answer. Default 5 s. */
  readonly timeoutMs?: number
}

/** What came back: the status and headers, and the JSON body or the SSE events' JSON. */
export interface WireAnswer {
  readonly status: number
  readonly headers: Headers
  /** The parsed JSON body of a non-SSE answer. */
  readonly body: any
  /** The parsed `data:` payloads of an SSE answer, in order. */
  readonly events: ReadonlyArray<any>
}

/** The JSON-RPC request for `method`. */
export const wireRequest = (method: string, params: unknown, options: WireCallOptions = {}): Request =>
  new Request(options.url ?? "http://127.0.0.1/", {
    method: "POST",
    headers: { "content-type": "application/json", ...options.headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: options.id ?? 1,
      method,
      ...(params === undefined ? {} : { params })
    })
  })

/** Reads an SSE body into its `data:` payloads, up to `maxEvents`, within `timeoutMs`. */
export const readSseEvents = async (
  response: Response,
  options: { readonly maxEvents?: number; readonly timeoutMs?: number } = {}
): Promise<ReadonlyArray<any>> => {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const events: Array<unknown> = []
  const timeoutMs = options.timeoutMs ?? 5_000
  let buffer = ""
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`SSE not finished within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline])
      if (done) break
      buffer += value
      let end: number
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart())
        if (data.length > 0) events.push(JSON.parse(data.join("\n")))
        if (options.maxEvents !== undefined && events.length >= options.maxEvents) return events
      }
    }
    return events
  } finally {
    clearTimeout(timer)
    await reader.cancel().catch(() => {})
  }
}

/** Reads a response as a {@link WireAnswer}. */
export const readAnswer = async (response: Response, options: WireCallOptions = {}): Promise<WireAnswer> => {
  const sse = (response.headers.get("content-type") ?? "").startsWith("text/event-stream")
  if (sse) {
    const events = await readSseEvents(response, {
      ...(options.maxEvents === undefined ? {} : { maxEvents: options.maxEvents }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs })
    })
    return { status: response.status, headers: response.headers, body: undefined, events }
  }
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text), events: [] }
}

/** Calls `method` through `handler` (a server's Web handler, or `fetch`). */
export const wireCall = async (
  handler: (request: Request) => Promise<Response>,
  method: string,
  params: unknown,
  options: WireCallOptions = {}
): Promise<WireAnswer> => readAnswer(await handler(wireRequest(method, params, options)), options)

/** `MessageSendParams` of a user text message; `extra` adds `taskId`, `contextId`, ... to the message. */
export const textMessage = (
  text: string,
  extra: { readonly taskId?: string; readonly contextId?: string } = {}
): MessageSendParams => ({
  message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }], ...extra }
})

/** Polls `check` until it returns something other than `undefined`, within `timeoutMs` (for work the server forks). */
export const eventually = async <A>(check: () => A | undefined | Promise<A | undefined>, timeoutMs = 2_000): Promise<A> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
