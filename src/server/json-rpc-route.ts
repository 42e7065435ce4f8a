/**
 * The JSON-RPC endpoint: body limit, parsing, envelope and params decoding, extension
 * negotiation, dispatch, and the answer as JSON or as an SSE stream.
 *
 * Once a request names a streaming method, every answer to it — errors included, and refusals of its
 * envelope or params — is an SSE stream, because stream clients (the official JS client among them)
 * refuse a JSON reply. Only what comes before the method can be read stays JSON: a body that is not sent as
 * JSON (415), over the limit (413), beyond the bytes in flight (503), not UTF-8 or not JSON (-32700), and an
 * authentication refusal (401/403).
 */
import { HttpServerResponse, type HttpServerRequest } from "effect/http"
import { Cause, Clock, Effect, Exit, Option, Result, Stream } from "effect"
import {
  decodeRequest,
  type DecodedRequest,
  type DecodeRequestOptions,
  type ExtensionRequest,
  parseJsonBody,
  type RequestFailure
} from "../../schemas/decode-request.ts"
import {
  Internal,
  isProtocolError,
  JSONParse,
  type ProtocolError
} from "../../schemas/error-catalogue.ts"
import type { AgentCard } from "../../schemas/index.ts"
import { methods, type MethodName } from "../../schemas/methods.ts"
import type { RequestContext } from "../runtime/task-runtime.ts"
import type { AuditTrail } from "./audit-trail.ts"
import { requestedSkill, type PrincipalResolver, type RequestTarget } from "./authentication.ts"
import type { Admission } from "./admission.ts"
import { utf8 } from "./body.ts"
import { cardBaseUrl } from "./card-base-url.ts"
import { traced } from "../runtime/tracing.ts"
import { EXTENSIONS_HEADER, negotiateExtensions, parseExtensionsHeader } from "./extensions.ts"
import { errorResponse, successResponse, type RequestId } from "./json-rpc-envelope.ts"
import type { CallContext, MethodHandlers } from "./method-handlers.ts"
import type { ResolvedServerOptions } from "./options.ts"
import { errorFrame, sseBody, sseHeaders } from "./sse-writer.ts"

/** What the endpoint needs. */
export interface JsonRpcRouteDeps {
  readonly handlers: MethodHandlers
  readonly card: AgentCard
  readonly options: ResolvedServerOptions
  /** Ends every open stream when the server shuts down. */
  readonly shutdown: Effect.Effect<void>
  /** Who is calling; decided before any method runs. */
  readonly principal: PrincipalResolver
  /** The checks before the body is read, and the reading. */
  readonly admission: Admission
  readonly audit: AuditTrail
  /** Extension methods (`{namespace}/{action}`) and where they go. */
  readonly extensionMethods: ExtensionMethods | undefined
}

/** The extension methods a server routes besides the core ones. */
export interface ExtensionMethods {
  readonly methods: ReadonlySet<string>
  readonly route: (method: string, params: unknown, ctx: RequestContext) => Effect.Effect<unknown, ProtocolError>
}

const json = (body: string, status = 200, headers?: Record<string, string>) =>
  HttpServerResponse.text(body, { status, contentType: "application/json", ...(headers ? { headers } : {}) })

const jsonError = (id: RequestId, error: ProtocolError, status = 200) => json(errorResponse(id, error), status)

/** Turns a failure or defect of a method into a wire error; defects never show their cause. */
const toProtocolError = (cause: Cause.Cause<ProtocolError>): ProtocolError => {
  const failure = Option.getOrUndefined(Cause.findErrorOption(cause))
  if (failure !== undefined && isProtocolError(failure)) return failure
  return new Internal({ message: "Internal error" })
}

/** The task a request concerns, for the audit trail: named in the params or created by the call. */
const taskIdOf = (params: unknown, result: unknown): string | undefined => {
  const p = params as { id?: unknown; taskId?: unknown; message?: { taskId?: unknown } } | undefined
  const r = result as { kind?: unknown; id?: unknown } | undefined
  const candidate = p?.id ?? p?.taskId ?? p?.message?.taskId ?? (r?.kind === "task" ? r.id : undefined)
  return typeof candidate === "string" ? candidate : undefined
}

