import { SseDecoder, type SseEvent } from "./sse-parser.ts"

/** A parsed SSE event whose `data` was JSON (or `json` is undefined and `parseError` says why). */
export interface StreamEvent extends SseEvent {
  /** `JSON.parse(data)`, or undefined when the data was not JSON. */
  readonly json: unknown
  /** Set when `data` was not valid JSON. */
  readonly parseError?: string
}

/**
 * One open SSE response. Every wait is bounded; `close` never hangs, because
 * Node 20's fetch was seen to hang when a finished stream is aborted.
 */
export class SseSession implements AsyncIterable<StreamEvent> {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  private readonly decoder = new SseDecoder()
  private readonly text = new TextDecoder()
  private readonly queue: Array<StreamEvent> = []
  private ended = false
  /** Every event received so far, in order (including those already consumed). */
  readonly received: Array<StreamEvent> = []

  constructor(
    /** The HTTP response whose body is being read. */
    readonly response: Response,
    private readonly abort: AbortController,
    /** Default bound for one `next` call, in milliseconds. */
    readonly waitMs: number
  ) {
    this.reader = response.body?.getReader()
    if (this.reader === undefined) this.ended = true
  }

  /** HTTP status of the response. */
  get status(): number {
    return this.response.status
  }

  /** Content-Type header of the response (empty string when absent). */
  get contentType(): string {
    return this.response.headers.get("content-type") ?? ""
  }

  /** True once the server closed the stream. */
  get done(): boolean {
    return this.ended && this.queue.length === 0
  }

  /**
   * The next event, or `undefined` when the stream ended.
   * Throws when nothing arrives within `waitMs`.
   */
  async next(waitMs: number = this.waitMs): Promise<StreamEvent | undefined> {
    const deadline = Date.now() + waitMs
    while (this.queue.length === 0 && !this.ended) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no SSE event within ${waitMs} ms (stream still open)`)
      await this.pump(left, waitMs)
    }
    return this.queue.shift()
  }

  /** Reads events until one matches `stop` (inclusive) or the stream ends. */
  async until(stop: (e: StreamEvent) => boolean, waitMs: number = this.waitMs): Promise<Array<StreamEvent>> {
    const out: Array<StreamEvent> = []
    for (;;) {
      const e = await this.next(waitMs)
      if (e === undefined) return out
      out.push(e)
      if (stop(e)) return out
    }
  }

  /** Resolves true when the server ends the stream within `waitMs`, false if it stays open. */
  async waitForEnd(waitMs: number = this.waitMs): Promise<boolean> {
    const deadline = Date.now() + waitMs
    while (!this.ended) {
      const left = deadline - Date.now()
      if (left <= 0) return false
      try {
        await this.pump(left, waitMs)
      } catch {
        return false
      }
    }
    return true
  }

  /** Reads the rest of the body as text (for a JSON reply to a streaming request); bounded by `waitMs`. */
  async readText(waitMs: number = this.waitMs): Promise<string> {
    const reader = this.reader
    if (reader === undefined) return ""
    const chunks: Array<string> = []
    const deadline = Date.now() + waitMs
    for (;;) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`body not complete within ${waitMs} ms`)
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), left)
      })
      const r = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer))
      if (r === "timeout") throw new Error(`body not complete within ${waitMs} ms`)
      if (r.done) break
      chunks.push(this.text.decode(r.value, { stream: true }))
    }
    chunks.push(this.text.decode())
    this.ended = true
    return chunks.join("")
  }

  /** Drops the connection; bounded even when the runtime's fetch misbehaves. */
  async close(): Promise<void> {
    this.ended = true
    const cancel = this.reader?.cancel().catch(() => undefined) ?? Promise.resolve()
    this.abort.abort()
    await Promise.race([cancel, new Promise((r) => setTimeout(r, 500))])
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    for (;;) {
      const e = await this.next()
      if (e === undefined) return
      yield e
    }
  }

  private async pump(left: number, waitMs: number): Promise<void> {
    const reader = this.reader
    if (reader === undefined) {
      this.ended = true
      return
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), left)
    })
    try {
      const r = await Promise.race([reader.read(), timeout])
      if (r === "timeout") throw new Error(`no SSE event within ${waitMs} ms (stream still open)`)
      if (r.done) {
        this.accept(this.decoder.push(this.text.decode()))
        this.accept(this.decoder.end())
        this.ended = true
        return
      }
      this.accept(this.decoder.push(this.text.decode(r.value, { stream: true })))
    } catch (e) {
      if (e instanceof Error && e.message.startsWith("no SSE event")) throw e
      // A reset connection ends the stream as far as the scenarios are concerned.
      this.ended = true
    } finally {
      clearTimeout(timer)
    }
  }

  private accept(events: Array<SseEvent>): void {
    for (const e of events) {
      let json: unknown
      let parseError: string | undefined
      try {
        json = JSON.parse(e.data)
      } catch (err) {
        parseError = err instanceof Error ? err.message : String(err)
      }
      const event: StreamEvent = { ...e, json, ...(parseError !== undefined ? { parseError } : {}) }
      this.queue.push(event)
      this.received.push(event)
    }
  }
}
