/**
 * The A2A 1.0 REST (HTTP+JSON) binding for the client: the routes of the proto's `google.api.http` rules
 * (no `/v1` prefix; `/{tenant}` first when the card's interface names a tenant), bodies written by the 1.0
 * request writers, query parameters as spec §11.5 spells them, answers and bare `StreamResponse` events read
 * into the model, errors read from `google.rpc.Status` bodies by their ErrorInfo. The exchange is the 0.3
 * binding's (`rest-transport.ts`), with `A2A-Version: 1.0`.
 *
 * @module
 */
import { Result } from "effect"
import type { StreamResult } from "../../schemas/events.ts"
import type { ListTasksParams, ListTasksResult } from "../../schemas/list-tasks.ts"
import type { MethodParams, MethodResult } from "../../schemas/methods.ts"
import { decodeV1Response } from "../../schemas/v1/decode.ts"
import { toV1State } from "../../schemas/v1/enums.ts"
import { errorFromV1Status } from "../../schemas/v1/errors.ts"
import type { AnswerReader } from "./json-rpc-transport.ts"
import { asBase, type RestCall, restCall, restStream, type RestWire } from "./rest-transport.ts"
import type { ClientTransport, StreamingMethod, UnaryMethod } from "./transport.ts"
import { readStreamResponse, terminalTaskOnRefusal, v1ListTasks, v1Streaming, v1Unary, withFirstPushConfig } from "./v1-operations.ts"

const rest10: RestWire = {
  version: "1.0",
  errorOf: (json) => {
    const status = decodeV1Response.status(json)
    return Result.isSuccess(status) ? errorFromV1Status(status.success) : undefined
  },
  event: readStreamResponse
}

const segment = encodeURIComponent
const task = (id: string): string => `tasks/${segment(id)}`
const configs = (id: string): string => `${task(id)}/pushNotificationConfigs`

/** `?a=1&b=2` from the members that are set; empty when none is. */
const query = (members: ReadonlyArray<readonly [string, string | number | boolean | undefined]>): string => {
  const search = new URLSearchParams()
  for (const [name, value] of members) if (value !== undefined && value !== "") search.append(name, String(value))
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

/** A model history length as a query value: only a limit (n > 0), as the writers do. */
const history = (n: number | undefined) => (n !== undefined && n > 0 ? n : undefined)

/** The route of each unary method; bodies are the 1.0 request writers' text, without the tenant (it is in the path). */
const unaryRoute = <M extends UnaryMethod>(method: M, params: MethodParams<M>): RestCall<MethodResult<M>> => {
  const op = v1Unary(method, params, undefined)
  const p = params as never
  const read = op.read as AnswerReader<MethodResult<M>>
  switch (method as UnaryMethod) {
    case "message/send":
      return { verb: "POST", path: "message:send", body: op.paramsJson, decode: read }
    case "tasks/get": {
      const { id, historyLength } = p as MethodParams<"tasks/get">
      return { verb: "GET", path: `${task(id)}${query([["historyLength", history(historyLength)]])}`, decode: read }
    }
    case "tasks/cancel":
      return { verb: "POST", path: `${task((p as MethodParams<"tasks/cancel">).id)}:cancel`, body: op.paramsJson, decode: read }
    case "tasks/pushNotificationConfig/set":
      return { verb: "POST", path: configs((p as MethodParams<"tasks/pushNotificationConfig/set">).taskId), body: op.paramsJson, decode: read }
    case "tasks/pushNotificationConfig/get": {
      const { id, pushNotificationConfigId } = p as MethodParams<"tasks/pushNotificationConfig/get">
      return { verb: "GET", path: `${configs(id)}/${segment(pushNotificationConfigId ?? "")}`, decode: read }
    }
    case "tasks/pushNotificationConfig/list":
      return { verb: "GET", path: configs((p as MethodParams<"tasks/pushNotificationConfig/list">).id), decode: read }
    case "tasks/pushNotificationConfig/delete": {
      const { id, pushNotificationConfigId } = p as MethodParams<"tasks/pushNotificationConfig/delete">
      // Answered with `{}` or no body at all (204): either is the model's null.
      return { verb: "DELETE", path: `${configs(id)}/${segment(pushNotificationConfigId)}`, decode: undefined }
    }
    case "agent/getAuthenticatedExtendedCard":
      return { verb: "GET", path: "extendedAgentCard", decode: read }
  }
}

const streamRoute = (method: StreamingMethod, params: MethodParams<StreamingMethod>): Omit<RestCall<StreamResult>, "decode"> =>
  method === "message/stream"
    ? { verb: "POST", path: "message:stream", body: v1Streaming(method, params, undefined).paramsJson }
    : { verb: "POST", path: `${task((params as MethodParams<"tasks/resubscribe">).id)}:subscribe` }

const listRoute = (params: ListTasksParams): RestCall<ListTasksResult> => ({
  verb: "GET",
  path: `tasks${query([
    ["contextId", params.contextId],
    ["status", params.status === undefined || params.status === "unknown" ? undefined : toV1State(params.status)],
    ["pageSize", params.pageSize],
    ["pageToken", params.pageToken],
    ["historyLength", history(params.historyLength)],
    ["statusTimestampAfter", params.statusTimestampAfter],
    ["includeArtifacts", params.includeArtifacts]
  ])}`,
  decode: v1ListTasks(params, undefined).read
})

/**
 * The 1.0 REST binding at `baseUrl` (the card's `HTTP+JSON` 1.0 interface URL); with `tenant`, every path
 * starts with it. A resubscription carries `Last-Event-ID` on `POST /tasks/{id}:subscribe`.
 *
 * @example
 * ```ts
 * const transport = restV1Transport("https://agent.example/a2a/rest")
 * ```
 */
export const restV1Transport = (baseUrl: string, tenant?: string): ClientTransport => {
  const base = tenant === undefined || tenant === "" ? asBase(baseUrl) : `${asBase(baseUrl)}${segment(tenant)}/`
  const transport: ClientTransport = {
    protocol: "HTTP+JSON",
    protocolVersion: "1.0",
    endpoint: base,
    call: (config, method, params, headers) =>
      withFirstPushConfig((m, p) => restCall(config, base, m, unaryRoute(m, p), headers, rest10))(method, params),
    open: (config, method, params, headers) => {
      const stream = restStream(config, base, method, streamRoute(method, params), headers, rest10)
      return method === "tasks/resubscribe"
        ? terminalTaskOnRefusal(stream, (params as { readonly id: string }).id, (m, p) => transport.call(config, m, p, headers))
        : stream
    },
    listTasks: (config, params, headers) => restCall(config, base, "ListTasks", listRoute(params), headers, rest10)
  }
  return transport
}
