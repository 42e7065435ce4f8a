/**
 * Spans for requests, tasks and their agents' runs, made only when a tracer is installed (the server's
 * `telemetry.otlp`, or the embedder's own): with Effect's native tracer a span goes nowhere and is pure
 * cost. The check is one look at the running fiber, before any span or attribute is made. Stacks are never
 * captured; they would only ever point at this file.
 */
import { Context, Effect, type Exit, Option, Tracer } from "effect"
import { HttpTraceContext } from "effect/http"
import type { Headers } from "effect/http"
import { CurrentTraceState, telemetryOf } from "../telemetry/trace-context.ts"
export { observing, traceparentOf } from "../telemetry/trace-context.ts"
import { openTaskSpan } from "../telemetry/task-telemetry.ts"

/** The tracer of a runtime nobody configured: its spans go nowhere. */
const nativeTracer: Tracer.Tracer = Tracer.nativeTracer

/** What a request is, for its span and metrics. */
export interface RequestFacts {
  readonly binding: "jsonrpc" | "rest"
  readonly method: string
  readonly version: string
  readonly principal: string
  readonly headers: Headers.Headers
}

/** How a request ended: its result code (0 for success) and the task it named or made. */
export interface RequestEnd {
  readonly code: number
  readonly taskId: string | undefined
}

/**
 * Runs a request's handling in an `a2a.request` server span, and records it in the server's metrics. Its
 * parent is the span the fiber is already in (an embedder's HTTP server span), else the W3C `traceparent`
 * the request carries; its `tracestate` goes on, unchanged, with the calls the request and its tasks make
 * to other agents. Call only when `observing()`.
 */
export const observeRequest = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  facts: RequestFacts,
  end: (exit: Exit.Exit<A, E>) => RequestEnd
): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) => {
    const telemetry = telemetryOf(fiber)
    const instruments = telemetry?.instruments
    const tracing = fiber.getRef(Tracer.Tracer) !== nativeTracer
    const started = performance.now()
    const record = (exit: Exit.Exit<A, E>, span: Tracer.Span | undefined) =>
      Effect.sync(() => {
        const { code, taskId } = end(exit)
        if (span !== undefined) {
          span.attribute("a2a.result.code", code)
          if (taskId !== undefined) span.attribute("a2a.task.id", taskId)
        }
        if (instruments !== undefined) {
          instruments.request(
            { method: facts.method, binding: facts.binding, version: facts.version, outcome: code === 0 ? "ok" : String(code) },
            (performance.now() - started) / 1000
          )
        }
      })
    if (!tracing) return Effect.onExit(effect, (exit) => record(exit, undefined))
    const inSpan = Context.getOption(fiber.context, Tracer.ParentSpan)
    const parent = Option.isSome(inSpan) ? undefined : Option.getOrUndefined(HttpTraceContext.fromHeaders(facts.headers))
    return Effect.useSpan("a2a.request", {
      kind: "server",
      ...(parent !== undefined ? { parent } : {}),
      attributes: {
        "a2a.method": facts.method,
        "a2a.binding": facts.binding,
        "a2a.version": facts.version,
        "a2a.principal": facts.principal
      }
    }, (span) => {
      const traced = Effect.withParentSpan(Effect.onExit(effect, (exit) => record(exit, span)), span)
      const state = parent === undefined ? undefined : facts.headers["tracestate"]
      return state === undefined || state === "" ? traced : Effect.provideService(traced, CurrentTraceState, state)
    })
  })

/**
 * Runs an agent's `execute` in an `a2a.agent.run` span, a child of its task's span when the server's
 * telemetry traces it (else of whatever span the run was started in), when a real tracer is installed.
 */
export const tracedRun = <A, E, R>(effect: Effect.Effect<A, E, R>, taskId: string, principal: string): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) => {
    if (fiber.getRef(Tracer.Tracer) === nativeTracer) return effect
    const telemetry = telemetryOf(fiber)
    const parent = telemetry?.tracer === undefined ? undefined : openTaskSpan(telemetry, taskId, principal)
    return Effect.withSpan(effect, "a2a.agent.run", {
      attributes: { "a2a.task.id": taskId, "a2a.principal": principal },
      ...(parent !== undefined ? { parent } : {}),
      captureStackTrace: false
    })
  })
