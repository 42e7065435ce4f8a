/**
 * A deliberately small Server-Sent Events parser used as a test instrument.
 *
 * It is written by hand (rather than reusing a library) so that the scenarios
 * observe the raw framing a server emits: comment lines, `id:` lines, `event:`
 * lines and how many `data:` lines each event carried.
 */

/** One dispatched SSE event, with the framing details the scenarios assert on. */
export interface SseEvent {
  /** The `data:` lines joined with "\n", as the SSE standard dispatches them. */
  readonly data: string
  /** How many `data:` lines made up this event (the A2A wire wants exactly one). */
  readonly dataLines: number
  /** The `event:` field, when the server sent one. */
  readonly event?: string
  /** The `id:` field of this event, when the server sent one. */
  readonly id?: string
  /** Comment lines (`: ping`, without the colon) seen since the previous event. */
  readonly comments: ReadonlyArray<string>
}

/**
 * Incremental, line-based SSE decoder: feed it text chunks split anywhere
 * (inside a line, inside a CRLF pair) and it returns the events completed so far.
 */
export class SseDecoder {
  private buffer = ""
  private pendingCr = false
  private data: Array<string> = []
  private event: string | undefined
  private id: string | undefined
  private comments: Array<string> = []

  /** Consumes one chunk of decoded text; returns the events it completed. */
  push(chunk: string): Array<SseEvent> {
    const out: Array<SseEvent> = []
    let text = chunk
    // A CR at the end of the previous chunk may be the first half of CRLF.
    if (this.pendingCr && text.startsWith("\n")) text = text.slice(1)
    this.pendingCr = false
    this.buffer += text
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer)
      if (match === null) break
      if (match[0] === "\r" && match.index === this.buffer.length - 1) {
        this.pendingCr = true
      }
      const line = this.buffer.slice(0, match.index)
      this.buffer = this.buffer.slice(match.index + match[0].length)
      const event = this.line(line)
      if (event !== undefined) out.push(event)
    }
    return out
  }

  /** Flushes at end of stream: an unterminated event is discarded, as the SSE standard says. */
  end(): Array<SseEvent> {
    this.buffer = ""
    this.data = []
    return []
  }

  private line(line: string): SseEvent | undefined {
    if (line === "") return this.dispatch()
    if (line.startsWith(":")) {
      this.comments.push(line.slice(1).trimStart())
      return undefined
    }
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? "" : line.slice(colon + 1)
    if (value.startsWith(" ")) value = value.slice(1)
    if (field === "data") this.data.push(value)
    else if (field === "event") this.event = value
    else if (field === "id" && !value.includes("\u0000")) this.id = value
    return undefined
  }

  private dispatch(): SseEvent | undefined {
    if (this.data.length === 0) {
      this.event = undefined
      return undefined
    }
    const event: SseEvent = {
      data: this.data.join("\n"),
      dataLines: this.data.length,
      comments: this.comments,
      ...(this.event !== undefined ? { event: this.event } : {}),
      ...(this.id !== undefined ? { id: this.id } : {})
    }
    this.data = []
    this.event = undefined
    // Unlike browsers, keep `id` per event: the scenarios check which events carried one.
    this.id = undefined
    this.comments = []
    return event
  }
}