/** What a request record says besides its kind and principal. */
interface RequestFields {
  readonly method: string
  readonly outcome: "ok" | "error"
  readonly errorCode?: number
  readonly durationMs: number
  readonly requestId: RequestId
  readonly taskId?: string | undefined
}

/**
 * A request body decoded once, before anything else looks at it: authentication, skill selection and the
 * method all read this one value, so none of them can see a different request than the others.
 */
const decodeBody = (
  bytes: Uint8Array,
  options: DecodeRequestOptions
): { readonly decoded: DecodedRequest | ExtensionRequest | RequestFailure; readonly method?: string } => {
  const text = utf8(bytes)
  if (text === undefined) return { decoded: { _tag: "Failure", id: null, error: new JSONParse({ message: "Request body is not valid UTF-8" }) } }
  const parsed = parseJsonBody(text)
  if (parsed._tag === "Failure") return parsed.method === undefined ? { decoded: parsed } : { decoded: parsed, method: parsed.method }
  const decoded = decodeRequest(parsed.value, options)
  // A refused request still names its method to the authorization hook, as far as the envelope says.
  return decoded.method === undefined ? { decoded } : { decoded, method: decoded.method }
}

/** Whether `method` is a core method answered in SSE: then so is every error of a request naming it. */
const isStreamingMethod = (method: string | undefined): boolean =>
  method !== undefined && Object.hasOwn(methods, method) && methods[method as MethodName].streaming

const sseError = (id: RequestId, error: ProtocolError) =>
  HttpServerResponse.uint8Array(errorFrame(id, error), { headers: sseHeaders })

/** Who a request claims to be for the resolver: its id, method and the skill its decoded params name. */
const targetOf = (card: AgentCard, body: ReturnType<typeof decodeBody>): RequestTarget => {
  const { decoded, method } = body
  const skill = decoded._tag === "Failure" ? undefined : requestedSkill(card, decoded.params)
  return { id: decoded.id, ...(method !== undefined ? { method } : {}), ...(skill !== undefined ? { skill } : {}) }
}

