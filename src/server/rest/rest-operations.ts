/**
 * What each REST operation calls: its JSON-RPC method (the same handler, so gating and the runtime are
 * shared), its params read from the path, query and body, and how its result is written.
 *
 * Params are decoded before anything runs, ids from the path included, so a bad request is InvalidParams
 * (400) and never reaches a handler.
 */
import { Effect, Result, Schema, type Stream } from "effect"
import { describeParamsError } from "../../../schemas/decode-request.ts"
import { InvalidParams, type ProtocolError } from "../../../schemas/error-catalogue.ts"
import type { MethodName } from "../../../schemas/methods.ts"
import { TaskIdParams, TaskQueryParams } from "../../../schemas/params.ts"
import {
  DeleteTaskPushNotificationConfigParams,
  GetTaskPushNotificationConfigParams,
  ListTaskPushNotificationConfigParams
} from "../../../schemas/push.ts"
import { cardToRest, decodeRestRequest, toRest } from "../../../schemas/rest/index.ts"
import type { SequencedEvent } from "../../runtime/task-runtime.ts"
import type { CallContext, MethodHandlers } from "../method-handlers.ts"
import type { RestOperation } from "./rest-paths.ts"

/** What a successful operation answers. */
export type RestOutcome =
  | { readonly _tag: "Json"; readonly body: unknown }
  /** JSON already written (the 1.0 writers), with the task it concerns for the audit trail. */
  | { readonly _tag: "Text"; readonly json: string; readonly taskId?: string }
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Stream"; readonly events: Stream.Stream<SequencedEvent, ProtocolError> }

/** An operation ready to run: params decoded, handler chosen. */
export interface PreparedCall {
  /** The JSON-RPC method behind the operation (for authorization, audit and spans). */
  readonly method: string
  /** The decoded params (for the audit trail and skill-level security). */
  readonly params: unknown
  readonly run: (ctx: CallContext) => Effect.Effect<RestOutcome, ProtocolError>
}

/** The JSON-RPC method behind each operation, known from the route alone (before any body is judged). */
export const methodOf: { readonly [K in RestOperation["op"]]: MethodName } = {
  send: "message/send",
  stream: "message/stream",
  card: "agent/getAuthenticatedExtendedCard",
  get: "tasks/get",
  cancel: "tasks/cancel",
  subscribe: "tasks/resubscribe",
  setPushConfig: "tasks/pushNotificationConfig/set",
  listPushConfigs: "tasks/pushNotificationConfig/list",
  getPushConfig: "tasks/pushNotificationConfig/get",
  deletePushConfig: "tasks/pushNotificationConfig/delete"
}

/** Whether an operation reads a body: required, optional (`:cancel`, `:subscribe`), or not at all. */
export const bodyRule = (op: RestOperation["op"]): "required" | "optional" | "none" =>
  op === "send" || op === "stream" || op === "setPushConfig" ? "required" : op === "cancel" || op === "subscribe" ? "optional" : "none"

const decodeParams = <A, I>(schema: Schema.Codec<A, I>, value: unknown): Result.Result<A, InvalidParams> =>
  Result.mapError(Schema.decodeUnknownResult(schema)(value), (error) => {
    const { issues, message } = describeParamsError(error)
    return new InvalidParams({ message, data: { issues } })
  })

/** `historyLength` (or the `.proto`'s `history_length`) from the query: digits only. */
const historyLengthOf = (search: URLSearchParams): Result.Result<number | undefined, InvalidParams> => {
  const raw = search.get("historyLength") ?? search.get("history_length")
  if (raw === null) return Result.succeed(undefined)
  return /^\d{1,9}$/.test(raw)
    ? Result.succeed(Number(raw))
    : Result.fail(new InvalidParams({ message: "Invalid params: historyLength must be a non-negative integer" }))
}

