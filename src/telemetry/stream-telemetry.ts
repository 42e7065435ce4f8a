/**
 * SSE streams in the metrics: open streams, events written, and streams that replay a task's event log.
 *
 * @module
 */
import { Effect, Fiber, Stream } from "effect"
import { telemetryOf } from "./trace-context.ts"

/**
 * `events` counted into the metrics of the server the running fiber works for; unchanged (nothing made)
 * when it keeps none. `replay`: the stream starts by replaying the task's event log.
 */
export const observeStream = <A, E, R>(events: Stream.Stream<A, E, R>, replay: boolean): Stream.Stream<A, E, R> => {
  const fiber = Fiber.getCurrent()
  const instruments = fiber === undefined ? undefined : telemetryOf(fiber)?.instruments
  if (instruments === undefined) return events
  return events.pipe(
    // Counted a chunk at a time: an effect per event would cost more than writing it.
    Stream.mapArray((chunk) => {
      instruments.streamEvents(chunk.length)
      return chunk
    }),
    Stream.onStart(Effect.sync(() => {
      instruments.streamOpened()
      if (replay) instruments.replay()
    })),
    Stream.ensuring(Effect.sync(instruments.streamClosed))
  )
}

/** The methods that reopen a task's stream (0.3 and 1.0 names): their stream replays what the caller missed. */
export const isResubscribe = (method: string): boolean => method === "tasks/resubscribe" || method === "SubscribeToTask"
