/**
 * The client's methods (named as in the 0.3 method table, with the model's params and results) as A2A 1.0
 * operations: the 1.0 name, the request written by the 1.0 request writers, and the reader that turns the
 * 1.0 answer into the model's result. Both 1.0 bindings (JSON-RPC and REST) use this table, so the two
 * versions differ for a caller in nothing but the wire.
 *
 * Where 1.0 has no direct counterpart, the same result is composed: a push config asked for without its id
 * is the task's first one (1.0 names every config), and resubscribing to a task that already ended gives its
 * Task and ends, as 0.3 does (1.0 answers UnsupportedOperation; the client then reads the task).
 *
 * @module
 */
import { Effect, Result, Schema, Stream } from "effect"
import { TaskNotFound, UnsupportedOperation } from "../../schemas/error-catalogue.ts"
import type { StreamResult } from "../../schemas/events.ts"
import type { ListTasksParams, ListTasksResult } from "../../schemas/list-tasks.ts"
import type { MethodParams, MethodResult } from "../../schemas/methods.ts"
import { cardFromV1 } from "../../schemas/v1/card.ts"
import { decodeV1Response, type V1Decoder } from "../../schemas/v1/decode.ts"
import {
  listTasksFromV1,
  pushConfigListFromV1,
  pushConfigResultFromV1,
  sendResponseFromV1,
  streamResponseFromV1,
  taskFromV1
} from "../../schemas/v1/from-v1.ts"
import type { V1MethodName } from "../../schemas/v1/methods.ts"
import { Empty } from "../../schemas/v1/requests.ts"
import {
  cancelTaskRequestJson,
  createPushConfigRequestJson,
  deletePushConfigRequestJson,
  extendedCardRequestJson,
  getPushConfigRequestJson,
  getTaskRequestJson,
  listPushConfigsRequestJson,
  listTasksRequestJson,
  sendMessageRequestJson,
  subscribeToTaskRequestJson
} from "../../schemas/v1/request-json.ts"
import type { A2AClientError } from "./errors.ts"
import type { AnswerReader, RpcFrame } from "./json-rpc-transport.ts"
import type { StreamingMethod, UnaryMethod } from "./transport.ts"

/** One 1.0 operation to perform: its name, its request's JSON text, and how its answer is read. */
export interface V1Operation<A> {
  readonly method: V1MethodName
  readonly paramsJson: string
  readonly read: AnswerReader<A>
}

const via = <V, A>(decode: V1Decoder<V>, from: (v: V) => A): AnswerReader<A> => (u) => Result.map(decode(u), from)

const decodeEmpty = Schema.decodeUnknownResult(Schema.NullOr(Empty))
/** `google.protobuf.Empty` (`{}`), or the `null` some servers answer instead, as the model's `null`. */
const readEmpty: AnswerReader<null> = (u) => Result.map(decodeEmpty(u), () => null)

/** The 1.0 operation of a unary method. `…/get` must name its config (see {@link withFirstPushConfig}). */
export const v1Unary = <M extends UnaryMethod>(method: M, params: MethodParams<M>, tenant: string | undefined): V1Operation<MethodResult<M>> => {
  const p = params as never
  const operation = ((): V1Operation<unknown> => {
    switch (method as UnaryMethod) {
      case "message/send":
        return { method: "SendMessage", paramsJson: sendMessageRequestJson(p, tenant), read: via(decodeV1Response.sendMessage, sendResponseFromV1) }
      case "tasks/get":
        return { method: "GetTask", paramsJson: getTaskRequestJson(p, tenant), read: via(decodeV1Response.task, taskFromV1) }
      case "tasks/cancel":
        return { method: "CancelTask", paramsJson: cancelTaskRequestJson(p, tenant), read: via(decodeV1Response.task, taskFromV1) }
      case "tasks/pushNotificationConfig/set": {
        const config = p as MethodParams<"tasks/pushNotificationConfig/set">
        return {
          method: "CreateTaskPushNotificationConfig",
          paramsJson: createPushConfigRequestJson(config, tenant),
          read: via(decodeV1Response.pushConfig, (c) => pushConfigResultFromV1(c, config.taskId))
        }
      }
      case "tasks/pushNotificationConfig/get": {
        const get = p as MethodParams<"tasks/pushNotificationConfig/get"> & { readonly pushNotificationConfigId: string }
        return {
          method: "GetTaskPushNotificationConfig",
          paramsJson: getPushConfigRequestJson(get, tenant),
          read: via(decodeV1Response.pushConfig, (c) => pushConfigResultFromV1(c, get.id))
        }
      }
      case "tasks/pushNotificationConfig/list": {
        const list = p as MethodParams<"tasks/pushNotificationConfig/list">
        return {
          method: "ListTaskPushNotificationConfigs",
          paramsJson: listPushConfigsRequestJson(list, tenant),
          read: via(decodeV1Response.pushConfigList, (r) => pushConfigListFromV1(r, list.id))
        }
      }
      case "tasks/pushNotificationConfig/delete":
        return { method: "DeleteTaskPushNotificationConfig", paramsJson: deletePushConfigRequestJson(p, tenant), read: readEmpty }
      case "agent/getAuthenticatedExtendedCard":
        return { method: "GetExtendedAgentCard", paramsJson: extendedCardRequestJson(tenant), read: via(decodeV1Response.card, cardFromV1) }
    }
  })()
  return operation as V1Operation<MethodResult<M>>
}

