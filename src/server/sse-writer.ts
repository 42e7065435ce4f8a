/**
 * The Server-Sent Events writer for `message/stream` and `tasks/resubscribe`.
 *
 * Every event becomes `id: <seq>` plus one `data:` line holding a whole JSON-RPC response with
 * the request's id. Events that are already queued when the writer runs arrive as one chunk of
 * the input stream and leave as one encoded buffer, so a burst costs one socket write rather
 * than one per event. While nothing is written for `heartbeatMs`, a `: ping` comment keeps
 * proxies and idle timers from closing the connection.
 */
import { Cause, Clock, Effect, Option, Schedule, Stream } from "effect"
import { type ProtocolError, Internal, isProtocolError } from "../../schemas/error-catalogue.ts"
import { errorResponse, resultPrefix, type RequestId } from "./json-rpc-envelope.ts"
import { type ByteSink, makeArtifactFrameWriter, writeText } from "./sse-event-bytes.ts"
import { makeEventJson } from "./sse-event-json.ts"

/** One event of a task's stream with its per-task sequence number. */
export interface SequencedFrame {
  readonly seq: number
  readonly event: unknown
}

/** How one protocol version writes the events of a stream and the error that ends one. */
export interface SseFormat {
  /** A serializer for the events of one stream (it may cache what the stream's events share). */
  readonly eventJson: () => (event: never) => string
  /** A whole JSON-RPC error response. */
  readonly errorResponse: (id: RequestId, error: ProtocolError) => string
  /**
   * Optionally, a writer of one stream's frames straight into bytes for the events it recognises (the
   * same bytes `eventJson` gives in the frame); it returns false for the others, which `eventJson` writes.
   */
  readonly frameWriter?: (prefix: string, suffix: string) => FrameWriter
}

/** Writes the frame of event `seq` into `sink`, or returns false having written nothing. */
export type FrameWriter = (sink: ByteSink, seq: number, event: unknown) => boolean

/** A2A 0.3: each event is the bare model event (`kind`, `final`), written by {@link makeEventJson}. */
export const sse03: SseFormat = { eventJson: makeEventJson, errorResponse, frameWriter: makeArtifactFrameWriter }

/** Options of {@link sseBody}. */
export interface SseOptions {
  /** Idle time after which a `: ping` comment is written; 0 turns heartbeats off. */
  readonly heartbeatMs: number
}

const encoder = new TextEncoder()
const PING = encoder.encode(": ping\n\n")

/**
 * Encoding scratch shared by every writer (framing is synchronous), grown to the largest chunk so far and
 * kept up to 4 MiB: a fast agent queues thousands of events between two turns of its stream's writer, and
 * a smaller bound grew (and copied) a fresh buffer several times for every such chunk.
 */
let scratch = new Uint8Array(64 * 1024)
const keptScratch = 4 * 1024 * 1024

/** Events joined into one string before each encode: short joins keep V8's string flattening cheap. */
const eventsPerEncode = 32

const frameSuffix = "}\n\n"

/**
 * The frames of one input chunk as one buffer, written into the scratch buffer and copied out once.
 * Events the format's frame writer knows (a stream's artifact updates) go straight into bytes; the
 * others are joined as text a few at a time and encoded: encoding one long concatenation costs more in
 * flattening the string than in encoding it, and one encoder call per event costs a call each.
 */
const framer = (id: RequestId, format: SseFormat) => {
  const prefix = `data: ${resultPrefix(id)}`
  const json = format.eventJson() as (event: unknown) => string
  const direct = format.frameWriter?.(prefix, frameSuffix)
  return (frames: ReadonlyArray<SequencedFrame>): Uint8Array => {
    const sink: ByteSink = { buffer: scratch, used: 0 }
    let text = ""
    let joined = 0
    for (let i = 0; i < frames.length; i++) {
      const { seq, event } = frames[i]!
      if (direct !== undefined) {
        if (joined > 0) {
          writeText(sink, text)
          text = ""
          joined = 0
        }
        if (direct(sink, seq, event)) continue
      }
      text += `id: ${seq}\n${prefix}${json(event)}${frameSuffix}`
      if (++joined === eventsPerEncode) {
        writeText(sink, text)
        text = ""
        joined = 0
      }
    }
    if (joined > 0) writeText(sink, text)
    if (sink.buffer !== scratch && sink.buffer.length <= keptScratch) scratch = sink.buffer
    return sink.buffer.slice(0, sink.used)
  }
}

/** The bytes of a stream of sequenced events answering request `id`. */
export const sseBody = (
  id: RequestId,
  events: Stream.Stream<SequencedFrame, ProtocolError>,
  options: SseOptions,
  format: SseFormat = sse03
): Stream.Stream<Uint8Array> => {
  const frame = framer(id, format)
  const endWithError = Stream.catchCause((cause: Cause.Cause<ProtocolError>) => {
    // A client that went away interrupts the writer: nothing is left to write to.
    if (Cause.hasInterruptsOnly(cause)) return Stream.failCause(cause as Cause.Cause<never>)
    const failure = Option.getOrUndefined(Cause.findErrorOption(cause))
    const error = failure !== undefined && isProtocolError(failure)
      ? failure
      : new Internal({ message: "The stream ended because of an internal error" })
    return Stream.succeed(errorFrame(id, error, format))
  })
  if (options.heartbeatMs <= 0) {
    return events.pipe(Stream.mapArray((chunk) => [frame(chunk)] as const), endWithError)
  }
  let lastWrite = 0
  const frames = events.pipe(
    // The write time is noted in the same step as the frame, not by a separate effect per chunk.
    Stream.mapArrayEffect((chunk) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        lastWrite = now
        return [frame(chunk)] as const
      })
    ),
    endWithError
  )
  // A stream with nothing to send yet (a resubscription with `Last-Event-ID` to a quiet task) still
  // sends its response headers at once: servers write them with the first body bytes, and a client
  // waiting for them would otherwise time out before the first heartbeat.
  const opening = Stream.fromEffect(Effect.yieldNow).pipe(Stream.filter(() => lastWrite === 0), Stream.as(PING))
  const pings = Stream.concat(
    opening,
    Stream.fromSchedule(Schedule.spaced(options.heartbeatMs)).pipe(
      Stream.filterEffect(() =>
        Clock.currentTimeMillis.pipe(Effect.map((now) => now - lastWrite >= options.heartbeatMs))
      ),
      Stream.as(PING)
    )
  )
  return Stream.merge(frames, pings, { haltStrategy: "left" })
}

/** A single SSE event carrying a JSON-RPC error response. */
export const errorFrame = (id: RequestId, error: ProtocolError, format: SseFormat = sse03): Uint8Array =>
  encoder.encode(`data: ${format.errorResponse(id, error)}\n\n`)

/** Response headers of every SSE answer. */
export const sseHeaders = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no"
} as const
