/**
 * Checks one A2A stream as its SSE bytes arrive, for any agent, over JSON-RPC or REST. A fast wrong answer
 * must not count as throughput, so every event is judged:
 *
 * - the stream opens with a Task or a Message; a Message is the whole stream;
 * - every later event belongs to that task, and a Task snapshot in the middle means events were skipped;
 * - nothing comes after `final: true`, and the stream ends with a final status-update; in A2A 1.0, which has
 *   no `final`, a status-update of a terminal or interrupted state is the final one (the server then closes
 *   the stream), and every event must be a 1.0 `StreamResponse` (one of `task`, `message`, `statusUpdate`,
 *   `artifactUpdate`, judged by the 1.0 schema: a 0.3 event, with `kind`, is refused);
 * - a chunk that appends to an artifact never started, or comes after that artifact's `lastChunk`, is wrong;
 * - with `numberedChunks`, each artifact's chunk texts are consecutive integers ("1\n", "2\n", ...);
 * - with `consecutiveIds`, SSE `id:` lines are consecutive integers, also across a resumption.
 *
 * Artifact chunks, the bulk of a long stream, are read straight from the bytes (task id, artifact id,
 * flags, number) when the server writes compact JSON; every other event, and a sample of the chunks, is
 * parsed in full. A sample whose full reading differs from the quick one turns the quick reading off for
 * the rest of the stream.
 *
 * @module
 */
import { Result } from "effect"
import { fromRest } from "../../schemas/rest/from-rest.ts"
import { decodeV1Response } from "../../schemas/v1/decode.ts"
import { errorFromV1Status } from "../../schemas/v1/errors.ts"
import { streamResponseFromV1 } from "../../schemas/v1/from-v1.ts"
import { hasQuote, holdsAt, isCompact, numberIn, numberOfText, readNumber } from "./chunk-text.ts"
import type { BenchTransport, BenchVersion, OutcomeError } from "./outcome.ts"

/** What to check beyond the rules every stream follows. */
export interface StreamCheckOptions {
  /** Each artifact's chunk texts are consecutive integers (surrounding whitespace allowed). */
  readonly numberedChunks?: boolean
  /** The stream carries exactly this many artifact chunks. */
  readonly expectedChunks?: number
  /** SSE ids are consecutive integers (the resubscribe workload). */
  readonly consecutiveIds?: boolean
}

/** One chunk in this many is parsed in full besides the quick reading. */
const FULL_CHECK_EVERY = 1009

const FAILED_STATES = new Set(["failed", "rejected", "canceled", "unknown"])

interface ArtifactState {
  /** The number the next chunk must carry (numbered chunks). */
  next: number
  closed: boolean
}

/** The fields of an artifact-update the checks read. */
interface ChunkFields {
  readonly taskId: unknown
  readonly artifactId: string
  readonly append: boolean
  readonly lastChunk: boolean
  /** The chunk's number (numbered chunks), -1 when its text is not an integer. */
  readonly number: number
}

type Json = { readonly [key: string]: unknown }

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

/** Checks one stream; fed with its body's text in order. */
export class StreamCheck {
  events = 0
  chunks = 0
  /** `now()` when the first event arrived; -1 before. */
  firstEventAt = -1
  /** The task the stream is about, once known. */
  taskId: string | undefined
  /** The id of the last SSE event read (kept with `consecutiveIds` only). */
  lastEventId: string | undefined
  /** True once the final event (or a single Message) arrived. */
  ended = false
  /**
   * Read no further than this many events (a connection cut on purpose): the rest of the bytes are
   * dropped as if never received, and `wasCut` is set.
   */
  cutAfter: number | undefined
  wasCut = false
  private error: OutcomeError | undefined
  private readonly artifacts = new Map<string, ArtifactState>()
  /** Quick reading of chunks: on once the server is seen to write compact JSON. */
  private quick = false
  private taskNeedle = ""
  private cachedArtifactId = ""
  private cachedArtifactNeedle = ""
  private cachedArtifact: ArtifactState | undefined
  private lastSeq: number | undefined
  private resumed = false
  /** The bytes around the text of a middle chunk: a chunk with the same bytes around its text has the same fields. */
  private template: { readonly prefix: string; readonly suffix: string; readonly fields: ChunkFields } | undefined
  private readonly trackIds: boolean
  // SSE parser state across pieces.
  private rest = ""
  private data: string | undefined
  private eventType: string | undefined
  private eventId: string | undefined