/** Reads one 1.0 stream event (`StreamResponse`) into the model's, with `final` from its state. */
export const readStreamResponse: AnswerReader<StreamResult> = via(decodeV1Response.streamResponse, streamResponseFromV1)

/** The 1.0 operation of a streaming method; each event is read into the model's (with `final` from its state). */
export const v1Streaming = (method: StreamingMethod, params: MethodParams<StreamingMethod>, tenant: string | undefined): V1Operation<StreamResult> =>
  method === "message/stream"
    ? { method: "SendStreamingMessage", paramsJson: sendMessageRequestJson(params as MethodParams<"message/stream">, tenant), read: readStreamResponse }
    : { method: "SubscribeToTask", paramsJson: subscribeToTaskRequestJson(params as MethodParams<"tasks/resubscribe">, tenant), read: readStreamResponse }

/** `ListTasks`. */
export const v1ListTasks = (params: ListTasksParams, tenant: string | undefined): V1Operation<ListTasksResult> => ({
  method: "ListTasks",
  paramsJson: listTasksRequestJson(params, tenant),
  read: via(decodeV1Response.listTasks, listTasksFromV1)
})

type Unary = <M extends UnaryMethod>(method: M, params: MethodParams<M>) => Effect.Effect<MethodResult<M>, A2AClientError>

/**
 * A push config asked for by task alone (0.3 allows it): the task's first config, read from the list, as
 * the 0.3 method answers it; other calls go to `call` unchanged.
 */
export const withFirstPushConfig = (call: Unary): Unary => (method, params) => {
  if (method !== "tasks/pushNotificationConfig/get") return call(method, params)
  const get = params as MethodParams<"tasks/pushNotificationConfig/get">
  if (get.pushNotificationConfigId !== undefined) return call(method, params)
  return Effect.flatMap(call("tasks/pushNotificationConfig/list", { id: get.id }), (list) =>
    list[0] !== undefined
      ? Effect.succeed(list[0])
      : Effect.fail(new TaskNotFound({ message: `Task ${get.id} has no push notification config` }))) as never
}

const TERMINAL = new Set(["completed", "canceled", "failed", "rejected"])

/**
 * A resubscription that 1.0 refuses because the task already ended (spec 1.0 §3.1.6: UnsupportedOperation)
 * gives the task's Task and ends, as 0.3's `tasks/resubscribe` does. The task is read to tell this refusal
 * from another UnsupportedOperation (e.g. an agent without streaming): a task that has not ended keeps the
 * refusal.
 */
export const terminalTaskOnRefusal = (
  stream: Stream.Stream<RpcFrame<StreamResult>, A2AClientError>,
  taskId: string,
  call: Unary
): Stream.Stream<RpcFrame<StreamResult>, A2AClientError> =>
  stream.pipe(
    Stream.catchIf(
      (e): e is UnsupportedOperation => e instanceof UnsupportedOperation,
      (refusal) =>
        Stream.fromEffect(
          Effect.flatMap(
            Effect.orElseSucceed(call("tasks/get", { id: taskId }), () => undefined),
            (task) =>
              task !== undefined && TERMINAL.has(task.status.state)
                ? Effect.succeed<RpcFrame<StreamResult>>({ id: undefined, result: task })
                : Effect.fail(refusal)
          )
        )
    )
  )
