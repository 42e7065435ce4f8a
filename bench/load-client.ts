/**
 * The one load client every contender is measured with: JSON-RPC over `node:http` with a keep-alive
 * agent, to 127.0.0.1 only, and a hand-written SSE line scanner.
 *
 * A fast wrong answer must not count, so every answer is checked: a stream must open with a Task,
 * carry exactly the requested artifact chunks of artifact `a` in order (0, 1, 2, ...), and end
 * with one final `completed` status-update; a blocking send must return a `completed` Task.
 * Chunk order is read straight from the bytes of every event (the chunk's text is its index);
 * every event that is not a chunk, and a sample of the chunks, is parsed in full.
 */
import { randomUUID } from "node:crypto"
import { Agent, request, type IncomingMessage } from "node:http"

/** A contender's endpoint with its own connection pool. */
export interface Target {
  readonly host: string
  readonly port: number
  readonly path: string
  readonly agent: Agent
}

/** A pool of up to `connections` keep-alive connections to `url` (loopback only). */
export const makeTarget = (url: string, connections: number): Target => {
  const u = new URL(url)
  if (u.hostname !== "127.0.0.1") throw new Error(`the load client only talks to 127.0.0.1, not ${u.hostname}`)
  return {
    host: u.hostname,
    port: Number(u.port),
    path: u.pathname === "" ? "/" : u.pathname,
    agent: new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
  }
}

/** What one `message/stream` call gave. */
export interface StreamOutcome {
  readonly ok: boolean
  readonly error?: string
  /** SSE events received (Task, chunks, status updates). */
  readonly events: number
  readonly artifacts: number
  /** Response body bytes. */
  readonly bytes: number
  readonly firstEventMs: number
  readonly totalMs: number
}

/** What one blocking `message/send` call gave. */
export interface SendOutcome {
  readonly ok: boolean
  readonly error?: string
  readonly latencyMs: number
}

let nextId = 1

const rpcBody = (method: string, text: string): string =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: {
      message: { kind: "message", role: "user", messageId: randomUUID(), parts: [{ kind: "text", text }] },
      ...(method === "message/send" ? { configuration: { blocking: true } } : {})
    }
  })

const post = (target: Target, body: string, accept: string, onResponse: (res: IncomingMessage) => void, onError: (e: Error) => void) => {
  const req = request({
    host: target.host,
    port: target.port,
    path: target.path,
    method: "POST",
    agent: target.agent,
    headers: { "content-type": "application/json", accept, "content-length": Buffer.byteLength(body) }
  }, onResponse)
  req.on("error", onError)
  req.end(body)
}

/** One sampled chunk in this many is parsed in full (shape, ids, flags), besides the index check. */
const FULL_CHECK_EVERY = 1009

const QUOTE = 34

/**
 * Checks one stream's SSE text as it arrives. Fed with text pieces in order; `finish` gives the verdict.
 * Exported so the checks can be exercised without a server.
 */
export class StreamValidator {
  events = 0
  artifacts = 0
  firstEventAt = -1
  private error: string | undefined
  private taskId: string | undefined
  private ended = false
  private rest = ""
  private data: string | undefined
  private eventType: string | undefined

  constructor(private readonly chunks: number, private readonly now: () => number = () => performance.now()) {}

  /** Feeds the next piece of the body. */
  feed(piece: string): void {
    const s = this.rest.length === 0 ? piece : this.rest + piece
    let pos = 0
    // The data line of the event being read, as a range of `s` (no copy on the hot path).
    let from = -1
    let to = -1
    for (;;) {
      const nl = s.indexOf("\n", pos)
      if (nl < 0) break
      const end = nl > pos && s.charCodeAt(nl - 1) === 13 ? nl - 1 : nl
      if (end === pos) {
        if (from >= 0) {
          if (this.data === undefined) this.dispatch(s, from, to)
          else {
            const all = `${this.data}\n${s.slice(from, to)}`
            this.dispatch(all, 0, all.length)
          }
        } else if (this.data !== undefined) this.dispatch(this.data, 0, this.data.length)
        from = -1
        this.data = undefined
        this.eventType = undefined
      } else {
        const c = s.charCodeAt(pos)
        if (c === 100 /* d */ && s.startsWith("data:", pos)) {
          // A second data line of one event: fold the first into `data` (rare; every contender writes one line).
          if (from >= 0) this.data = this.data === undefined ? s.slice(from, to) : `${this.data}\n${s.slice(from, to)}`
          from = s.charCodeAt(pos + 5) === 32 ? pos + 6 : pos + 5
          to = end
        } else if (c === 101 /* e */ && s.startsWith("event:", pos)) {
          this.eventType = s.slice(pos + 6, end).trim()
        }
        // `id:` lines and `:` comments carry nothing the checks need.
      }
      pos = nl + 1
    }
    if (from >= 0) this.data = this.data === undefined ? s.slice(from, to) : `${this.data}\n${s.slice(from, to)}`
    this.rest = pos === 0 ? s : s.slice(pos)
  }

  /** The verdict once the body has ended. */
  finish(): { readonly ok: boolean; readonly error?: string } {
    if (this.data !== undefined) this.dispatch(this.data, 0, this.data.length)
    this.data = undefined
    if (this.error === undefined && !this.ended) this.fail(`stream ended without a final status-update after ${this.events} events`)
    if (this.error === undefined && this.artifacts !== this.chunks) this.fail(`expected ${this.chunks} chunks, got ${this.artifacts}`)
    return this.error === undefined ? { ok: true } : { ok: false, error: this.error }
  }

  private fail(message: string) {
    this.error ??= message
  }

