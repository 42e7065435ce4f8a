/**
 * A2A 1.0 on the REST binding: the routes of `rest-paths-v1.ts`, params from the path, the query (camelCase
 * names, enums by name, `true`/`false`, spec §11.5) and the ProtoJSON body, answers written by the 1.0
 * writers, errors as `google.rpc.Status` with the statuses of spec 1.0.1, streams of bare `StreamResponse`
 * payloads, `A2A-Extensions`. Answers are `application/a2a+json` when the client accepts it (spec 1.0.1
 * §11.1), otherwise `application/json` (what the official 1.0 kit checks).
 *
 * @module
 */
import { HttpServerResponse } from "effect/http"
import { Effect, Result, Schema } from "effect"
import { describeParamsError } from "../../../schemas/decode-request.ts"
import { InvalidParams, type ProtocolError } from "../../../schemas/error-catalogue.ts"
import { v1InvalidParams } from "../../../schemas/v1/decode.ts"
import { toV1StatusBody, v1HttpStatus } from "../../../schemas/v1/errors.ts"
import { v1Methods } from "../../../schemas/v1/methods.ts"
import { jsonName, normaliseProtoJsonValue } from "../../../schemas/v1/proto-json.ts"
import { makeStreamResponseJson } from "../../../schemas/v1/v1-json.ts"
import type { SequencedEvent } from "../../runtime/task-runtime.ts"
import { extensionRequiredV1, V1_EXTENSIONS_HEADER } from "../extensions.ts"
import type { RestDialect } from "../rest/rest-dialect.ts"
import type { PreparedCall, RestOutcome } from "../rest/rest-operations.ts"
import { matchRestRoute } from "../rest/rest-paths.ts"
import { restSseBody, type RestSseFormat } from "../rest/rest-sse.ts"
import type { CallContext } from "../method-handlers.ts"
import type { V1Answer, V1Handlers } from "./method-handlers-v1.ts"
import { matchV1RestRoute, type V1RestOperation } from "./rest-paths-v1.ts"

/** The 1.0 media type (spec 1.0.1 §11.1). */
export const a2aJson = "application/a2a+json"

/** REST stream frames of 1.0: bare `StreamResponse` payloads; errors as `google.rpc.Status`. */
export const restSseV1: RestSseFormat = {
  eventJson: () => makeStreamResponseJson() as (event: SequencedEvent["event"]) => string,
  errorJson: (error) => JSON.stringify(toV1StatusBody(error))
}

type QueryType = "int" | "bool" | "string" | "enum"

/** The query parameters each GET operation reads (spec §11.5), by JSON name. */
const queryFields: Partial<Record<V1RestOperation["op"], Readonly<Record<string, QueryType>>>> = {
  GetTask: { historyLength: "int" },
  ListTasks: {
    contextId: "string",
    status: "enum",
    pageSize: "int",
    pageToken: "string",
    historyLength: "int",
    statusTimestampAfter: "string",
    includeArtifacts: "bool"
  },
  ListTaskPushNotificationConfigs: { pageSize: "int", pageToken: "string" }
}

/** A query value as its field's type; a value that is not one is kept as text, for the schema to refuse. */
const typed = (type: QueryType, raw: string): unknown => {
  switch (type) {
    case "int":
    case "enum":
      return /^-?\d{1,10}$/.test(raw) ? Number(raw) : raw
    case "bool":
      return raw === "true" ? true : raw === "false" ? false : raw
    case "string":
      return raw
  }
}

