/**
 * What each A2A 1.0 operation does: its 1.0 params turned into the model's, the same handler as its 0.3
 * counterpart (so capability gates, push checks and the runtime are shared), and the answer written as 1.0
 * JSON. Both 1.0 bindings (JSON-RPC and REST) call these.
 *
 * What 1.0 says differently is said here, at the edge: `historyLength: 0` leaves history out (0.3: all of it);
 * `SubscribeToTask` on a terminal task is UnsupportedOperation (0.3 answers the Task and ends), unless the
 * client resumes with `Last-Event-ID` (this runtime's own resume, the same on both versions); the extended
 * card is UnsupportedOperation when the agent has none (0.3: -32007); push configs registered here are
 * delivered in 1.0.
 *
 * @module
 */
import { Effect, type Schema, type Stream } from "effect"
import { InvalidParams, type ProtocolError, UnsupportedOperation } from "../../../schemas/error-catalogue.ts"
import type { AgentCard, Task } from "../../../schemas/index.ts"
import { fromV1State, listPageSize, type V1MethodName, v1Methods } from "../../../schemas/v1/index.ts"
import { pushConfigFromV1, sendParamsFromV1 } from "../../../schemas/v1/from-v1.ts"
import {
  listTasksResponseJson,
  pushConfigJson,
  pushConfigListJson,
  sendResponseJson,
  taskJson
} from "../../../schemas/v1/v1-json.ts"
import { isTerminalTask } from "../../runtime/task-store.ts"
import type { SequencedEvent, TaskRuntime } from "../../runtime/task-runtime.ts"
import type { CallContext, MethodHandlers } from "../method-handlers.ts"
import { withPushVersion } from "../push-dialect.ts"
import { decodePageToken, encodePageToken } from "./page-token.ts"

/** A unary 1.0 answer: its JSON text, and the task it concerns (for the audit trail). */
export interface V1Answer {
  readonly json: string
  readonly taskId?: string
}

type Params<M extends V1MethodName> = Schema.Schema.Type<(typeof v1Methods)[M]["params"]>

/** The handler of every 1.0 operation; the streaming ones answer with the task's sequenced events. */
export type V1Handlers = {
  readonly [M in V1MethodName]: (
    params: Params<M>,
    ctx: CallContext
  ) => Effect.Effect<(typeof v1Methods)[M]["streaming"] extends true ? Stream.Stream<SequencedEvent, ProtocolError> : V1Answer, ProtocolError>
}

/** What the 1.0 handlers need. */
export interface V1HandlerDeps {
  /** The 0.3 handlers: every 1.0 operation but ListTasks is one of them, in 1.0 words. */
  readonly handlers: MethodHandlers
  readonly runtime: TaskRuntime
  readonly card: AgentCard
  /** The tenant this server is addressed as (see `A2AServerOptions.tenant`); none: requests name none. */
  readonly tenant: string | undefined
  /** The 1.0 extended card for a caller, when the agent has one. */
  readonly extendedCard: ((ctx: CallContext) => Effect.Effect<string, ProtocolError>) | undefined
}

const answer = (json: string, taskId?: string): V1Answer => (taskId === undefined ? { json } : { json, taskId })

const refuse = (message: string) => Effect.fail(new InvalidParams({ message: `Invalid params (A2A 1.0): ${message}` }))

