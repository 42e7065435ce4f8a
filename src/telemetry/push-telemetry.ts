/**
 * Push deliveries in traces and metrics: an `a2a.push.delivery` span per snapshot and webhook, linked to its
 * task's span, with an `a2a.push.attempt` client span per attempt whose context the webhook request carries
 * (`traceparent`); and the deliveries by outcome, with their duration.
 *
 * @module
 */
import { Effect, type Tracer } from "effect"
import { currentSpan, traceparentOf } from "./trace-context.ts"
import type { PushEvent } from "../push/push-events.ts"
import type { PushTrace } from "../push/delivery-queue.ts"
import type { Task } from "../../schemas/index.ts"
import { redactUrl } from "../push/url-guard.ts"
import type { Telemetry } from "./telemetry.ts"

/** The task span each offered snapshot belongs to, taken when it is offered (the task may end before delivery). */
export interface PushLinks {
  readonly remember: (task: Task) => void
  readonly trace: PushTrace
}

/** The push tracing seam of a server whose telemetry traces. */
export const pushTrace = (telemetry: Telemetry): PushLinks => {
  const spanOf = new WeakMap<Task, Tracer.Span>()
  return {
    remember: (task) => {
      const span = telemetry.taskSpans.get(task.id)
      if (span !== undefined) spanOf.set(task, span)
    },
    trace: {
      delivery: (item, effect) => {
        const task = spanOf.get(item.task)
        return Effect.withSpan(effect, "a2a.push.delivery", {
          kind: "producer",
          root: true,
          links: task === undefined ? [] : [{ span: task, attributes: { "a2a.task.id": item.taskId } }],
          attributes: {
            "a2a.task.id": item.taskId,
            "a2a.task.state": item.task.status.state,
            "a2a.push.config.id": item.config.id ?? "",
            "url.full": redactUrl(item.config.url)
          },
          captureStackTrace: false
        })
      },
      attempt: (attempt, effect) =>
        Effect.withSpan(
          Effect.tap(effect, (result) =>
            Effect.annotateCurrentSpan({
              "a2a.push.outcome": result._tag,
              ...(result.status !== undefined ? { "http.response.status_code": result.status } : {})
            })),
          "a2a.push.attempt",
          { kind: "client", attributes: { "a2a.push.attempt": attempt, "http.request.method": "POST" }, captureStackTrace: false }
        ),
      headers: () => {
        const span = currentSpan()
        return span === undefined ? {} : { traceparent: traceparentOf(span) }
      }
    }
  }
}

/** Push events into the delivery metrics. */
export const recordPushEvent = (telemetry: Telemetry, event: PushEvent): void => {
  const instruments = telemetry.instruments
  if (instruments === undefined) return
  switch (event._tag) {
    case "PushDelivered":
      return instruments.push("delivered", event.durationMs / 1000)
    case "PushRetrying":
      return instruments.push("retrying", event.durationMs / 1000)
    case "PushGaveUp":
      return instruments.push("gave-up", event.reason === "queue-full" ? undefined : event.durationMs / 1000)
    case "PushRefused":
      return instruments.push("refused", event.durationMs / 1000)
    default:
      return
  }
}