/** Params of `:cancel` / `:subscribe`: the path's id, and `metadata` when a body carries one. */
const idParams = (taskId: string, body: unknown): Result.Result<TaskIdParams, InvalidParams> => {
  const metadata = typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as { readonly metadata?: unknown }).metadata
    : undefined
  return decodeParams(TaskIdParams, metadata === undefined || metadata === null ? { id: taskId } : { id: taskId, metadata })
}

const json = (body: unknown): RestOutcome => ({ _tag: "Json", body })
const stream = (events: Stream.Stream<SequencedEvent, ProtocolError>): RestOutcome => ({ _tag: "Stream", events })

const call = <A>(method: MethodName, params: Result.Result<A, InvalidParams>, run: (params: A, ctx: CallContext) => Effect.Effect<RestOutcome, ProtocolError>) =>
  Result.map(params, (p): PreparedCall => ({ method, params: p, run: (ctx) => run(p, ctx) }))

/** Decodes the params of `operation` and binds it to its handler. */
export const prepareCall = (
  handlers: MethodHandlers,
  operation: RestOperation,
  body: unknown,
  search: URLSearchParams
): Result.Result<PreparedCall, InvalidParams> => {
  switch (operation.op) {
    case "send":
      return call("message/send", decodeRestRequest.sendParams(body), (p, ctx) =>
        Effect.map(handlers["message/send"](p, ctx), (r) => json(toRest.sendResponse(r))))
    case "stream":
      return call("message/stream", decodeRestRequest.sendParams(body), (p, ctx) =>
        Effect.map(handlers["message/stream"](p, ctx), stream))
    case "get": {
      const params = Result.flatMap(historyLengthOf(search), (historyLength) =>
        decodeParams(TaskQueryParams, historyLength === undefined ? { id: operation.taskId } : { id: operation.taskId, historyLength }))
      return call("tasks/get", params, (p, ctx) => Effect.map(handlers["tasks/get"](p, ctx), (t) => json(toRest.task(t))))
    }
    case "cancel":
      return call("tasks/cancel", idParams(operation.taskId, body), (p, ctx) =>
        Effect.map(handlers["tasks/cancel"](p, ctx), (t) => json(toRest.task(t))))
    case "subscribe":
      return call("tasks/resubscribe", idParams(operation.taskId, body), (p, ctx) =>
        Effect.map(handlers["tasks/resubscribe"](p, ctx), stream))
    case "setPushConfig":
      return call("tasks/pushNotificationConfig/set", decodeRestRequest.createPushConfig(body, operation.taskId), (p, ctx) =>
        Effect.map(handlers["tasks/pushNotificationConfig/set"](p, ctx), (c) => json(toRest.taskPushConfig(c))))
    case "listPushConfigs":
      return call("tasks/pushNotificationConfig/list", decodeParams(ListTaskPushNotificationConfigParams, { id: operation.taskId }), (p, ctx) =>
        Effect.map(handlers["tasks/pushNotificationConfig/list"](p, ctx), (cs) => json(toRest.pushConfigList(cs))))
    case "getPushConfig":
      return call(
        "tasks/pushNotificationConfig/get",
        decodeParams(GetTaskPushNotificationConfigParams, { id: operation.taskId, pushNotificationConfigId: operation.configId }),
        (p, ctx) => Effect.map(handlers["tasks/pushNotificationConfig/get"](p, ctx), (c) => json(toRest.taskPushConfig(c)))
      )
    case "deletePushConfig":
      return call(
        "tasks/pushNotificationConfig/delete",
        decodeParams(DeleteTaskPushNotificationConfigParams, { id: operation.taskId, pushNotificationConfigId: operation.configId }),
        (p, ctx) => Effect.as(handlers["tasks/pushNotificationConfig/delete"](p, ctx), { _tag: "Empty" } as const)
      )
    case "card":
      return call("agent/getAuthenticatedExtendedCard", Result.succeed(undefined), (p, ctx) =>
        Effect.map(handlers["agent/getAuthenticatedExtendedCard"](p, ctx), (card) => json(cardToRest(card))))
  }
}