const fromQuery = (op: V1RestOperation["op"], search: URLSearchParams): Record<string, unknown> => {
  const fields = queryFields[op]
  const out: Record<string, unknown> = {}
  if (fields === undefined) return out
  for (const [key, raw] of search) {
    const name = jsonName(key)
    const type = fields[name]
    if (type !== undefined && !Object.hasOwn(out, name)) out[name] = typed(type, raw)
  }
  return out
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const refuse = (message: string) => Result.fail(new InvalidParams({ message: `${v1InvalidParams}: ${message}` }))

/** The body's own members, normalised; a body that is not an object is kept for the schema to refuse. */
const bodyOf = (body: unknown): unknown => (body === undefined ? {} : normaliseProtoJsonValue(body))

/** `base` with `key` set from the path, unless the body names another value. */
const fromPath = (base: unknown, key: string, value: string | undefined): Result.Result<unknown, InvalidParams> => {
  if (value === undefined || !isRecord(base)) return Result.succeed(base)
  const named = base[key]
  if (named !== undefined && named !== "" && named !== value) {
    return refuse(`the body names ${key} ${JSON.stringify(String(named).slice(0, 100))} but the path names ${JSON.stringify(value.slice(0, 100))}`)
  }
  return Result.succeed({ ...base, [key]: value })
}

const paramsOf = (operation: V1RestOperation, body: unknown, search: URLSearchParams): Result.Result<unknown, InvalidParams> => {
  const { op, taskId, configId, tenant } = operation
  let base: Result.Result<unknown, InvalidParams>
  switch (op) {
    case "SendMessage":
    case "SendStreamingMessage":
      base = Result.succeed(bodyOf(body))
      break
    case "CancelTask":
      base = fromPath(bodyOf(body), "id", taskId)
      break
    case "CreateTaskPushNotificationConfig":
      base = fromPath(bodyOf(body), "taskId", taskId)
      break
    case "SubscribeToTask":
    case "GetTask":
      base = Result.succeed({ ...fromQuery(op, search), id: taskId })
      break
    case "GetTaskPushNotificationConfig":
    case "DeleteTaskPushNotificationConfig":
      base = Result.succeed({ taskId, id: configId })
      break
    case "ListTaskPushNotificationConfigs":
      base = Result.succeed({ ...fromQuery(op, search), taskId })
      break
    case "ListTasks":
      base = Result.succeed(fromQuery(op, search))
      break
    case "GetExtendedAgentCard":
      base = Result.succeed({})
      break
  }
  return Result.flatMap(base, (params) => fromPath(params, "tenant", tenant))
}

const decoders = new Map(
  Object.entries(v1Methods).map(([name, spec]) => [name, Schema.decodeUnknownResult(spec.params as Schema.Codec<unknown, unknown>)])
)

const decode = (op: V1RestOperation["op"], params: unknown): Result.Result<unknown, InvalidParams> =>
  Result.mapError(decoders.get(op)!(params), (error) => {
    const { issues, message } = describeParamsError(error, v1InvalidParams)
    return new InvalidParams({ message, data: { issues } })
  })

const outcome = (answer: unknown, streaming: boolean): RestOutcome => {
  if (streaming) return { _tag: "Stream", events: answer as Extract<RestOutcome, { _tag: "Stream" }>["events"] }
  const { json, taskId } = answer as V1Answer
  return taskId === undefined ? { _tag: "Text", json } : { _tag: "Text", json, taskId }
}

const errorResponse = (error: ProtocolError, status?: number, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(JSON.stringify(toV1StatusBody(error, status)), {
    status: status ?? v1HttpStatus(error),
    contentType: "application/json",
    headers
  })

const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 99)}…` : s)

/** The 1.0 dialect of the REST binding; `tenant` is the one tenant the server is addressed as, if any. */
export const restV1 = (handlers: V1Handlers, tenant: string | undefined): RestDialect<V1RestOperation> => ({
  version: "1.0",
  match: (method, pathname) => {
    const match = matchV1RestRoute(method, pathname)
    const zeroThree = () => matchRestRoute(method, pathname)._tag === "Matched"
      ? "; paths under /v1/ are the A2A 0.3 binding, which requests without A2A-Version (or with A2A-Version: 0.3) reach"
      : ""
    if (match._tag === "Matched" && match.operation.tenant !== undefined && match.operation.tenant !== tenant) {
      return {
        _tag: "NotFound",
        message: `No A2A 1.0 REST operation at ${method.slice(0, 10)} ${pathname.slice(0, 200)}: this agent serves ` +
          `${tenant === undefined ? "no tenant" : `tenant ${JSON.stringify(tenant)} only`}, not ${JSON.stringify(clip(match.operation.tenant))}${zeroThree()}`
      }
    }
    return match._tag === "NotFound" ? { _tag: "NotFound", message: `${match.message}${zeroThree()}` } : match
  },
  bodyRule: ({ op }) =>
    op === "SendMessage" || op === "SendStreamingMessage" || op === "CreateTaskPushNotificationConfig"
      ? "required"
      : op === "CancelTask" || op === "SubscribeToTask" ? "optional" : "none",
  methodOf: ({ op }) => op,
  prepare: (operation, body, search) =>
    Result.map(Result.flatMap(paramsOf(operation, body, search), (params) => decode(operation.op, params)), (params): PreparedCall => {
      const handler = handlers[operation.op] as unknown as (p: unknown, ctx: CallContext) => Effect.Effect<unknown, ProtocolError>
      const streaming = v1Methods[operation.op].streaming
      return { method: operation.op, params, run: (ctx) => Effect.map(handler(params, ctx), (answer) => outcome(answer, streaming)) }
    }),
  errorResponse,
  contentType: (accept) => (accept !== undefined && accept.toLowerCase().includes(a2aJson) ? a2aJson : "application/json"),
  sse: (events, options) => restSseBody(events, options, restSseV1),
  extensionsHeader: V1_EXTENSIONS_HEADER,
  extensionRequired: extensionRequiredV1
})
