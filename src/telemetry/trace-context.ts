/**
 * The cheap questions the hooks ask before they make anything: is the running fiber observed, which span is
 * it in, and the W3C `traceparent` that names a span to the next hop. Only Effect's public Fiber and Tracer.
 *
 * @module
 */
import { Context, Fiber, Option, Tracer } from "effect"
import type { Telemetry } from "./telemetry.ts"

/** The telemetry of the server a fiber works for, read by the few hooks that live below the server. */
export const CurrentTelemetry: Context.Reference<object | undefined> = Context.Reference<object | undefined>(
  "a2a-actors/Telemetry",
  { defaultValue: () => undefined }
)

/** The telemetry of the server `fiber` works for. */
export const telemetryOf = (fiber: Fiber.Fiber<unknown, unknown>): Telemetry | undefined => fiber.getRef(CurrentTelemetry) as Telemetry | undefined

/**
 * The W3C `tracestate` of the request a fiber works for, passed on unchanged by the client's calls made in it
 * (the vendors' entries travel with the trace; this runtime adds none).
 */
export const CurrentTraceState: Context.Reference<string | undefined> = Context.Reference<string | undefined>(
  "a2a-actors/TraceState",
  { defaultValue: () => undefined }
)

/** The `tracestate` the running fiber carries, if any. */
export const currentTraceState = (): string | undefined => Fiber.getCurrent()?.getRef(CurrentTraceState)

/** Whether the running fiber has a tracer that records, or its server's telemetry: the one check when off. */
export const observing = (): boolean => {
  const fiber = Fiber.getCurrent()
  return fiber !== undefined && (fiber.getRef(Tracer.Tracer) !== Tracer.nativeTracer || fiber.getRef(CurrentTelemetry) !== undefined)
}

/** The span the running fiber is in, if any. */
export const currentSpan = (): Tracer.AnySpan | undefined => {
  const fiber = Fiber.getCurrent()
  return fiber === undefined ? undefined : Option.getOrUndefined(Context.getOption(fiber.context, Tracer.ParentSpan))
}

/** The W3C `traceparent` header naming `span` as the parent of what the request starts. */
export const traceparentOf = (span: Tracer.AnySpan): string => `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`
