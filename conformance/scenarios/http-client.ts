import { SseSession } from "./sse-session.ts"

/** A JSON-RPC id as the wire allows it, or `undefined` to send a notification (no `id` member). */
export type RpcId = string | number | null | undefined

/** Options of one JSON-RPC call. */
export interface CallOptions {
  /** The request id; defaults to a fresh string id. Pass `undefined` explicitly via `notification: true`. */
  readonly id?: string | number | null
  /** Omit the `id` member entirely (a JSON-RPC notification). */
  readonly notification?: boolean
  /** Extra request headers. */
  readonly headers?: Record<string, string>
  /** Bound for this call in milliseconds (defaults to the runner's timeout). */
  readonly timeoutMs?: number
}

/** A complete (non-streaming) HTTP reply; `body` is the parsed JSON, or undefined when it was not JSON. */
export interface HttpReply {
  readonly status: number
  readonly headers: Headers
  readonly contentType: string
  readonly text: string
  readonly body: unknown
  /** Set when the body was not JSON. */
  readonly parseError?: string
  /** The id sent with the request (`undefined` for notifications and raw bodies). */
  readonly sentId: RpcId
}

/** Blocking HTTP helpers bound to one JSON-RPC endpoint; every request is time-bounded. */
export class HttpClient {
  private counter = 0

  constructor(
    /** The JSON-RPC endpoint under test. */
    readonly url: string,
    /** Default bound for a request, in milliseconds. */
    readonly timeoutMs: number
  ) {}

  /** A fresh, unique string request id. */
  nextId(): string {
    this.counter += 1
    return `conf-${this.counter}-${Math.random().toString(36).slice(2, 8)}`
  }

  /** Builds the request envelope that `rpc`/`stream` send. */
  envelope(method: string, params: unknown, options: CallOptions = {}): { body: Record<string, unknown>; id: RpcId } {
    const body: Record<string, unknown> = { jsonrpc: "2.0", method }
    if (params !== undefined) body.params = params
    let id: RpcId
    if (options.notification !== true) {
      id = options.id !== undefined ? options.id : this.nextId()
      body.id = id
    }
    return { body, id }
  }

  /** Sends one JSON-RPC request and reads the whole reply. */
  async rpc(method: string, params?: unknown, options: CallOptions = {}): Promise<HttpReply> {
    const { body, id } = this.envelope(method, params, options)
    return this.raw(JSON.stringify(body), "application/json", { ...options, sentId: id })
  }

  /** Sends an arbitrary body (text or bytes) with the given Content-Type (`null`: no such header). */
  async raw(
    body: string | Uint8Array,
    contentType: string | null = "application/json",
    options: { readonly headers?: Record<string, string>; readonly timeoutMs?: number; readonly sentId?: RpcId; readonly method?: string } = {}
  ): Promise<HttpReply> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs
    const headers = new Headers(options.headers)
    if (contentType !== null) headers.set("content-type", contentType)
    const method = options.method ?? "POST"
    const init: RequestInit = { method, headers, signal: AbortSignal.timeout(timeoutMs) }
    if (method !== "GET" && method !== "HEAD") {
      // A Blob keeps the bytes verbatim (and lets fetch send no Content-Type when we ask for none).
      init.body = typeof body === "string" ? body : new Blob([body as Uint8Array<ArrayBuffer>])
    }
    return fetchReply(this.url, init, { label: `HTTP ${method} ${this.url}`, timeoutMs, sentId: options.sentId })
  }

  /**
   * Sends a streaming JSON-RPC request and returns the open SSE session once headers arrived.
   * The caller (or the harness's cleanup) must `close()` it.
   */
  async stream(method: string, params?: unknown, options: CallOptions = {}): Promise<{ session: SseSession; id: RpcId }> {
    const { body, id } = this.envelope(method, params, options)
    const timeoutMs = options.timeoutMs ?? this.timeoutMs
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(new Error(`no response headers within ${timeoutMs} ms`)), timeoutMs)
    const headers = new Headers(options.headers)
    headers.set("content-type", "application/json")
    headers.set("accept", "text/event-stream")
    try {
      const response = await fetch(this.url, { method: "POST", headers, body: JSON.stringify(body), signal: abort.signal })
      return { session: new SseSession(response, abort, timeoutMs), id }
    } catch (e) {
      throw new Error(`streaming ${method} to ${this.url} failed: ${describe(e)}`)
    } finally {
      clearTimeout(timer)
    }
  }
}

/** A readable one-line description of a thrown value. */
export const describe = (e: unknown): string => {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause
    return cause !== undefined ? `${e.message} (${describe(cause)})` : e.message
  }
  return String(e)
}

/**
 * Fetches and reads a whole answer, parsing it as JSON when it is JSON. `emptyIsNoBody` reads an
 * empty body as no body rather than as invalid JSON (REST answers 204 with none).
 */
export const fetchReply = async (
  url: string,
  init: RequestInit,
  options: { readonly label: string; readonly timeoutMs: number; readonly sentId: RpcId | undefined; readonly emptyIsNoBody?: boolean }
): Promise<HttpReply> => {
  let response: Response
  let text: string
  try {
    response = await fetch(url, init)
    text = await response.text()
  } catch (e) {
    throw new Error(`${options.label} failed or exceeded ${options.timeoutMs} ms: ${describe(e)}`)
  }
  let parsed: unknown
  let parseError: string | undefined
  try {
    parsed = options.emptyIsNoBody === true && text === "" ? undefined : JSON.parse(text)
  } catch (e) {
    parseError = describe(e)
  }
  return {
    status: response.status,
    headers: response.headers,
    contentType: response.headers.get("content-type") ?? "",
    text,
    body: parsed,
    sentId: options.sentId,
    ...(parseError !== undefined ? { parseError } : {})
  }
}
