/**
 * The REST (HTTP+JSON) binding of A2A 0.3.0 for the client: each method of the method table as its `/v1`
 * route, bodies written and answers read through the one mapping module `schemas/rest/`, so the typed
 * results are the same as over JSON-RPC. The exchange (`restCall`, `restStream`) is shared with the 1.0
 * binding (`rest-v1-transport.ts`), which brings its own routes and error reading (`RestWire`).
 *
 * Errors travel as the catalogue's HTTP status with a `{ code, message, data? }` body (an `event: error`
 * frame inside a stream); they become the tagged classes through `fromWireError`. Anything else is
 * `InvalidAgentResponse` (not JSON, wrong shape, not SSE) or `A2AClientTransportError` (unreachable,
 * timeout, an HTTP error without an A2A error body).
 *
 * What REST cannot carry: `metadata` of `tasks/get` and of the push-config methods (their routes have no
 * body). `tasks/pushNotificationConfig/get` without a config id reads the task's first config from the
 * list route, since the REST route needs an id.
 *
 * @module
 */
import { Effect, Result, Schema, Stream } from "effect"
import { fromWireError, type ProtocolError } from "../../schemas/error-catalogue.ts"
import type { StreamResult } from "../../schemas/events.ts"
import type { MethodParams, MethodResult } from "../../schemas/methods.ts"
import { decodeRestResponse, toRest } from "../../schemas/rest/index.ts"
import { JSONRPCError } from "../../schemas/wire-errors.ts"
import { readTextCapped } from "./body-reader.ts"
import { type A2AClientError, A2AClientTransportError, excerpt, invalidAnswer } from "./errors.ts"
import { exchange, type HttpRequest, mediaType, timeoutError } from "./http.ts"
import { listTasksNeeds1_0, type RpcConfig, type RpcFrame } from "./json-rpc-transport.ts"
import { sseMessages } from "./sse.ts"
import type { ClientTransport, ProtocolVersion, StreamingMethod, UnaryMethod } from "./transport.ts"
import { withFirstPushConfig } from "./v1-operations.ts"

type Decode<A> = (u: unknown) => Result.Result<A, Schema.SchemaError>

/** One REST request: the route, its body's JSON text, and how a successful answer is read. */
export interface RestCall<A> {
  readonly verb: HttpRequest["method"]
  /** Below the base URL, query included. */
  readonly path: string
  readonly body?: string
  /** Reads the JSON answer; `undefined` for routes answered without a body (204). */
  readonly decode: Decode<A> | undefined
}

/** What differs between the REST bindings of the two versions besides their routes. */
export interface RestWire {
  readonly version: ProtocolVersion
  /** The error class of an error body (parsed JSON), or undefined when it is not one. */
  readonly errorOf: (json: unknown) => ProtocolError | undefined
  /** Reads one stream event's `data:` payload. */
  readonly event: Decode<StreamResult>
}

const WireError = Schema.decodeUnknownOption(JSONRPCError)

/** A2A 0.3's REST wire: `{ code, message, data? }` error bodies, REST (protobuf JSON) events. */
const rest03: RestWire = {
  version: "0.3",
  errorOf: (json) => {
    const wire = WireError(json)
    return wire._tag === "Some" ? fromWireError(wire.value) : undefined
  },
  event: decodeRestResponse.streamResponse
}

const formatIssue = (error: Schema.SchemaError): string => excerpt(error.message, 400)

const task = (id: string): string => `v1/tasks/${encodeURIComponent(id)}`

const configs = (id: string): string => `${task(id)}/pushNotificationConfigs`

/** A body for `:cancel` / `:subscribe` only when there is metadata to carry (peers post them empty). */
const metadataBody = (params: { readonly metadata?: unknown }): { readonly body?: string } =>
  params.metadata === undefined ? {} : { body: JSON.stringify({ metadata: params.metadata }) }

