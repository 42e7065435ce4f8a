/**
 * The Server-Sent Events writer of the REST binding (`message:stream`, `tasks/{id}:subscribe`).
 *
 * Same framing as the JSON-RPC writer (`id: <seq>`, one `data:` line per event, a burst of queued events in
 * one buffer, `: ping` while idle), but each `data:` holds the bare REST payload (`{"task":...}`,
 * `{"statusUpdate":...}`) instead of a JSON-RPC envelope, and an error is an `event: error` frame whose
 * data is `{ code, message, data? }`: what the official JS SDK's REST client reads and rethrows.
 */
import { Cause, Clock, Effect, Option, Schedule, Stream } from "effect"
import { Internal, isProtocolError, type ProtocolError, toWireError } from "../../../schemas/error-catalogue.ts"
import { toRest } from "../../../schemas/rest/index.ts"
import type { SequencedEvent } from "../../runtime/task-runtime.ts"
import type { SseOptions } from "../sse-writer.ts"

const encoder = new TextEncoder()
const PING = encoder.encode(": ping\n\n")

/** How one protocol version writes a REST stream's events and the error that ends one. */
export interface RestSseFormat {
  /** A serializer for the events of one stream. */
  readonly eventJson: () => (event: SequencedEvent["event"]) => string
  /** The JSON of an `event: error` frame. */
  readonly errorJson: (error: ProtocolError) => string
}

/** A2A 0.3: the protobuf JSON mapping of the 0.3 `.proto`; errors as `{ code, message, data? }`. */
export const restSse03: RestSseFormat = {
  eventJson: () => (event) => JSON.stringify(toRest.streamResponse(event)),
  errorJson: (error) => JSON.stringify(toWireError(error))
}

/** A single SSE `error` event carrying the wire error. */
export const restErrorFrame = (error: ProtocolError, format: RestSseFormat = restSse03): Uint8Array =>
  encoder.encode(`event: error\ndata: ${format.errorJson(error)}\n\n`)

/** The bytes of a REST stream of sequenced events. */
export const restSseBody = (
  events: Stream.Stream<SequencedEvent, ProtocolError>,
  options: SseOptions,
  format: RestSseFormat = restSse03
): Stream.Stream<Uint8Array> => {
  let lastWrite = 0
  const json = format.eventJson()
  const frames = events.pipe(
    Stream.mapArray((chunk) => {
      let text = ""
      for (const { seq, event } of chunk) text += `id: ${seq}\ndata: ${json(event)}\n\n`
      return [encoder.encode(text)] as const
    }),
    Stream.catchCause((cause) => {
      // A client that went away interrupts the writer: nothing is left to write to.
      if (Cause.hasInterruptsOnly(cause)) return Stream.failCause(cause as Cause.Cause<never>)
      const failure = Option.getOrUndefined(Cause.findErrorOption(cause))
      const error = failure !== undefined && isProtocolError(failure)
        ? failure
        : new Internal({ message: "The stream ended because of an internal error" })
      return Stream.succeed(restErrorFrame(error, format))
    }),
    Stream.tap(() => Clock.currentTimeMillis.pipe(Effect.map((now) => { lastWrite = now })))
  )
  if (options.heartbeatMs <= 0) return frames
  // A stream with nothing to send yet (a resubscription with `Last-Event-ID` to a quiet task) still sends
  // its response headers at once: HTTP servers write them with the first body bytes, and a client waiting
  // for them would otherwise time out before the first heartbeat.
  const opening = Stream.fromEffect(Effect.yieldNow).pipe(Stream.filter(() => lastWrite === 0), Stream.as(PING))
  const pings = Stream.concat(
    opening,
    Stream.fromSchedule(Schedule.spaced(options.heartbeatMs)).pipe(
      Stream.filterEffect(() => Clock.currentTimeMillis.pipe(Effect.map((now) => now - lastWrite >= options.heartbeatMs))),
      Stream.as(PING)
    )
  )
  return Stream.merge(frames, pings, { haltStrategy: "left" })
}