const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 99)}…` : s)

/** Builds the 1.0 handlers. */
export const makeV1Handlers = ({ handlers, runtime, card, tenant, extendedCard }: V1HandlerDeps): V1Handlers => {
  /** A request may name no tenant, or the one this server is (spec: it must match the interface's). */
  const checkTenant = (named: string | undefined): Effect.Effect<void, ProtocolError> =>
    named === undefined || named === "" || named === tenant
      ? Effect.void
      : refuse(`tenant ${JSON.stringify(clip(named))} is not served here${tenant === undefined ? " (this agent has no tenants)" : ""}`)
  const withTenant = <A>(named: string | undefined, effect: Effect.Effect<A, ProtocolError>) => Effect.andThen(checkTenant(named), effect)

  /** 1.0's historyLength as the model's: 0 (no history) is asked as "all" and left out when written. */
  const history = (n: number | undefined) => (n === undefined || n === 0 ? undefined : n)
  const withHistory = (n: number | undefined) => ({ history: n !== 0 })

  const sendParams = (params: Params<"SendMessage">) => {
    const internal = sendParamsFromV1(params)
    const config = internal.configuration?.pushNotificationConfig
    return config === undefined
      ? internal
      : { ...internal, configuration: { ...internal.configuration, pushNotificationConfig: withPushVersion(config, "1.0") } }
  }

  return {
    SendMessage: (params, ctx) =>
      withTenant(params.tenant, Effect.map(handlers["message/send"](sendParams(params), ctx), (result) =>
        answer(sendResponseJson(result, withHistory(params.configuration?.historyLength)), result.kind === "task" ? result.id : result.taskId))),
    SendStreamingMessage: (params, ctx) => withTenant(params.tenant, handlers["message/stream"](sendParams(params), ctx)),
    GetTask: (params, ctx) => {
      const n = history(params.historyLength)
      return withTenant(params.tenant, Effect.map(handlers["tasks/get"](n === undefined ? { id: params.id } : { id: params.id, historyLength: n }, ctx), (task) =>
        answer(taskJson(task, withHistory(params.historyLength)), task.id)))
    },
    ListTasks: (params, ctx) =>
      withTenant(params.tenant, Effect.gen(function*() {
        const after = yield* Effect.fromResult(decodePageToken(params.pageToken))
        const limit = params.pageSize ?? listPageSize.default
        const state = params.status === undefined || params.status === "TASK_STATE_UNSPECIFIED" ? undefined : fromV1State(params.status)
        const page = yield* runtime.list({
          limit,
          ...(params.contextId === undefined || params.contextId === "" ? {} : { contextId: params.contextId }),
          ...(state === undefined ? {} : { state }),
          ...(params.statusTimestampAfter === undefined ? {} : { statusAfter: new Date(params.statusTimestampAfter).toISOString() }),
          ...(after === undefined ? {} : { after })
        }, ctx)
        const n = history(params.historyLength)
        const tasks: ReadonlyArray<Task> = n === undefined
          ? page.tasks
          : page.tasks.map((t) => (t.history !== undefined && t.history.length > n ? { ...t, history: t.history.slice(-n) } : t))
        return answer(listTasksResponseJson(tasks, {
          nextPageToken: page.next === undefined ? "" : encodePageToken(page.next),
          pageSize: limit,
          totalSize: page.total
        }, { history: params.historyLength !== 0, artifacts: params.includeArtifacts === true ? "always" : "omit" }))
      })),
    CancelTask: (params, ctx) =>
      withTenant(params.tenant, Effect.map(
        handlers["tasks/cancel"](params.metadata === undefined ? { id: params.id } : { id: params.id, metadata: params.metadata as Record<string, unknown> }, ctx),
        (task) => answer(taskJson(task), task.id)
      )),
    SubscribeToTask: (params, ctx) =>
      withTenant(params.tenant, Effect.gen(function*() {
        // Streaming off is refused first, as on 0.3; then a terminal task, which 1.0 refuses (spec §3.1.6).
        if (card.capabilities.streaming !== true) return yield* handlers["tasks/resubscribe"]({ id: params.id }, ctx)
        if (ctx.lastEventId === undefined) {
          const task = yield* runtime.get({ id: params.id }, ctx)
          if (isTerminalTask(task)) {
            return yield* Effect.fail(new UnsupportedOperation({
              message: `Task ${clip(params.id)} is ${task.status.state}: SubscribeToTask needs a task that is not in a terminal state`
            }))
          }
        }
        return yield* handlers["tasks/resubscribe"]({ id: params.id }, ctx)
      })),
    CreateTaskPushNotificationConfig: (params, ctx) =>
      withTenant(params.tenant, Effect.gen(function*() {
        const taskId = params.taskId
        if (taskId === undefined || taskId === "") return yield* refuse("taskId is required")
        const set = yield* handlers["tasks/pushNotificationConfig/set"]({
          taskId,
          pushNotificationConfig: withPushVersion(pushConfigFromV1(params), "1.0")
        }, ctx)
        return answer(pushConfigJson(taskId, set.pushNotificationConfig), taskId)
      })),
    GetTaskPushNotificationConfig: (params, ctx) =>
      withTenant(params.tenant, Effect.map(
        handlers["tasks/pushNotificationConfig/get"]({ id: params.taskId, pushNotificationConfigId: params.id }, ctx),
        (c) => answer(pushConfigJson(params.taskId, c.pushNotificationConfig), params.taskId)
      )),
    ListTaskPushNotificationConfigs: (params, ctx) =>
      withTenant(params.tenant, Effect.map(
        handlers["tasks/pushNotificationConfig/list"]({ id: params.taskId }, ctx),
        (cs) => answer(pushConfigListJson(params.taskId, cs.map((c) => c.pushNotificationConfig)), params.taskId)
      )),
    DeleteTaskPushNotificationConfig: (params, ctx) =>
      withTenant(params.tenant, Effect.as(
        handlers["tasks/pushNotificationConfig/delete"]({ id: params.taskId, pushNotificationConfigId: params.id }, ctx),
        answer("{}", params.taskId)
      )),
    GetExtendedAgentCard: (params, ctx) =>
      withTenant(params.tenant, card.supportsAuthenticatedExtendedCard === true && extendedCard !== undefined
        ? Effect.map(extendedCard(ctx), (json) => answer(json))
        : Effect.fail(new UnsupportedOperation({ message: "This agent has no extended agent card (capabilities.extendedAgentCard is not set)" })))
  }
}

/** Whether a 1.0 operation answers with a stream. */
export const isV1Streaming = (method: string): boolean =>
  Object.hasOwn(v1Methods, method) && v1Methods[method as V1MethodName].streaming
