/**
 * JSON-RPC 2.0 over HTTP POST: one request/response exchange, or one SSE connection for a streaming
 * method (`jsonRpcTransport` binds both to an endpoint for the client). Every answer is checked (JSON, envelope, id, result shape) before it reaches the caller; a
 * JSON-RPC error object becomes its tagged class through `fromWireError`.
 *
 * @module
 */
import { Effect, Result, Schema, Stream } from "effect"
import { fromWireError, type ProtocolError, UnsupportedOperation } from "../../schemas/error-catalogue.ts"
import { methods } from "../../schemas/methods.ts"
import { errorFromV1 } from "../../schemas/v1/errors.ts"
import { JSONRPCError } from "../../schemas/wire-errors.ts"
import { readTextCapped } from "./body-reader.ts"
import { A2AClientTransportError, excerpt, invalidAnswer, isLocalInvalidAnswer } from "./errors.ts"
import { exchange, type HttpConfig, mediaType, timeoutError } from "./http.ts"
import { sseMessages } from "./sse.ts"
import type { ClientTransport, ProtocolVersion } from "./transport.ts"

/** Limits and timeouts of the JSON-RPC transport. */
export interface RpcConfig extends HttpConfig {
  /** Deadline of a whole unary call, and of a stream's response headers. */
  readonly timeoutMs: number
  /** Longest silence inside a body (stream or unary) before the answer is refused. */
  readonly idleTimeoutMs: number
  /** Largest SSE event accepted. */
  readonly maxEventBytes: number
  /** Largest unary response body accepted. */
  readonly maxResponseBytes: number
}

/** Reads one decoded JSON value as the answer it should be. */
export type AnswerReader<A> = (u: unknown) => Result.Result<A, Schema.SchemaError>

/** One JSON-RPC call to make. */
export interface RpcRequest<A> {
  readonly url: string
  readonly method: string
  /** The params, or (`paramsJson`) their JSON text as a writer made it. */
  readonly params?: unknown
  readonly paramsJson?: string
  /** Reads the `result` member. */
  readonly read: AnswerReader<A>
  /** Per-call headers (e.g. `Last-Event-ID` on a resubscribe). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** The A2A version spoken (default 0.3): the `A2A-Version` header, and how error objects are read. */
  readonly version?: ProtocolVersion
}

/** One decoded event of a stream, with its SSE id when the server sent one. */
export interface RpcFrame<A> {
  readonly id: string | undefined
  readonly result: A
}

/** The untyped part of a request. */
type RpcTarget = Pick<RpcRequest<unknown>, "url" | "method" | "params" | "paramsJson">

type RpcError = ProtocolError | A2AClientTransportError

const WireErrorObject = Schema.Struct({ error: JSONRPCError })

const formatIssue = (error: Schema.SchemaError): string => excerpt(error.message, 400)

/**
 * Interprets one JSON-RPC response text: JSON parse, envelope, id match, then `error` to its tagged class
 * or `result` decoded with the method's schema.
 */
export const decodeResponse = <A>(
  text: string,
  requestId: string,
  request: RpcRequest<A>
): Effect.Effect<A, ProtocolError> =>
  Effect.gen(function*() {
    const where = { url: request.url, method: request.method }
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () =>
        invalidAnswer("NotJson", `${request.url} answered ${request.method} with something that is not JSON`, {
          ...where,
          detail: excerpt(text)
        })
    })
    if (typeof json !== "object" || json === null || Array.isArray(json) || !("jsonrpc" in json) || json.jsonrpc !== "2.0") {
      return yield* invalidAnswer("NotJsonRpc", `${request.url} answered ${request.method} with JSON that is not a JSON-RPC 2.0 response`, {
        ...where,
        detail: excerpt(text)
      })
    }
    const id = "id" in json ? json.id : undefined
    if ("error" in json && json.error !== undefined && json.error !== null) {
      if (id !== requestId && id !== null) {
        return yield* invalidAnswer("WrongId", `${request.url} answered request ${requestId} with an error for id ${JSON.stringify(id)}`, where)
      }
      const decoded = yield* Schema.decodeUnknownEffect(WireErrorObject)(json).pipe(
        Effect.mapError((e) =>
          invalidAnswer("WrongShape", `${request.url} sent a malformed JSON-RPC error object`, { ...where, detail: formatIssue(e) })
        )
      )
      return yield* Effect.fail(request.version === "1.0" ? errorFromV1(decoded.error) : fromWireError(decoded.error))
    }
    if (id !== requestId) {
      return yield* invalidAnswer("WrongId", `${request.url} answered request ${requestId} with id ${JSON.stringify(id)}`, where)
    }
    if (!("result" in json)) {
      return yield* invalidAnswer("NotJsonRpc", `${request.url} answered ${request.method} with neither result nor error`, where)
    }
    const result = request.read(json.result)
    if (Result.isSuccess(result)) return result.success
    return yield* invalidAnswer("WrongShape", `${request.url} answered ${request.method} with a result of the wrong shape`, {
      ...where,
      detail: formatIssue(result.failure)
    })
  })

