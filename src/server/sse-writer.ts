/**
 * The Server-Sent Events writer for `message/stream` and `tasks/resubscribe`.
 *
 * Every event becomes `id: <seq>` plus one `data:` line holding a whole JSON-RPC response with
 * the request's id. Events that are already queued when the writer runs arrive as one chunk of
 * the input stream and leave as one encoded buffer, so a burst costs one socket write rather
 * than one per event. While nothing is written for `heartbeatMs`, a `: ping` comment keeps
 * proxies and idle timers from closing the connection.
 */
import { Cause, Chunk, Clock, Effect, Option, Schedule, Stream } from "effect"
import { type ProtocolError, Internal, isProtocolError } from "../../schemas/error-catalogue.ts"
import { errorResponse, resultPrefix, type RequestId } from "./json-rpc-envelope.ts"

/** One event of a task's stream with its per-task sequence number. */
export interface SequencedFrame {
  readonly seq: number
  readonly event: unknown
}

/** Options of {@link sseBody}. */
export interface SseOptions {
  /** Idle time after which a `: ping` comment is written; 0 turns heartbeats off. */
  readonly heartbeatMs: number
}

const encoder = new TextEncoder()
const PING = encoder.encode(": ping\n\n")

/** The bytes of a stream of sequenced events answering request `id`. */
export const sseBody = (
  id: RequestId,
  events: Stream.Stream<SequencedFrame, ProtocolError>,
  options: SseOptions
): Stream.Stream<Uint8Array> => {
  const prefix = `data: ${resultPrefix(id)}`
  let lastWrite = 0
  const frames = events.pipe(
    Stream.mapChunks((chunk) => {
      let text = ""
      for (const { seq, event } of chunk) text += `id: ${seq}\n${prefix}${JSON.stringify(event)}}\n\n`
      return Chunk.of(encoder.encode(text))
    }),
    Stream.catchAllCause((cause) => {
      // A client that went away interrupts the writer: nothing is left to write to.
      if (Cause.isInterruptedOnly(cause)) return Stream.failCause(cause as Cause.Cause<never>)
      const failure = Option.getOrUndefined(Cause.failureOption(cause))
      const error = failure !== undefined && isProtocolError(failure)
        ? failure
        : new Internal({ message: "The stream ended because of an internal error" })
      return Stream.succeed(errorFrame(id, error))
    }),
    Stream.tap(() => Clock.currentTimeMillis.pipe(Effect.map((now) => { lastWrite = now })))
  )
  if (options.heartbeatMs <= 0) return frames
  const pings = Stream.fromSchedule(Schedule.spaced(options.heartbeatMs)).pipe(
    Stream.filterEffect(() =>
      Clock.currentTimeMillis.pipe(Effect.map((now) => now - lastWrite >= options.heartbeatMs))
    ),
    Stream.as(PING)
  )
  return Stream.merge(frames, pings, { haltStrategy: "left" })
}

/** A single SSE event carrying a JSON-RPC error response. */
export const errorFrame = (id: RequestId, error: ProtocolError): Uint8Array =>
  encoder.encode(`data: ${errorResponse(id, error)}\n\n`)

/** Response headers of every SSE answer. */
export const sseHeaders = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no"
} as const