  constructor(
    private readonly transport: BenchTransport,
    private readonly options: StreamCheckOptions = {},
    private readonly now: () => number = () => performance.now(),
    private readonly version: BenchVersion = "0.3"
  ) {
    this.trackIds = options.consecutiveIds === true
    this.chunkMark = version === "1.0" ? "{\"artifactUpdate\":" : "\"kind\":\"artifact-update\""
  }

  /** What a chunk's payload holds (1.0: its wrapper; 0.3: its kind), for the quick reading. */
  private readonly chunkMark: string

  /** The first failure found so far. */
  get failure(): OutcomeError | undefined {
    return this.error
  }

  /** Feeds the next piece of the body. */
  feed(piece: string): void {
    if (this.wasCut) return
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
        this.eventId = undefined
        if (this.cutAfter !== undefined && this.events >= this.cutAfter && !this.ended) {
          this.wasCut = true
          this.rest = ""
          return
        }
      } else {
        const c = s.charCodeAt(pos)
        if (c === 100 /* d */ && s.startsWith("data:", pos)) {
          // A second data line of one event: fold the first into `data`.
          if (from >= 0) this.data = this.data === undefined ? s.slice(from, to) : `${this.data}\n${s.slice(from, to)}`
          from = s.charCodeAt(pos + 5) === 32 ? pos + 6 : pos + 5
          to = end
        } else if (c === 101 /* e */ && s.startsWith("event:", pos)) {
          this.eventType = s.slice(pos + 6, end).trim()
        } else if (c === 105 /* i */ && this.trackIds && s.startsWith("id:", pos)) {
          this.eventId = s.slice(pos + 3, end).trim()
        }
        // `:` comments (heartbeats) and `retry:` carry nothing the checks need.
      }
      pos = nl + 1
    }
    if (from >= 0) this.data = this.data === undefined ? s.slice(from, to) : `${this.data}\n${s.slice(from, to)}`
    this.rest = pos === 0 ? s : s.slice(pos)
  }

  /**
   * Prepares for the next connection of the same stream (a resubscription after `lastEventId`): the
   * checks go on where they were; a partial event of the cut connection is dropped.
   */
  resume(): void {
    this.rest = ""
    this.data = undefined
    this.eventType = undefined
    this.eventId = undefined
    this.resumed = true
    this.cutAfter = undefined
    this.wasCut = false
  }

  /** The verdict once the body has ended. */
  finish(): OutcomeError | undefined {
    if (this.data !== undefined) this.dispatch(this.data, 0, this.data.length)
    this.data = undefined
    if (this.error === undefined && !this.ended) {
      this.invalid(
        "missing final event",
        this.version === "1.0"
          ? `the stream closed after ${this.events} events without a status-update of a terminal or interrupted state`
          : `the stream ended without a final status-update after ${this.events} events`
      )
    }
    const expected = this.options.expectedChunks
    if (this.error === undefined && expected !== undefined && this.chunks !== expected) {
      this.invalid("chunk count", `expected ${expected} artifact chunks, got ${this.chunks}`)
    }
    return this.error
  }

  /** Records the first failure (of kind `kind`, e.g. `JSON-RPC -32001`); later ones are its consequences. */
  fail(kind: string, message: string): void {
    this.error ??= { kind, message }
  }

  /** A rule of the stream broken: kind `validation: <rule>`. */
  private invalid(rule: string, message: string): void {
    this.fail(`validation: ${rule}`, message)
  }

  /** One event whose data is `s[from, to)`. */
  private dispatch(s: string, from: number, to: number) {
    if (this.events === 0) this.firstEventAt = this.now()
    this.events++
    if (this.error !== undefined) return
    const id = this.eventId
    if (id !== undefined) {
      if (this.options.consecutiveIds === true) this.checkId(id)
      this.lastEventId = id
    }
    if (this.ended) return this.invalid("event after final", `an event came after the final one: ${s.slice(from, Math.min(to, from + 200))}`)
    if (this.eventType !== undefined && this.eventType !== "message") {
      if (this.eventType === "error") return this.agentError(s.slice(from, to))
      return this.invalid("malformed event", `SSE event type ${this.eventType}: ${s.slice(from, Math.min(to, from + 200))}`)
    }
    if (this.quick && this.template !== undefined && this.chunks % FULL_CHECK_EVERY !== 0) {
      // A chunk like the last one read in full but for its text: the same task, artifact and flags.
      const t = this.template
      const textFrom = from + t.prefix.length
      const textTo = to - t.suffix.length
      if (textTo >= textFrom && holdsAt(s, t.prefix, from) && holdsAt(s, t.suffix, textTo) && !hasQuote(s, textFrom, textTo)) {
        return this.chunk(t.fields.artifactId, t.fields.append, t.fields.lastChunk, this.options.numberedChunks === true ? numberIn(s, textFrom, textTo) : -1)
      }
    }
    // The event alone (a cheap slice), so that a search for a field it lacks stops at its end.
    const payload = from === 0 && to === s.length ? s : s.slice(from, to)
    if (this.quick && this.isChunk(payload)) {
      const fields = this.readChunk(payload)
      if (fields !== undefined) {
        if (fields.append && !fields.lastChunk) this.learnTemplate(payload, fields)
        if (this.chunks % FULL_CHECK_EVERY !== 0) return this.chunkOf(fields)
        const full = this.parse(payload)
        if (full !== undefined && full.kind === "artifact-update") {
          const read = this.chunkFields(full)
          if (!sameChunk(read, fields)) this.quick = false
          return this.event(full)
        }
        this.quick = false
        if (full !== undefined) this.event(full)
        return
      }
    }
    const event = this.parse(payload)
    if (event !== undefined) {
      if (this.events === 1) this.quick = isCompact(payload)
      this.event(event)
    }
  }

  private checkId(id: string) {
    if (!/^\d{1,15}$/.test(id)) return this.invalid("event id", `SSE id "${id.slice(0, 40)}" is not a sequence number`)
    const seq = Number(id)
    const last = this.lastSeq
    this.lastSeq = seq
    if (last === undefined) return
    if (seq <= last) this.invalid("event id repeated", `SSE id ${seq} after ${last}: an event was delivered twice`)
    else if (seq !== last + 1) this.invalid("event id gap", `SSE id ${seq} after ${last}: ${seq - last - 1} event(s) missing`)
  }

  private isChunk(s: string): boolean {
    return this.transport === "HTTP+JSON" ? s.startsWith("{\"artifactUpdate\":") : s.includes(this.chunkMark)
  }

  /** The chunk's fields read from the bytes, or undefined when they cannot be read that way. */
  private readChunk(s: string): ChunkFields | undefined {
    if (!s.includes(this.taskNeedle)) return undefined
    const at = s.indexOf("\"artifactId\":\"")
    if (at < 0) return undefined
    let artifactId: string
    if (this.cachedArtifactNeedle !== "" && s.startsWith(this.cachedArtifactNeedle, at)) {
      artifactId = this.cachedArtifactId
    } else {
      const close = s.indexOf("\"", at + 14)
      if (close < 0) return undefined
      artifactId = s.slice(at + 14, close)
      if (artifactId.includes("\\")) return undefined
    }
    return {
      taskId: this.taskId,
      artifactId,
      append: s.includes("\"append\":true"),
      lastChunk: s.includes("\"lastChunk\":true"),
      number: this.options.numberedChunks === true ? readNumber(s, 0, s.length) : -1
    }
  }

  private learnTemplate(payload: string, fields: ChunkFields) {
    const at = payload.indexOf("\"text\":\"")
    if (at < 0 || payload.indexOf("\"text\":\"", at + 1) >= 0) return
    const start = at + 8
    const close = payload.indexOf("\"", start)
    if (close < 0 || payload.charCodeAt(close - 1) === 92) return
    this.template = { prefix: payload.slice(0, start), suffix: payload.slice(close), fields }
  }

  /** The A2A event of one payload (REST spellings normalised), or undefined after recording why not. */
  private parse(payload: string): Json | undefined {
    let json: unknown
    try {
      json = JSON.parse(payload)
    } catch {
      this.invalid("malformed event", `an event is not JSON: ${payload.slice(0, 200)}`)
      return undefined
    }
    if (this.transport === "HTTP+JSON") {
      if (this.version === "1.0") return this.v1Event(json, payload)
      const event = fromRest.streamResponse(json)
      if (isRecord(event) && typeof event["kind"] === "string") return event
      this.invalid("malformed event", `an event is not an A2A stream event: ${payload.slice(0, 200)}`)
      return undefined
    }
    if (!isRecord(json)) {
      this.invalid("malformed event", `an event is not a JSON-RPC response: ${payload.slice(0, 200)}`)
      return undefined
    }
    if (json["error"] !== undefined) {
      this.rpcError(json["error"])
      return undefined
    }
    const result = json["result"]
    if (isRecord(result)) return this.version === "1.0" ? this.v1Event(result, payload) : result
    this.invalid("malformed event", `an event has no result: ${payload.slice(0, 200)}`)
    return undefined
  }

  /** A 1.0 `StreamResponse`, judged by the 1.0 schema, as the model's event (`final` from its state). */
  private v1Event(json: unknown, payload: string): Json | undefined {
    const decoded = decodeV1Response.streamResponse(json)
    if (Result.isSuccess(decoded)) return streamResponseFromV1(decoded.success) as unknown as Json
    this.invalid("malformed event", `an event is not an A2A 1.0 StreamResponse (${decoded.failure.message.slice(0, 120)}): ${payload.slice(0, 200)}`)
    return undefined
  }

  private rpcError(error: unknown) {
    const code = isRecord(error) ? error["code"] : undefined
    const message = isRecord(error) && typeof error["message"] === "string" ? error["message"] : JSON.stringify(error)
    this.fail(`JSON-RPC ${typeof code === "number" ? code : "error"}`, message.slice(0, 300))
  }

  /** A REST `event: error` frame: `{ code, message }` (0.3), a `google.rpc.Status` (1.0). */
  private agentError(payload: string) {
    let parsed: unknown
    try {
      parsed = JSON.parse(payload)
    } catch {
      parsed = undefined
    }
    const status = this.version === "1.0" ? decodeV1Response.status(parsed) : undefined
    const v1 = status !== undefined && Result.isSuccess(status) ? errorFromV1Status(status.success) : undefined
    const error = v1 !== undefined ? { code: v1.code, message: v1.message } : isRecord(parsed) && isRecord(parsed["error"]) ? parsed["error"] : parsed
    const code = isRecord(error) ? error["code"] : undefined
    const message = isRecord(error) && typeof error["message"] === "string" ? error["message"] : payload.slice(0, 200)
    this.fail(`A2A error ${typeof code === "number" ? code : ""}`.trim(), message.slice(0, 300))
  }

  private learnTask(taskId: string) {
    this.taskId = taskId
    this.taskNeedle = `"taskId":${JSON.stringify(taskId)}`
  }

  private chunkFields(event: Json): ChunkFields {
    const artifact = isRecord(event["artifact"]) ? event["artifact"] : {}
    const parts = Array.isArray(artifact["parts"]) ? artifact["parts"] : []
    const first: unknown = parts[0]
    return {
      taskId: event["taskId"],
      artifactId: typeof artifact["artifactId"] === "string" ? artifact["artifactId"] : "",
      append: event["append"] === true,
      lastChunk: event["lastChunk"] === true,
      number: this.options.numberedChunks === true && isRecord(first) ? numberOfText(first["text"]) : -1
    }
  }

  /** One parsed event. */
  private event(event: Json) {
    const kind = event["kind"]
    if (this.taskId === undefined) {
      if (this.resumed) return this.invalid("not a task or message", "the resumed stream has no task")
      if (kind === "message") {
        this.ended = true
        return
      }
      if (kind !== "task" || typeof event["id"] !== "string") {
        return this.invalid("not a task or message", `the first event is neither a Task nor a Message: ${JSON.stringify(event).slice(0, 200)}`)
      }
      this.learnTask(event["id"])
      const state = stateOf(event)
      if (state !== undefined && FAILED_STATES.has(state)) this.invalid("final state", `the task ended ${state}`)
      return
    }
    if (kind === "task") {
      return this.invalid("snapshot mid-stream", `a Task snapshot came after ${this.chunks} chunks: the events before it were skipped`)
    }
    if (kind === "message") return this.invalid("message mid-stream", "a Message came inside a task's stream")
    if (event["taskId"] !== this.taskId) {
      return this.invalid("other task", `an event of task ${String(event["taskId"])} in the stream of task ${this.taskId}`)
    }
    if (kind === "artifact-update") return this.chunkOf(this.chunkFields(event))
    if (kind === "status-update") {
      if (event["final"] !== true) return
      this.ended = true
      const state = stateOf(event)
      if (state !== undefined && FAILED_STATES.has(state)) this.invalid("final state", `the task ended ${state}`)
      return
    }
    this.invalid("malformed event", `unknown event kind ${String(kind)}`)
  }

  private chunkOf(c: ChunkFields) {
    this.chunk(c.artifactId, c.append, c.lastChunk, c.number)
  }

  /** One artifact chunk. */
  private chunk(artifactId: string, append: boolean, lastChunk: boolean, number: number) {
    const numbered = this.options.numberedChunks === true
    let state = this.cachedArtifactNeedle !== "" && this.cachedArtifactId === artifactId
      ? this.cachedArtifact
      : this.artifacts.get(artifactId)
    if (numbered && number < 0) {
      return this.invalid("chunk not numbered", `a chunk of artifact ${artifactId} carries no number`)
    }
    if (!append) {
      state = { next: number + 1, closed: lastChunk }
      this.artifacts.set(artifactId, state)
    } else {
      if (state === undefined) return this.invalid("append to unknown artifact", `a chunk appends to artifact ${artifactId}, which was never started`)
      if (state.closed) return this.invalid("chunk after lastChunk", `a chunk of artifact ${artifactId} came after its last chunk`)
      if (numbered && number !== state.next) {
        return this.invalid("chunk out of order", `chunk ${state.next} expected, got ${number} (artifact ${artifactId})`)
      }
      state.next = number + 1
      state.closed = lastChunk
    }
    if (this.cachedArtifact !== state) {
      this.cachedArtifact = state
      this.cachedArtifactId = artifactId
      this.cachedArtifactNeedle = `"artifactId":"${artifactId}"`
    }
    this.chunks++
  }
}

const stateOf = (event: Json): string | undefined => {
  const status = event["status"]
  return isRecord(status) && typeof status["state"] === "string" ? status["state"] : undefined
}

const sameChunk = (a: ChunkFields, b: ChunkFields) =>
  a.taskId === b.taskId && a.artifactId === b.artifactId && a.append === b.append && a.lastChunk === b.lastChunk && a.number === b.number