/** The route of each unary method. */
const unaryRoute = <M extends UnaryMethod>(method: M, params: MethodParams<M>): RestCall<MethodResult<M>> => {
  const p = params as never
  const route = ((): RestCall<unknown> => {
    switch (method as UnaryMethod) {
      case "message/send":
        return { verb: "POST", path: "v1/message:send", body: JSON.stringify(toRest.sendMessageRequest(p)), decode: decodeRestResponse.sendResponse }
      case "tasks/get": {
        const { historyLength, id } = p as MethodParams<"tasks/get">
        const query = historyLength === undefined ? "" : `?historyLength=${historyLength}`
        return { verb: "GET", path: `${task(id)}${query}`, decode: decodeRestResponse.task }
      }
      case "tasks/cancel":
        return { verb: "POST", path: `${task((p as MethodParams<"tasks/cancel">).id)}:cancel`, ...metadataBody(p), decode: decodeRestResponse.task }
      case "tasks/pushNotificationConfig/set": {
        const config = p as MethodParams<"tasks/pushNotificationConfig/set">
        return { verb: "POST", path: configs(config.taskId), body: JSON.stringify(toRest.createPushConfigRequest(config)), decode: decodeRestResponse.taskPushConfig }
      }
      case "tasks/pushNotificationConfig/get": {
        const { id, pushNotificationConfigId } = p as MethodParams<"tasks/pushNotificationConfig/get">
        return { verb: "GET", path: `${configs(id)}/${encodeURIComponent(pushNotificationConfigId ?? "")}`, decode: decodeRestResponse.taskPushConfig }
      }
      case "tasks/pushNotificationConfig/list":
        return { verb: "GET", path: configs((p as MethodParams<"tasks/pushNotificationConfig/list">).id), decode: decodeRestResponse.pushConfigList }
      case "tasks/pushNotificationConfig/delete": {
        const { id, pushNotificationConfigId } = p as MethodParams<"tasks/pushNotificationConfig/delete">
        return { verb: "DELETE", path: `${configs(id)}/${encodeURIComponent(pushNotificationConfigId)}`, decode: undefined }
      }
      case "agent/getAuthenticatedExtendedCard":
        return { verb: "GET", path: "v1/card", decode: decodeRestResponse.card }
    }
  })()
  return route as RestCall<MethodResult<M>>
}

/** The route of each streaming method. */
const streamRoute = <M extends StreamingMethod>(method: M, params: MethodParams<M>): Omit<RestCall<StreamResult>, "decode"> =>
  method === "message/stream"
    ? { verb: "POST", path: "v1/message:stream", body: JSON.stringify(toRest.sendMessageRequest(params as MethodParams<"message/stream">)) }
    : { verb: "POST", path: `${task((params as MethodParams<"tasks/resubscribe">).id)}:subscribe`, ...metadataBody(params) }

/**
 * Reads an answer that is not the expected one: a REST error body becomes its tagged class (whatever the
 * status); otherwise an HTTP error status is a transport error, and a 2xx the `otherwise` refusal.
 */
const refusal = (
  wire: RestWire,
  url: string,
  method: string,
  response: Response,
  text: string,
  otherwise: () => A2AClientError
): A2AClientError => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const error = response.ok ? undefined : wire.errorOf(json)
  if (error !== undefined) return error
  if (!response.ok) {
    return new A2AClientTransportError({
      reason: "HttpStatus",
      message: `${url} answered ${method} with HTTP ${response.status}${text === "" ? "" : `: ${excerpt(text, 120)}`}`,
      url,
      status: response.status
    })
  }
  return otherwise()
}

const readJson = <A>(url: string, method: string, text: string, decode: Decode<A>): Effect.Effect<A, ProtocolError> =>
  Effect.gen(function*() {
    const where = { url, method }
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => invalidAnswer("NotJson", `${url} answered ${method} with something that is not JSON`, { ...where, detail: excerpt(text) })
    })
    const decoded = decode(json)
    if (Result.isFailure(decoded)) {
      return yield* invalidAnswer("WrongShape", `${url} answered ${method} with a REST payload of the wrong shape`, {
        ...where,
        detail: formatIssue(decoded.failure)
      })
    }
    return decoded.success
  })

