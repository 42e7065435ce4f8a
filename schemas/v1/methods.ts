import type { MethodSpec } from "../methods.ts"
import { AgentCard } from "./agent-card.ts"
import { SendMessageResponse, StreamResponse } from "./events.ts"
import {
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  TaskPushNotificationConfig
} from "./push.ts"
import {
  CancelTaskRequest,
  Empty,
  GetExtendedAgentCardRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SubscribeToTaskRequest
} from "./requests.ts"
import { Task } from "./task.ts"

/**
 * The A2A 1.0 JSON-RPC methods (PascalCase, as the gRPC service names them): params and result are the
 * ProtoJSON of the proto's request and response messages. The 1.0 dispatcher and the 1.0 client both derive
 * from this table, beside the 0.3 one in `schemas/methods.ts`.
 *
 * @example
 * const spec = v1Methods.GetTask
 * const params = Schema.decodeUnknownResult(spec.params)(normaliseProtoJson(raw))
 */
export const v1Methods = {
  SendMessage: { params: SendMessageRequest, result: SendMessageResponse, streaming: false },
  SendStreamingMessage: { params: SendMessageRequest, result: StreamResponse, streaming: true },
  GetTask: { params: GetTaskRequest, result: Task, streaming: false },
  ListTasks: { params: ListTasksRequest, result: ListTasksResponse, streaming: false },
  CancelTask: { params: CancelTaskRequest, result: Task, streaming: false },
  SubscribeToTask: { params: SubscribeToTaskRequest, result: StreamResponse, streaming: true },
  CreateTaskPushNotificationConfig: { params: TaskPushNotificationConfig, result: TaskPushNotificationConfig, streaming: false },
  GetTaskPushNotificationConfig: { params: GetTaskPushNotificationConfigRequest, result: TaskPushNotificationConfig, streaming: false },
  ListTaskPushNotificationConfigs: {
    params: ListTaskPushNotificationConfigsRequest,
    result: ListTaskPushNotificationConfigsResponse,
    streaming: false
  },
  DeleteTaskPushNotificationConfig: { params: DeleteTaskPushNotificationConfigRequest, result: Empty, streaming: false },
  GetExtendedAgentCard: { params: GetExtendedAgentCardRequest, result: AgentCard, streaming: false }
} as const satisfies Record<string, MethodSpec>

/** An A2A 1.0 method name. */
export type V1MethodName = keyof typeof v1Methods

/** True when `name` is an A2A 1.0 method. */
export const isV1MethodName = (name: string): name is V1MethodName => Object.hasOwn(v1Methods, name)