/** Builds the handler of `POST <rpcPath>`. */
export const jsonRpcRoute = (deps: JsonRpcRouteDeps) => {
  const { handlers, options } = deps
  const extensions = deps.card.capabilities.extensions ?? []
  const decodeOptions: DecodeRequestOptions = deps.extensionMethods === undefined ? {} : { extensionMethods: deps.extensionMethods.methods }

  return (request: HttpServerRequest.HttpServerRequest): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
    Effect.gen(function* () {
      // Media type, credentials as the headers tell, then the body under its bounds (admission.ts).
      const read = yield* Effect.result(deps.admission.admit(request, "jsonrpc"))
      if (read._tag === "Failure") return read.failure
      // Who is calling is settled before the request is judged, so an unauthenticated caller learns
      // nothing about methods or params; the decoded body only tells the resolver which skill is asked for.
      const body = decodeBody(read.success, decodeOptions)
      const authenticated = yield* Effect.result(deps.principal(request, targetOf(deps.card, body)))
      if (authenticated._tag === "Failure") return authenticated.failure
      const principal = authenticated.success

      // Every request past authentication leaves a record, whatever its outcome; in `required`
      // mode an answer whose record could not be written becomes the trail's error.
      const recordRequest = ({ taskId, ...fields }: RequestFields) =>
        deps.audit.enabled
          ? deps.audit.record({ kind: "request", principal: principal.id, ...fields, ...(taskId === undefined ? {} : { taskId }) })
          : Effect.void

      const { decoded } = body
      if (decoded._tag === "Failure") {
        const recorded = yield* Effect.result(recordRequest({
          method: body.method ?? "",
          outcome: "error",
          errorCode: decoded.error.code,
          durationMs: 0,
          requestId: decoded.id
        }))
        const error = recorded._tag === "Failure" ? recorded.failure : decoded.error
        return isStreamingMethod(body.method) ? sseError(decoded.id, error) : jsonError(decoded.id, error)
      }
      const { id, method } = decoded
      const streaming = decoded._tag === "Request" && methods[decoded.method].streaming
      const answerError = (error: ProtocolError) => (streaming ? sseError(id, error) : jsonError(id, error))

      const negotiation = negotiateExtensions(extensions, parseExtensionsHeader(request.headers[EXTENSIONS_HEADER]))
      if (negotiation._tag === "Refused") {
        // Refused before any work, but still a request of an authenticated principal: the trail keeps it.
        const recorded = yield* Effect.result(recordRequest({
          method,
          outcome: "error",
          errorCode: negotiation.error.code,
          durationMs: 0,
          requestId: id,
          taskId: taskIdOf(decoded.params, undefined)
        }))
        return answerError(recorded._tag === "Failure" ? recorded.failure : negotiation.error)
      }
      // In `required` mode a request runs only while the trail records: a failing trail refuses it here.
      let refused: Internal | undefined
      if (deps.audit.enabled) {
        const admitted = yield* Effect.result(Effect.andThen(
          deps.audit.admit,
          Effect.forEach(negotiation.uris, (uri) => deps.audit.record({ kind: "extension-activated", uri, method }), { discard: true })
        ))
        if (admitted._tag === "Failure") refused = admitted.failure
      }
      const echo: Record<string, string> = negotiation.uris.length > 0
        ? { [EXTENSIONS_HEADER]: negotiation.uris.join(", ") }
        : {}

      const lastEventHeader = request.headers["last-event-id"]
      const lastEventId = lastEventHeader !== undefined && /^\d+$/.test(lastEventHeader) ? Number(lastEventHeader) : undefined
      const ctx: CallContext = {
        principal,
        extensions: negotiation.uris,
        lastEventId,
        // Only the card methods read it: worked out on demand, not per request.
        get baseUrl() {
          return cardBaseUrl(request, options)
        }
      }
      const handler = decoded._tag === "Extension"
        ? (params: unknown, c: CallContext) => deps.extensionMethods!.route(method, params, c)
        : handlers[decoded.method] as (params: unknown, c: CallContext) => Effect.Effect<unknown, ProtocolError>
      const started = deps.audit.enabled ? yield* Clock.currentTimeMillis : 0
      // One Exit instead of a tapDefect/sandbox/mapError/either chain: fewer wrappers on every request.
      const exit = refused !== undefined
        ? Exit.fail(refused)
        : yield* Effect.exit(traced(handler(decoded.params, ctx), "a2a.request", { "a2a.method": method, "a2a.binding": "jsonrpc", "a2a.principal": principal.id }))
      if (Exit.isFailure(exit) && Cause.hasDies(exit.cause)) yield* Effect.logError(`${method} failed with a defect`, exit.cause)
      const outcome: Result.Result<unknown, ProtocolError> = Exit.isSuccess(exit)
        ? Result.succeed(exit.value)
        : Result.fail(toProtocolError(exit.cause))
      if (deps.audit.enabled) {
        const recorded = yield* Effect.result(recordRequest({
          method,
          outcome: outcome._tag === "Failure" ? "error" : "ok",
          ...(outcome._tag === "Failure" ? { errorCode: outcome.failure.code } : {}),
          // The wall clock may step back; a negative duration would not fit the record.
          durationMs: Math.max(0, (yield* Clock.currentTimeMillis) - started),
          requestId: id,
          taskId: taskIdOf(decoded.params, outcome._tag === "Success" ? outcome.success : undefined)
        }))
        if (recorded._tag === "Failure") return answerError(refused ?? recorded.failure)
      }
      if (outcome._tag === "Failure") return answerError(outcome.failure)
      if (!streaming) return json(successResponse(id, outcome.success), 200, echo)
      const events = outcome.success as Stream.Stream<{ seq: number; event: unknown }, ProtocolError>
      return HttpServerResponse.stream(
        sseBody(id, events.pipe(Stream.interruptWhen(deps.shutdown)), { heartbeatMs: options.heartbeatMs }),
        { headers: { ...sseHeaders, ...echo } }
      )
    }).pipe(
      Effect.catchCause(() => Effect.succeed(jsonError(null, new Internal({ message: "Internal error" }), 500)))
    ) as Effect.Effect<HttpServerResponse.HttpServerResponse>
}

/** The method names a request may use, for documentation and routing of extension methods. */
export const coreMethods = Object.keys(methods) as ReadonlyArray<MethodName>
