/**
 * The REST (HTTP+JSON) binding of both A2A versions, served by the same method handlers, authentication,
 * extension negotiation and audit trail as JSON-RPC. The request's `A2A-Version` picks the dialect: 0.3's
 * `/v1/…` routes (`rest-v03.ts`) or 1.0's routes without a prefix and with an optional `/{tenant}`
 * (`v1/rest-v1.ts`). The header, not the path, decides, since a 1.0 tenant named `v1` is a 0.3 path.
 *
 * An error is the dialect's HTTP status and body; a stream's errors after its first byte are `event: error`
 * frames with the same body.
 *
 * @example
 * ```ts
 * yield* router.add("*", restRoutePattern, restRoute({ dialects, card, options, shutdown, principal, audit }))
 * ```
 */
import { observeRequest, observing, type RequestFacts } from "../../runtime/tracing.ts"
import { isResubscribe, observeStream } from "../../telemetry/stream-telemetry.ts"
import { HttpServerResponse, type HttpServerRequest } from "effect/http"
import { Cause, Clock, Effect, Exit, Option, Result, Stream } from "effect"
import type { AgentCard } from "../../../schemas/agent-card.ts"
import {
  Internal,
  InvalidRequest,
  isProtocolError,
  MethodNotFound,
  type ProtocolError
} from "../../../schemas/error-catalogue.ts"
import type { Admission } from "../admission.ts"
import type { AuditTrail } from "../audit-trail.ts"
import { requestedSkill, type PrincipalResolver } from "../authentication.ts"
import { cardBaseUrl } from "../card-base-url.ts"
import { negotiateExtensions, requestedExtensions } from "../extensions.ts"
import type { CallContext } from "../method-handlers.ts"
import { negotiateVersion, type ProtocolVersion } from "../negotiation.ts"
import type { ResolvedServerOptions } from "../options.ts"
import { sseHeaders } from "../sse-writer.ts"
import { requestUrl } from "../request-url.ts"
import type { RestDialect } from "./rest-dialect.ts"
import { type JsonBody, jsonBodyOf } from "./rest-body.ts"
import type { RestOutcome } from "./rest-operations.ts"

/** What the REST binding needs: the same as the JSON-RPC endpoint, so one object can serve both. */
export interface RestRouteDeps {
  /** The binding of each version; the request's `A2A-Version` picks one. */
  readonly dialects: { readonly [V in ProtocolVersion]: RestDialect<any> }
  /** The agent's card: its extensions are negotiated, its skills' security applied. */
  readonly card: AgentCard
  readonly options: ResolvedServerOptions
  /** Ends every open stream when the server shuts down. */
  readonly shutdown: Effect.Effect<void>
  /** Who is calling; decided before any method runs. */
  readonly principal: PrincipalResolver
  /** The checks before the body is read, and the reading. */
  readonly admission: Admission
  readonly audit: AuditTrail
}

/**
 * The router pattern the binding is registered under: one catch-all route, dispatched by the dialect's
 * matcher (the router's own syntax would read the `:` of `message:send` as a parameter). Static routes (the
 * JSON-RPC endpoint, the cards, the JWKS) take precedence over it.
 */
export const restRoutePattern = "/*"

type Headers = Record<string, string>

const toProtocolError = (cause: Cause.Cause<ProtocolError>): ProtocolError => {
  const failure = Option.getOrUndefined(Cause.findErrorOption(cause))
  if (failure !== undefined && isProtocolError(failure)) return failure
  return new Internal({ message: "Internal error" })
}

/** The task a call concerns, for the audit trail: named by its params or created by it. */
const taskIdOf = (params: unknown, outcome: RestOutcome | undefined): string | undefined => {
  const p = params as { id?: unknown; taskId?: unknown; message?: { taskId?: unknown } } | undefined
  const body = outcome?._tag === "Json" ? (outcome.body as { task?: { id?: unknown } } | undefined) : undefined
  const written = outcome?._tag === "Text" ? outcome.taskId : undefined
  const candidate = p?.taskId ?? p?.message?.taskId ?? p?.id ?? body?.task?.id ?? written
  return typeof candidate === "string" ? candidate : undefined
}

