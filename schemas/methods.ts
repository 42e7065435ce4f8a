import { Schema } from "effect"
import { AgentCard } from "./agent-card.ts"
import { SendMessageResult, StreamResult } from "./events.ts"
import { MessageSendParams, TaskIdParams, TaskQueryParams } from "./params.ts"
import {
  DeleteTaskPushNotificationConfigParams,
  GetTaskPushNotificationConfigParams,
  ListTaskPushNotificationConfigParams,
  TaskPushNotificationConfig
} from "./push.ts"
import { NoParams } from "./requests.ts"
import { Task } from "./task.ts"

export { StreamResult } from "./events.ts"

/** What the table knows of one method: how to decode its params and result, and whether it streams. */
export interface MethodSpec {
  readonly params: Schema.Codec<any, any>
  readonly result: Schema.Codec<any, any>
  /** True when the result travels as an SSE stream of `result` events. */
  readonly streaming: boolean
}

/** One entry of the table, with its exact schemas (so params and results keep their types). */
interface Spec<Params extends Schema.Top, Result extends Schema.Top, Streaming extends boolean> {
  readonly params: Params
  readonly result: Result
  readonly streaming: Streaming
}

/** The table's type: each method with its schemas. */
export interface Methods {
  readonly "message/send": Spec<typeof MessageSendParams, typeof SendMessageResult, false>
  readonly "message/stream": Spec<typeof MessageSendParams, typeof StreamResult, true>
  readonly "tasks/get": Spec<typeof TaskQueryParams, typeof Task, false>
  readonly "tasks/cancel": Spec<typeof TaskIdParams, typeof Task, false>
  readonly "tasks/resubscribe": Spec<typeof TaskIdParams, typeof StreamResult, true>
  readonly "tasks/pushNotificationConfig/set": Spec<typeof TaskPushNotificationConfig, typeof TaskPushNotificationConfig, false>
  readonly "tasks/pushNotificationConfig/get": Spec<
    typeof GetTaskPushNotificationConfigParams,
    typeof TaskPushNotificationConfig,
    false
  >
  readonly "tasks/pushNotificationConfig/list": Spec<
    typeof ListTaskPushNotificationConfigParams,
    Schema.$Array<typeof TaskPushNotificationConfig>,
    false
  >
  readonly "tasks/pushNotificationConfig/delete": Spec<typeof DeleteTaskPushNotificationConfigParams, Schema.Null, false>
  readonly "agent/getAuthenticatedExtendedCard": Spec<typeof NoParams, typeof AgentCard, false>
}

/**
 * The A2A 0.3.0 JSON-RPC methods. The server's dispatcher and the client's calls both derive from this table,
 * so no method is spelled twice.
 *
 * `tasks/pushNotificationConfig/get` takes GetTaskPushNotificationConfigParams: upstream also allows plain
 * TaskIdParams, which it accepts unchanged (the config id is optional). `agent/getAuthenticatedExtendedCard`
 * takes no params: absent or any object.
 *
 * @example
 * const spec = methods["tasks/get"]
 * const params = Schema.decodeUnknownResult(spec.params)(raw)
 */
export const methods: Methods = {
  "message/send": { params: MessageSendParams, result: SendMessageResult, streaming: false },
  "message/stream": { params: MessageSendParams, result: StreamResult, streaming: true },
  "tasks/get": { params: TaskQueryParams, result: Task, streaming: false },
  "tasks/cancel": { params: TaskIdParams, result: Task, streaming: false },
  "tasks/resubscribe": { params: TaskIdParams, result: StreamResult, streaming: true },
  "tasks/pushNotificationConfig/set": {
    params: TaskPushNotificationConfig,
    result: TaskPushNotificationConfig,
    streaming: false
  },
  "tasks/pushNotificationConfig/get": {
    params: GetTaskPushNotificationConfigParams,
    result: TaskPushNotificationConfig,
    streaming: false
  },
  "tasks/pushNotificationConfig/list": {
    params: ListTaskPushNotificationConfigParams,
    result: Schema.Array(TaskPushNotificationConfig),
    streaming: false
  },
  "tasks/pushNotificationConfig/delete": {
    params: DeleteTaskPushNotificationConfigParams,
    result: Schema.Null,
    streaming: false
  },
  "agent/getAuthenticatedExtendedCard": { params: NoParams, result: AgentCard, streaming: false }
} as const satisfies Record<string, MethodSpec>

/** A core A2A method name. */
export type MethodName = keyof typeof methods

/** The decoded params of method `M`. */
export type MethodParams<M extends MethodName> = Schema.Schema.Type<(typeof methods)[M]["params"]>

/** The decoded result (one event, for streaming methods) of method `M`. */
export type MethodResult<M extends MethodName> = Schema.Schema.Type<(typeof methods)[M]["result"]>

/** True when `name` is a core A2A method. */
export const isMethodName = (name: string): name is MethodName => Object.hasOwn(methods, name)
