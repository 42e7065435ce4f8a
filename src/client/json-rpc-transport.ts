/**
 * JSON-RPC 2.0 over HTTP POST: one request/response exchange, or one SSE connection for a streaming
 * method (`jsonRpcTransport` binds both to an endpoint for the client). Every answer is checked (JSON, envelope, id, result shape) before it reaches the caller; a
 * JSON-RPC error object becomes its tagged class through `fromWireError`.
 *
 * @module
 */
import { Effect, Schema, Stream } from "effect"
import { fromWireError, type ProtocolError } from "../../schemas/error-catalogue.ts"
import { methods } from "../../schemas/methods.ts"
import { JSONRPCError } from "../../schemas/wire-errors.ts"
import { readTextCapped } from "./body-reader.ts"
import { A2AClientTransportError, excerpt, invalidAnswer, isLocalInvalidAnswer } from "./errors.ts"
import { exchange, type HttpConfig, mediaType, timeoutError } from "./http.ts"
import { sseMessages } from "./sse.ts"
import type { ClientTransport } from "./transport.ts"

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

/** One JSON-RPC call to make. */
export interface RpcRequest<A, I> {
  readonly url: string
  readonly method: string
  readonly params: unknown
  /** Decodes the `result` member. */
  readonly result: Schema.Codec<A, I>
  /** Per-call headers (e.g. `Last-Event-ID` on a resubscribe). */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** One decoded event of a stream, with its SSE id when the server sent one. */
export interface RpcFrame<A> {
  readonly id: string | undefined
  readonly result: A
}

/** The untyped part of a request. */
type RpcTarget = Pick<RpcRequest<unknown, unknown>, "url" | "method" | "params">

type RpcError = ProtocolError | A2AClientTransportError

const WireErrorObject = Schema.Struct({ error: JSONRPCError })

const formatIssue = (error: Schema.SchemaError): string => excerpt(error.message, 400)

/**
 * Interprets one JSON-RPC response text: JSON parse, envelope, id match, then `error` to its tagged class
 * or `result` decoded with the method's schema.
 */
export const decodeResponse = <A, I>(
  text: string,
  requestId: string,
  request: RpcRequest<A, I>
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
      return yield* Effect.fail(fromWireError(decoded.error))
    }
    if (id !== requestId) {
      return yield* invalidAnswer("WrongId", `${request.url} answered request ${requestId} with id ${JSON.stringify(id)}`, where)
    }
    if (!("result" in json)) {
      return yield* invalidAnswer("NotJsonRpc", `${request.url} answered ${request.method} with neither result nor error`, where)
    }
    return yield* Schema.decodeUnknownEffect(request.result)(json.result).pipe(
      Effect.mapError((e) =>
        invalidAnswer("WrongShape", `${request.url} answered ${request.method} with a result of the wrong shape`, {
          ...where,
          detail: formatIssue(e)
        })
      )
    )
  })

const body = (request: RpcTarget, id: string): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method: request.method, params: request.params })

const httpStatusError = (request: RpcTarget, response: Response, text: string) =>
  new A2AClientTransportError({
    reason: "HttpStatus",
    message: `${request.url} answered ${request.method} with HTTP ${response.status}${text === "" ? "" : `: ${excerpt(text, 120)}`}`,
    url: request.url,
    status: response.status
  })

/** Reads a non-SSE answer; a JSON-RPC error inside it wins over the HTTP status. */
const refuse = <A, I>(
  config: RpcConfig,
  response: Response,
  requestId: string,
  request: RpcRequest<A, I>
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
export const rpcCall = <A, I>(config: RpcConfig, request: RpcRequest<A, I>): Effect.Effect<A, RpcError> => {
  const requestId = crypto.randomUUID()
  return Effect.scoped(
    Effect.gen(function*() {
      const response = yield* exchange(config, {
        url: request.url,
        method: "POST",
        operation: request.method,
        accept: "application/json",
        body: body(request, requestId),
        headers: request.headers
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
export const rpcStream = <A, I>(config: RpcConfig, request: RpcRequest<A, I>): Stream.Stream<RpcFrame<A>, RpcError> =>
  Stream.unwrap(
    Effect.gen(function*() {
      const requestId = crypto.randomUUID()
      const response = yield* exchange(config, {
        url: request.url,
        method: "POST",
        operation: request.method,
        accept: "text/event-stream",
        body: body(request, requestId),
        headers: request.headers
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

/** The JSON-RPC binding at `endpoint`, as the client's transport. */
export const jsonRpcTransport = (endpoint: string): ClientTransport => ({
  protocol: "JSONRPC",
  endpoint,
  call: (config, method, params, headers) =>
    rpcCall(config, { url: endpoint, method, params, result: methods[method].result as never, headers }),
  open: (config, method, params, headers) =>
    rpcStream(config, { url: endpoint, method, params, result: methods[method].result, headers })
})