/** A REST request's handling, in its span and metrics when the server observes (its outcome is already a Result). */
const observed = (
  effect: Effect.Effect<Result.Result<RestOutcome, ProtocolError>>,
  facts: RequestFacts,
  params: unknown
): Effect.Effect<Result.Result<RestOutcome, ProtocolError>> =>
  observing()
    ? observeRequest(effect, facts, (exit) => {
      const result = Exit.isSuccess(exit) ? exit.value : undefined
      return {
        code: result === undefined ? -32603 : result._tag === "Success" ? 0 : result.failure.code,
        taskId: taskIdOf(params, result?._tag === "Success" ? result.success : undefined)
      }
    })
    : effect

/** Builds the handler of every REST request. */
export const restRoute = (deps: RestRouteDeps) => {
  const { dialects, options, audit } = deps
  const declared = deps.card.capabilities.extensions ?? []

  // Made once, not per request (see json-rpc-route.ts).
  return Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest): Effect.fn.Return<HttpServerResponse.HttpServerResponse> {
      const negotiated = negotiateVersion(request)
      const url = requestUrl(request.url)
      // An unsupported version is refused in the shape of the routes the path belongs to.
      const dialect: RestDialect<any> = negotiated._tag === "Version"
        ? dialects[negotiated.version]
        : dialects["0.3"].match(request.method, url.pathname)._tag === "Matched" ? dialects["0.3"] : dialects["1.0"]
      if (negotiated._tag === "Unsupported") return dialect.errorResponse(negotiated.error)
      const match = dialect.match(request.method, url.pathname)
      switch (match._tag) {
        case "BadPath":
          return dialect.errorResponse(new InvalidRequest({ message: "The request path is not valid percent-encoding" }), 400)
        case "NotFound":
          return dialect.errorResponse(new MethodNotFound({ message: match.message }), 404)
        case "MethodNotAllowed":
          return dialect.errorResponse(
            new MethodNotFound({ message: `${request.method.slice(0, 10)} is not allowed here; use ${match.allow.join(" or ")}` }),
            405,
            { allow: match.allow.join(", ") }
          )
      }
      const { operation } = match

      const rule = dialect.bodyRule(operation)
      let body: JsonBody = Result.succeed(undefined)
      if (rule !== "none") {
        // Media type, credentials as the headers tell, then the body under its bounds (admission.ts).
        const read = yield* Effect.result(deps.admission.admit(request, {
          binding: "rest",
          version: dialect.version,
          refuse: (error, status, headers) => dialect.errorResponse(error, status, headers)
        }))
        if (read._tag === "Failure") return read.failure
        body = jsonBodyOf(read.success, rule === "required")
      }
      // The body is decoded once, and who is calling is settled before anything about it is answered: an
      // unauthenticated caller learns nothing from it, and the skill checked is the one the agent will see.
      const prepared = Result.flatMap(body, (value) => dialect.prepare(operation, value, url.searchParams))
      const skill = Result.isSuccess(prepared) ? requestedSkill(deps.card, prepared.success.params) : undefined
      const authenticated = yield* Effect.result(
        deps.principal(request, {
          method: dialect.methodOf(operation),
          binding: "rest",
          version: dialect.version,
          ...(skill === undefined ? {} : { skill })
        })
      )
      if (authenticated._tag === "Failure") return authenticated.failure
      const principal = authenticated.success

      // Every call past authentication leaves a record, whatever its outcome; in `required` mode
      // an answer whose record could not be written becomes the trail's error.
      const recordRequest = (method: string, outcome: Result.Result<RestOutcome, ProtocolError> | undefined, params: unknown, durationMs: number) => {
        if (!audit.enabled) return Effect.void
        const taskId = taskIdOf(params, outcome?._tag === "Success" ? outcome.success : undefined)
        return audit.record({
          kind: "request",
          method,
          principal: principal.id,
          outcome: outcome?._tag === "Success" ? "ok" : "error",
          ...(outcome?._tag === "Failure" ? { errorCode: outcome.failure.code } : {}),
          durationMs,
          ...(taskId !== undefined ? { taskId } : {})
        })
      }
      const refuse = (method: string, error: ProtocolError, params: unknown) =>
        Effect.map(Effect.result(recordRequest(method, Result.fail(error), params, 0)), (recorded) =>
          dialect.errorResponse(recorded._tag === "Failure" ? recorded.failure : error))

      if (prepared._tag === "Failure") return yield* refuse(dialect.methodOf(operation), prepared.failure, Result.getOrUndefined(body))
      const { method, params } = prepared.success

      const negotiation = negotiateExtensions(declared, requestedExtensions(request.headers), dialect.extensionRequired)
      if (negotiation._tag === "Refused") return yield* refuse(method, negotiation.error, params)
      // In `required` mode a call runs only while the trail records: a failing trail refuses it here.
      let refused: ProtocolError | undefined
      if (audit.enabled) {
        const admitted = yield* Effect.result(Effect.andThen(
          audit.admit,
          Effect.forEach(negotiation.uris, (uri) => audit.record({ kind: "extension-activated", uri, method }), { discard: true })
        ))
        if (admitted._tag === "Failure") refused = admitted.failure
      }
      const echo: Headers = negotiation.uris.length > 0 ? { [dialect.extensionsHeader]: negotiation.uris.join(", ") } : {}

      const lastEventHeader = request.headers["last-event-id"]
      const ctx: CallContext = {
        principal,
        extensions: negotiation.uris,
        lastEventId: lastEventHeader !== undefined && /^\d+$/.test(lastEventHeader) ? Number(lastEventHeader) : undefined,
        // A function, not a getter (see json-rpc-route.ts).
        baseUrl: () => cardBaseUrl(request, options)
      }
      const started = yield* Clock.currentTimeMillis
      const outcome: Result.Result<RestOutcome, ProtocolError> = refused !== undefined
        ? Result.fail(refused)
        : yield* observed(
          prepared.success.run(ctx).pipe(
            Effect.tapDefect((defect) => {
              const taskId = taskIdOf(params, undefined)
              return Effect.logError(`${method} (REST)${taskId === undefined ? "" : ` for task ${taskId}`} failed with a defect`, defect)
            }),
            Effect.sandbox,
            Effect.mapError(toProtocolError),
            Effect.result
          ),
          { binding: "rest", method, version: dialect.version, principal: principal.id, headers: request.headers },
          params
        )
      // The wall clock may step back; a negative duration would not fit the record.
      const recorded = yield* Effect.result(recordRequest(method, outcome, params, Math.max(0, (yield* Clock.currentTimeMillis) - started)))
      if (recorded._tag === "Failure") return dialect.errorResponse(refused ?? recorded.failure, 500, echo)
      if (outcome._tag === "Failure") return dialect.errorResponse(outcome.failure, undefined, echo)
      const result = outcome.success
      const contentType = dialect.contentType(request.headers["accept"])
      switch (result._tag) {
        case "Json":
          return HttpServerResponse.text(JSON.stringify(result.body), { status: 200, contentType, headers: echo })
        case "Text":
          return HttpServerResponse.text(result.json, { status: 200, contentType, headers: echo })
        case "Empty":
          return HttpServerResponse.empty({ status: 204, headers: echo })
        case "Stream":
          return HttpServerResponse.stream(
            dialect.sse(
              observeStream(result.events, ctx.lastEventId !== undefined || isResubscribe(method)).pipe(Stream.interruptWhen(deps.shutdown)),
              { heartbeatMs: options.heartbeatMs }
            ),
            { headers: { ...sseHeaders, ...echo } }
          )
      }
    }, Effect.catchCause(() => Effect.succeed(dialects["0.3"].errorResponse(new Internal({ message: "Internal error" }), 500))))
}