/** Performs one REST request of `wire`'s version, bounded by `timeoutMs` end to end. */
export const restCall = <A>(
  config: RpcConfig,
  base: string,
  method: string,
  route: RestCall<A>,
  headers: Readonly<Record<string, string>> | undefined,
  wire: RestWire = rest03
): Effect.Effect<A, A2AClientError> => {
  const url = `${base}${route.path}`
  return Effect.scoped(
    Effect.gen(function*() {
      const response = yield* exchange(config, {
        url,
        method: route.verb,
        operation: method,
        accept: "application/json",
        body: route.body,
        headers,
        version: wire.version
      })
      const text = yield* readTextCapped(response, { url, method, idleTimeoutMs: config.idleTimeoutMs, maxBytes: config.maxResponseBytes })
      if (!response.ok) return yield* Effect.fail(refusal(wire, url, method, response, text, () => undefined as never))
      // Routes without a result (delete) answer 204; a body, if any, is not read.
      if (route.decode === undefined) return null as A
      return yield* readJson(url, method, text, route.decode)
    })
  ).pipe(Effect.timeoutOrElse({ duration: config.timeoutMs, orElse: () => Effect.fail(timeoutError(url, method, config.timeoutMs)) }))
}

/** Opens one REST SSE connection; `data:` payloads are bare REST events, `event: error` frames fail the stream. */
export const restStream = (
  config: RpcConfig,
  base: string,
  method: StreamingMethod,
  route: Omit<RestCall<StreamResult>, "decode">,
  headers: Readonly<Record<string, string>> | undefined,
  wire: RestWire = rest03
): Stream.Stream<RpcFrame<StreamResult>, A2AClientError> =>
  Stream.unwrap(
    Effect.gen(function*() {
      const url = `${base}${route.path}`
      const where = { url, method }
      const response = yield* exchange(config, {
        url,
        method: route.verb,
        operation: method,
        accept: "text/event-stream",
        body: route.body,
        headers,
        version: wire.version
      }).pipe(Effect.timeoutOrElse({ duration: config.timeoutMs, orElse: () => Effect.fail(timeoutError(url, method, config.timeoutMs)) }))
      if (!response.ok || mediaType(response) !== "text/event-stream" || response.body === null) {
        const text = yield* readTextCapped(response, { ...where, idleTimeoutMs: config.idleTimeoutMs, maxBytes: config.maxResponseBytes })
        return yield* Effect.fail(refusal(wire, url, method, response, text, () =>
          invalidAnswer(
            "NotSse",
            `${url} answered the streaming method ${method} with ${mediaType(response) || "no content type"} instead of text/event-stream`,
            { ...where, detail: excerpt(text) }
          )))
      }
      return sseMessages(response.body, { ...where, idleTimeoutMs: config.idleTimeoutMs, maxEventBytes: config.maxEventBytes }).pipe(
        Stream.mapEffect((message): Effect.Effect<RpcFrame<StreamResult>, ProtocolError> => {
          if (message.event === "error") {
            return Effect.flatMap(readJson(url, method, message.data, (u) => Result.succeed(u)), (json) =>
              Effect.fail(
                wire.errorOf(json) ??
                  invalidAnswer("WrongShape", `${url} sent an error event that is not an A2A error`, { ...where, detail: excerpt(message.data) })
              ))
          }
          return Effect.map(readJson(url, method, message.data, wire.event), (result) => ({ id: message.id, result }))
        })
      )
    })
  )

/** A base URL that `v1/...` can be appended to. */
export const asBase = (url: string): string => (url.endsWith("/") ? url : `${url}/`)

/**
 * The REST binding at `baseUrl` (the card's `HTTP+JSON` interface URL; `v1/...` is appended to it), as the
 * client's transport. A resubscription carries `Last-Event-ID` on `POST /v1/tasks/{id}:subscribe`.
 */
export const restTransport = (baseUrl: string): ClientTransport => {
  const base = asBase(baseUrl)
  return {
    protocol: "HTTP+JSON",
    protocolVersion: "0.3",
    endpoint: base,
    call: (config, method, params, headers) =>
      withFirstPushConfig((m, p) => restCall(config, base, m, unaryRoute(m, p), headers))(method, params),
    open: (config, method, params, headers) => restStream(config, base, method, streamRoute(method, params), headers),
    listTasks: () => Effect.fail(listTasksNeeds1_0(base))
  }
}