  /** One event whose data is `s[from, to)`. */
  private dispatch(s: string, from: number, to: number) {
    if (this.events === 0) this.firstEventAt = this.now()
    this.events++
    if (this.error !== undefined) return
    if (this.ended) return this.fail("event after the final status-update")
    if (this.eventType !== undefined && this.eventType !== "message") return this.fail(`SSE event type ${this.eventType}: ${s.slice(from, Math.min(to, from + 200))}`)
    if (this.taskId !== undefined) {
      const mark = s.indexOf("\"artifact-update\"", from)
      if (mark >= 0 && mark < to) {
        const expected = this.artifacts
        if (readChunkIndex(s, from, to) !== expected) return this.fail(`chunk ${expected} expected, got ${s.slice(from, Math.min(to, from + 300))}`)
        this.artifacts++
        if (expected % FULL_CHECK_EVERY === 0 || expected === this.chunks - 1) this.fullCheck(s.slice(from, to))
        return
      }
    }
    this.fullCheck(s.slice(from, to))
  }

  private fullCheck(payload: string) {
    let envelope: { readonly result?: Record<string, unknown>; readonly error?: unknown }
    try {
      envelope = JSON.parse(payload) as typeof envelope
    } catch {
      return this.fail(`event is not JSON: ${payload.slice(0, 200)}`)
    }
    const result = envelope.result
    if (result === undefined) return this.fail(`error response: ${JSON.stringify(envelope.error ?? envelope).slice(0, 300)}`)
    const kind = result["kind"]
    if (this.taskId === undefined) {
      if (kind !== "task" || typeof result["id"] !== "string") return this.fail(`first event is not a Task: ${payload.slice(0, 200)}`)
      this.taskId = result["id"] as string
      return
    }
    if (kind === "task") return this.fail(`resynchronised with a Task snapshot after ${this.artifacts} chunks: the chunks after it were never sent`)
    if (result["taskId"] !== this.taskId) return this.fail(`event of another task: ${payload.slice(0, 200)}`)
    if (kind === "artifact-update") {
      const index = this.artifacts - 1
      const artifact = result["artifact"] as { artifactId?: unknown; parts?: ReadonlyArray<{ kind?: unknown; text?: unknown }> } | undefined
      const part = artifact?.parts?.[0]
      const good = artifact?.artifactId === "a" && part?.kind === "text" && part.text === String(index) &&
        (result["append"] ?? false) === (index > 0) && (result["lastChunk"] ?? false) === (index === this.chunks - 1)
      if (!good) this.fail(`chunk ${index} malformed: ${payload.slice(0, 300)}`)
      return
    }
    if (kind === "status-update") {
      const state = (result["status"] as { state?: unknown } | undefined)?.state
      if (result["final"] === true) {
        if (state !== "completed") return this.fail(`final state ${String(state)}`)
        this.ended = true
      } else if (state !== "working" && state !== "submitted") {
        this.fail(`unexpected interim state ${String(state)}`)
      }
      return
    }
    this.fail(`unexpected event kind ${String(kind)}`)
  }
}

/** The chunk index in the text part of the artifact-update `s[from, to)`, read without parsing; -1 when absent. */
const readChunkIndex = (s: string, from: number, to: number): number => {
  const at = s.indexOf("\"text\":\"", from)
  if (at < 0 || at >= to) return -1
  let i = at + 8
  let n = 0
  let digits = 0
  for (;; i++) {
    const c = i < to ? s.charCodeAt(i) : -1
    if (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48)
      digits++
    } else {
      return c === QUOTE && digits > 0 ? n : -1
    }
  }
}

/** Streams one task of `chunks` artifact chunks and checks every event. */
export const streamTask = (target: Target, chunks: number): Promise<StreamOutcome> =>
  new Promise((resolve) => {
    const start = performance.now()
    const validator = new StreamValidator(chunks)
    let bytes = 0
    const done = (error?: string) => {
      const verdict = error === undefined ? validator.finish() : { ok: false, error }
      resolve({
        ok: verdict.ok,
        ...(verdict.error === undefined ? {} : { error: verdict.error }),
        events: validator.events,
        artifacts: validator.artifacts,
        bytes,
        firstEventMs: validator.firstEventAt < 0 ? Number.NaN : validator.firstEventAt - start,
        totalMs: performance.now() - start
      })
    }
    post(target, rpcBody("message/stream", String(chunks)), "text/event-stream", (res) => {
      const type = res.headers["content-type"] ?? ""
      if (res.statusCode !== 200 || !type.startsWith("text/event-stream")) {
        res.resume()
        return done(`HTTP ${res.statusCode} ${type}`)
      }
      res.on("data", (b: Buffer) => {
        bytes += b.length
        validator.feed(b.toString("latin1"))
      })
      res.on("end", () => done())
      res.on("error", (e) => done(e.message))
    }, (e) => done(e.message))
  })

/** One blocking `message/send` whose agent completes at once; the answer must be a completed Task. */
export const sendTask = (target: Target): Promise<SendOutcome> =>
  new Promise((resolve) => {
    const start = performance.now()
    const done = (error?: string) =>
      resolve({ ok: error === undefined, ...(error === undefined ? {} : { error }), latencyMs: performance.now() - start })
    post(target, rpcBody("message/send", "0"), "application/json", (res) => {
      const parts: Array<Buffer> = []
      res.on("data", (b: Buffer) => parts.push(b))
      res.on("error", (e) => done(e.message))
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8")
        try {
          const body = JSON.parse(text) as { result?: { kind?: unknown; id?: unknown; status?: { state?: unknown } } }
          const task = body.result
          if (task?.kind !== "task" || typeof task.id !== "string") return done(`not a Task: ${text.slice(0, 200)}`)
          if (task.status?.state !== "completed") return done(`state ${String(task.status?.state)}`)
          done()
        } catch {
          done(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`)
        }
      })
    }, (e) => done(e.message))
  })
