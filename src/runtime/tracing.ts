/**
 * Spans for requests and tasks, made only when a tracer is installed (for instance with
 * `@effect/opentelemetry`): with Effect's default tracer a span goes nowhere and is pure cost.
 * Stacks are never captured; they would only ever point at this file.
 */
import { Effect, Tracer } from "effect"

/** The tracer of a runtime nobody configured: its spans go nowhere. */
const nativeTracer: Tracer.Tracer = Tracer.nativeTracer

/** Runs `effect` in a span named `name` with `attributes`, when a real tracer is installed. */
export const traced = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  name: string,
  attributes: Readonly<Record<string, unknown>>
): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.tracer, (tracer) =>
    tracer === nativeTracer ? effect : Effect.withSpan(effect, name, { attributes, captureStackTrace: false }))
