/**
 * `GET /metrics` (the path is configurable): the server's metrics in Prometheus' text format, behind the
 * server's authentication when its card declares `security` (a scraper sends credentials like any caller).
 */
import { Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Telemetry } from "../telemetry/telemetry.ts"
import type { PrincipalResolver } from "./authentication.ts"

/** Prometheus' text exposition format, version 0.0.4. */
const contentType = "text/plain; version=0.0.4; charset=utf-8"

/** The route serving `telemetry`'s metrics to callers `principal` admits. */
export const metricsRoute = (telemetry: Telemetry, principal: PrincipalResolver) =>
  (request: HttpServerRequest.HttpServerRequest): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
    principal(request, { binding: "rest" }).pipe(
      Effect.map(() => HttpServerResponse.text(telemetry.prometheusText(), { contentType, headers: { "cache-control": "no-store" } })),
      Effect.catch((refusal) => Effect.succeed(refusal))
    )
