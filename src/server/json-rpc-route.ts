/**
 * The JSON-RPC endpoint: body limit, parsing, version negotiation, envelope and params decoding, extension
 * negotiation, dispatch, and the answer as JSON or as an SSE stream. One endpoint serves both A2A versions:
 * the request's `A2A-Version` picks the dialect (`json-rpc-dialect.ts`), and everything else is shared.
 *
 * On 0.3, once a request names a streaming method, every answer to it — errors included, and refusals of its
 * envelope or params — is an SSE stream, because 0.3 stream clients (the official JS client among them)
 * refuse a JSON reply. On 1.0 a refusal is a plain JSON-RPC response, as the spec's clients expect. Only what
 * comes before the method can be read stays JSON on both: a body not sent as JSON (415), over the limit (413)
 * or beyond the bytes in flight (503), one that is not UTF-8 or not JSON (-32700), and an authentication
 * refusal (401/403).
 */
import { HttpServerResponse, type HttpServerRequest } from "effect/http"
import { Cause, Clock, Effect, Exit, Option, Result, Stream } from "effect"
import {
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
import { isV1MethodName } from "../../schemas/v1/methods.ts"
import type { RequestContext } from "../runtime/task-runtime.ts"
import type { AuditTrail } from "./audit-trail.ts"
import { requestedSkill, type PrincipalResolver, type RequestTarget } from "./authentication.ts"
import type { Admission } from "./admission.ts"
import { utf8 } from "./body.ts"
import { cardBaseUrl } from "./card-base-url.ts"
import { observeRequest, observing } from "../runtime/tracing.ts"
import { isResubscribe, observeStream } from "../telemetry/stream-telemetry.ts"
import { negotiateExtensions, requestedExtensions } from "./extensions.ts"
import { successResponse, type RequestId } from "./json-rpc-envelope.ts"
import type { DecodedCoreCall, JsonRpcDialect } from "./json-rpc-dialect.ts"
import type { CallContext } from "./method-handlers.ts"
import { negotiateVersion, type ProtocolVersion } from "./negotiation.ts"
import type { ResolvedServerOptions } from "./options.ts"
import { errorFrame, sseBody, sseHeaders } from "./sse-writer.ts"

/** What the endpoint needs. */
export interface JsonRpcRouteDeps {
  /** The binding of each version; the request's `A2A-Version` picks one. */
  readonly dialects: { readonly [V in ProtocolVersion]: JsonRpcDialect }
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

const jsonError = (dialect: JsonRpcDialect, id: RequestId, error: ProtocolError, status = 200, headers?: Record<string, string>) =>
  json(dialect.errorResponse(id, error), status, headers)

/** Turns a failure or defect of a method into a wire error; defects never show their cause. */
const toProtocolError = (cause: Cause.Cause<ProtocolError>): ProtocolError => {
  const failure = Option.getOrUndefined(Cause.findErrorOption(cause))
  if (failure !== undefined && isProtocolError(failure)) return failure
  return new Internal({ message: "Internal error" })
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

type Decoded = DecodedCoreCall | ExtensionRequest | RequestFailure

/**
 * A request body decoded once, before anything else looks at it: authentication, skill selection and the
 * method all read this one value, so none of them can see a different request than the others. The dialect
 * is the negotiated version's; when the version is not supported, the one whose method names the body uses,
 * so the refusal is written in the shape the client reads.
 */
const decodeBody = (
  bytes: Uint8Array,
  dialects: JsonRpcRouteDeps["dialects"],
  version: ProtocolVersion | undefined,
  options: DecodeRequestOptions
): { readonly dialect: JsonRpcDialect; readonly decoded: Decoded; readonly method?: string } => {
  const text = utf8(bytes)
  const fallback = dialects[version ?? "0.3"]
  if (text === undefined) return { dialect: fallback, decoded: { _tag: "Failure", id: null, error: new JSONParse({ message: "Request body is not valid UTF-8" }) } }
  const parsed = parseJsonBody(text)
  if (parsed._tag === "Failure") {
    const dialect = version === undefined && parsed.method !== undefined && isV1MethodName(parsed.method) ? dialects["1.0"] : fallback
    return parsed.method === undefined ? { dialect, decoded: parsed } : { dialect, decoded: parsed, method: parsed.method }
  }
  const named = version ?? namedVersion(parsed.value)
  const dialect = dialects[named]
  const decoded = dialect.decode(parsed.value, options)
  // A refused request still names its method to the authorization hook, as far as the envelope says.
  return decoded.method === undefined ? { dialect, decoded } : { dialect, decoded, method: decoded.method }
}

/** The version whose method a body names: 1.0 for a 1.0 method name, else 0.3. */
const namedVersion = (body: unknown): ProtocolVersion => {
  const method = typeof body === "object" && body !== null ? (body as { readonly method?: unknown }).method : undefined
  return typeof method === "string" && isV1MethodName(method) ? "1.0" : "0.3"
}

const sseError = (dialect: JsonRpcDialect, id: RequestId, error: ProtocolError) =>
  HttpServerResponse.uint8Array(errorFrame(id, error, dialect), { headers: sseHeaders })

/** How a refusal of a request naming `method` is answered: in SSE for a 0.3 streaming method, else as JSON. */
const refusal = (dialect: JsonRpcDialect, method: string | undefined, id: RequestId, error: ProtocolError) =>
  dialect.refusalsInSse && method !== undefined && dialect.isStreaming(method) ? sseError(dialect, id, error) : jsonError(dialect, id, error)

/** Who a request claims to be for the resolver: its id, method and the skill its decoded params name. */
const targetOf = (card: AgentCard, body: ReturnType<typeof decodeBody>): RequestTarget => {
  const { decoded, method, dialect } = body
  // The skill is read from the model's params: a 1.0 message's metadata is the same member.
  const skill = decoded._tag === "Failure" ? undefined : requestedSkill(card, decoded.params)
  return {
    id: decoded.id,
    version: dialect.version,
    ...(method !== undefined ? { method } : {}),
    ...(skill !== undefined ? { skill } : {})
  }
}

/** Builds the handler of `POST <rpcPath>`. */
export const jsonRpcRoute = (deps: JsonRpcRouteDeps) => {
  const { dialects, options } = deps
  const extensions = deps.card.capabilities.extensions ?? []
  const decodeOptions: DecodeRequestOptions = deps.extensionMethods === undefined ? {} : { extensionMethods: deps.extensionMethods.methods }

  // A generator made once, not per request: a generator function made per call gets a hidden class of its
  // own, kept in the old generation, and through it young collections keep the request's objects alive.
  return Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest): Effect.fn.Return<HttpServerResponse.HttpServerResponse> {
      const negotiated = negotiateVersion(request)
      const asked = negotiated._tag === "Version" ? negotiated.version : undefined
      // Media type, credentials as the headers tell, then the body under its bounds (admission.ts).
      const read = yield* Effect.result(deps.admission.admit(request, {
        binding: "jsonrpc",
        version: asked ?? "0.3",
        refuse: (error, status, headers) => jsonError(dialects[asked ?? "0.3"], null, error, status, headers)
      }))
      if (read._tag === "Failure") return read.failure
      // Who is calling is settled before the request is judged, so an unauthenticated caller learns
      // nothing about methods or params; the decoded body only tells the resolver which skill is asked for.
      const body = decodeBody(read.success, dialects, asked, decodeOptions)
      const dialect = body.dialect
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
      // A version this server does not speak is refused like a bad envelope: after authentication, in the
      // shape of the dialect the body looks like.
      const refusedEarly = negotiated._tag === "Unsupported" ? negotiated.error : decoded._tag === "Failure" ? decoded.error : undefined
      if (refusedEarly !== undefined) {
        const recorded = yield* Effect.result(recordRequest({
          method: body.method ?? "",
          outcome: "error",
          errorCode: refusedEarly.code,
          durationMs: 0,
          requestId: decoded.id
        }))
        const error = recorded._tag === "Failure" ? recorded.failure : refusedEarly
        return refusal(dialect, body.method, decoded.id, error)
      }
      if (decoded._tag === "Failure") return refusal(dialect, body.method, decoded.id, decoded.error) // unreachable: refused above
      const { id, method } = decoded
      const streaming = decoded._tag === "Request" && dialect.isStreaming(decoded.method)
      const answerError = (error: ProtocolError) =>
        streaming && dialect.refusalsInSse ? sseError(dialect, id, error) : jsonError(dialect, id, error)

      const negotiation = negotiateExtensions(extensions, requestedExtensions(request.headers), dialect.extensionRequired)
      if (negotiation._tag === "Refused") {
        // Refused before any work, but still a request of an authenticated principal: the trail keeps it.
        const recorded = yield* Effect.result(recordRequest({
          method,
          outcome: "error",
          errorCode: negotiation.error.code,
          durationMs: 0,
          requestId: id,
          taskId: dialect.taskIdOf(decoded.params, undefined)
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
        ? { [dialect.extensionsHeader]: negotiation.uris.join(", ") }
        : {}

      const lastEventHeader = request.headers["last-event-id"]
      const lastEventId = lastEventHeader !== undefined && /^\d+$/.test(lastEventHeader) ? Number(lastEventHeader) : undefined
      const ctx: CallContext = {
        principal,
        extensions: negotiation.uris,
        lastEventId,
        // Only the card methods read it: worked out on demand, not per request. A function, not a getter: an
        // object literal with a getter of its own gets a hidden class of its own, which lives in the old
        // generation and keeps the request's objects alive through young collections.
        baseUrl: () => cardBaseUrl(request, options)
      }
      const handler = decoded._tag === "Extension"
        ? (params: unknown, c: CallContext) => deps.extensionMethods!.route(method, params, c)
        : dialect.handler(decoded.method)
      const started = deps.audit.enabled ? yield* Clock.currentTimeMillis : 0
      // One Exit instead of a tapDefect/sandbox/mapError/either chain: fewer wrappers on every request.
      const exit = refused !== undefined
        ? Exit.fail(refused)
        : yield* Effect.exit(
          observing()
            ? observeRequest(
              handler(decoded.params, ctx),
              { binding: "jsonrpc", method, version: dialect.version, principal: principal.id, headers: request.headers },
              (exit) => ({
                code: Exit.isSuccess(exit) ? 0 : toProtocolError(exit.cause).code,
                taskId: dialect.taskIdOf(decoded.params, Exit.isSuccess(exit) ? exit.value : undefined)
              })
            )
            : handler(decoded.params, ctx)
        )
      if (Exit.isFailure(exit) && Cause.hasDies(exit.cause)) {
        const taskId = dialect.taskIdOf(decoded.params, undefined)
        yield* Effect.logError(`${method}${taskId === undefined ? "" : ` for task ${taskId}`} failed with a defect`, exit.cause)
      }
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
          taskId: dialect.taskIdOf(decoded.params, outcome._tag === "Success" ? outcome.success : undefined)
        }))
        if (recorded._tag === "Failure") return answerError(refused ?? recorded.failure)
      }
      if (outcome._tag === "Failure") return answerError(outcome.failure)
      if (!streaming) {
        // An extension method answers plain JSON, whatever the version.
        const text = decoded._tag === "Extension" ? successResponse(id, outcome.success) : dialect.successResponse(id, outcome.success)
        return json(text, 200, echo)
      }
      const events = outcome.success as Stream.Stream<{ seq: number; event: unknown }, ProtocolError>
      return HttpServerResponse.stream(
        sseBody(id, observeStream(events, ctx.lastEventId !== undefined || isResubscribe(method)).pipe(Stream.interruptWhen(deps.shutdown)), { heartbeatMs: options.heartbeatMs }, dialect),
        { headers: { ...sseHeaders, ...echo } }
      )
    }, Effect.catchCause(() => Effect.succeed(jsonError(dialects["0.3"], null, new Internal({ message: "Internal error" }), 500))))
}