const body = (request: RpcTarget, id: string): string =>
  request.paramsJson === undefined
    ? JSON.stringify({ jsonrpc: "2.0", id, method: request.method, params: request.params })
    : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(request.method)},"params":${request.paramsJson}}`

const httpStatusError = (request: RpcTarget, response: Response, text: string) =>
  new A2AClientTransportError({
    reason: "HttpStatus",
    message: `${request.url} answered ${request.method} with HTTP ${response.status}${text === "" ? "" : `: ${excerpt(text, 120)}`}`,
    url: request.url,
    status: response.status
  })

/** Reads a non-SSE answer; a JSON-RPC error inside it wins over the HTTP status. */
const refuse = <A>(
  config: RpcConfig,
  response: Response,
  requestId: string,
  request: RpcRequest<A>
): Effect.Effect<never, RpcError> =>
  Effect.gen(function*() {
    const text = yield* readTextCapped(response, {
      url: request.url,
      method: request.method,
      idleTimeoutMs: config.idleTimeoutMs,
      maxBytes: config.maxResponseBytes
    })
    const asError = yield* decodeResponse(text, requestId, request).pipe(Effect.flip, Effect.option)
    if (asError._tag === "Some" && !isLocalInvalidAnswer(asError.value)) return yield* Effect.fail(asError.value)
    if (!response.ok) return yield* httpStatusError(request, response, text)
    return yield* invalidAnswer(
      "NotSse",
      `${request.url} answered the streaming method ${request.method} with ${mediaType(response) || "no content type"} instead of text/event-stream`,
      { url: request.url, method: request.method, detail: excerpt(text) }
    )
  })

/** Performs one unary JSON-RPC call, bounded by `timeoutMs` end to end. */
export const rpcCall = <A>(config: RpcConfig, request: RpcRequest<A>): Effect.Effect<A, RpcError> => {
  const requestId = crypto.randomUUID()
  return Effect.scoped(
    Effect.gen(function*() {
      const response = yield* exchange(config, {
        url: request.url,
        method: "POST",
        operation: request.method,
        accept: "application/json",
        body: body(request, requestId),
        headers: request.headers,
        version: request.version ?? "0.3"
      })
      const text = yield* readTextCapped(response, {
        url: request.url,
        method: request.method,
        idleTimeoutMs: config.idleTimeoutMs,
        maxBytes: config.maxResponseBytes
      })
      return yield* decodeResponse(text, requestId, request).pipe(
        Effect.catchIf(
          (e) => !response.ok && isLocalInvalidAnswer(e),
          () => Effect.fail(httpStatusError(request, response, text))
        )
      )
    })
  ).pipe(
    Effect.timeoutOrElse({
      duration: config.timeoutMs,
      orElse: () => Effect.fail(timeoutError(request.url, request.method, config.timeoutMs))
    })
  )
}

/**
 * Opens one SSE connection for a streaming method. The response headers must arrive within `timeoutMs`;
 * after that only the idle timeout applies. Each event must be a JSON-RPC response carrying this
 * request's id; an error event fails the stream with its tagged class.
 */
export const rpcStream = <A>(config: RpcConfig, request: RpcRequest<A>): Stream.Stream<RpcFrame<A>, RpcError> =>
  Stream.unwrap(
    Effect.gen(function*() {
      const requestId = crypto.randomUUID()
      const response = yield* exchange(config, {
        url: request.url,
        method: "POST",
        operation: request.method,
        accept: "text/event-stream",
        body: body(request, requestId),
        headers: request.headers,
        version: request.version ?? "0.3"
      }).pipe(
        Effect.timeoutOrElse({
          duration: config.timeoutMs,
          orElse: () => Effect.fail(timeoutError(request.url, request.method, config.timeoutMs))
        })
      )
      if (!response.ok || mediaType(response) !== "text/event-stream" || response.body === null) {
        return yield* refuse(config, response, requestId, request)
      }
      return sseMessages(response.body, {
        url: request.url,
        method: request.method,
        idleTimeoutMs: config.idleTimeoutMs,
        maxEventBytes: config.maxEventBytes
      }).pipe(
        Stream.mapEffect((message) =>
          Effect.map(decodeResponse(message.data, requestId, request), (result): RpcFrame<A> => ({ id: message.id, result }))
        )
      )
    })
  )

const readers = new Map<string, AnswerReader<unknown>>(
  Object.entries(methods).map(([name, spec]) => [name, Schema.decodeUnknownResult(spec.result as Schema.Codec<unknown, unknown>)])
)

/** The A2A 0.3 JSON-RPC binding at `endpoint`, as the client's transport. */
export const jsonRpcTransport = (endpoint: string): ClientTransport => ({
  protocol: "JSONRPC",
  protocolVersion: "0.3",
  endpoint,
  call: (config, method, params, headers) =>
    rpcCall(config, { url: endpoint, method, params, read: readers.get(method) as never, headers }),
  open: (config, method, params, headers) =>
    rpcStream(config, { url: endpoint, method, params, read: readers.get(method) as never, headers }),
  listTasks: () => Effect.fail(listTasksNeeds1_0(endpoint))
})

/** The refusal of `ListTasks` by a 0.3 binding: A2A 0.3 has no such JSON-RPC method (nor REST route here). */
export const listTasksNeeds1_0 = (url: string): UnsupportedOperation =>
  new UnsupportedOperation({
    message: `ListTasks is an A2A 1.0 operation, and this client speaks A2A 0.3 to ${url} ` +
      `(the agent's card offers no 1.0 interface, or protocolVersion pins 0.3)`
  })
