/**
 * A2A 1.0 requests written from the model's params, for clients: the ProtoJSON text of each request
 * message of `lf.a2a.v1` (JSON-RPC `params`, REST bodies), straight from the model values, as the answer
 * writers in `v1-json.ts` do: no intermediate 1.0 objects, one string per request.
 *
 * What 1.0 says differently is said here: `blocking: false` is `returnImmediately: true`; the inline push
 * config is `taskPushNotificationConfig`, flat, without a task; a push config is named by `taskId` and `id`
 * (0.3: `id` and `pushNotificationConfigId`); the model's `historyLength` (absent or 0: all of it) is written
 * only when it limits (1.0's 0 means none); `tenant` leads every request when the interface has one (spec
 * §8.3.2). 0.3's `metadata` of `tasks/get` and of the push-config methods has no 1.0 field and is not sent.
 *
 * @module
 */
import { jsonString as q } from "../internal/json-string.ts"
import type { ListTasksParams } from "../list-tasks.ts"
import type { MessageSendConfiguration, MessageSendParams, TaskIdParams, TaskQueryParams } from "../params.ts"
import type {
  DeleteTaskPushNotificationConfigParams,
  GetTaskPushNotificationConfigParams,
  ListTaskPushNotificationConfigParams,
  PushNotificationConfig,
  TaskPushNotificationConfig
} from "../push.ts"
import { toV1State } from "./enums.ts"
import { messageJson } from "./v1-json.ts"

const nonEmpty = (s: string | undefined): s is string => s !== undefined && s !== ""

/** `"tenant":…,` when the interface names a tenant. */
const lead = (tenant: string | undefined): string => (nonEmpty(tenant) ? `"tenant":${q(tenant)},` : "")

/** `{` and the tenant, for a request whose next member is written with a leading comma. */
const open = (tenant: string | undefined): string => (nonEmpty(tenant) ? `{"tenant":${q(tenant)}` : "{")

/** A history length the model asks for, as 1.0 writes it: only a limit (n > 0). */
const limit = (n: number | undefined): n is number => n !== undefined && n > 0

const free = (key: string, value: unknown): string => (value === undefined ? "" : `,"${key}":${JSON.stringify(value)}`)

/** The members of a push config after `taskId` (`url`, `token`, `authentication`), from the model's. */
const pushConfigTail = (c: PushNotificationConfig): string => {
  let s = `"url":${q(c.url)}`
  if (nonEmpty(c.token)) s += `,"token":${q(c.token)}`
  const scheme = c.authentication?.schemes[0]
  if (nonEmpty(scheme)) {
    const credentials = c.authentication?.credentials
    s += `,"authentication":{"scheme":${q(scheme)}${nonEmpty(credentials) ? `,"credentials":${q(credentials)}` : ""}}`
  }
  return s
}

const configurationJson = (c: MessageSendConfiguration): string => {
  const members: Array<string> = []
  if (c.acceptedOutputModes !== undefined && c.acceptedOutputModes.length > 0) {
    members.push(`"acceptedOutputModes":[${c.acceptedOutputModes.map(q).join(",")}]`)
  }
  const push = c.pushNotificationConfig
  if (push !== undefined) members.push(`"taskPushNotificationConfig":{${nonEmpty(push.id) ? `"id":${q(push.id)},` : ""}${pushConfigTail(push)}}`)
  if (limit(c.historyLength)) members.push(`"historyLength":${c.historyLength}`)
  if (c.blocking === false) members.push(`"returnImmediately":true`)
  return `{${members.join(",")}}`
}

/** `SendMessageRequest` (params of `SendMessage` and `SendStreamingMessage`) from `message/send` params. */
export const sendMessageRequestJson = (params: MessageSendParams, tenant?: string): string => {
  let s = `{${lead(tenant)}"message":${messageJson(params.message)}`
  if (params.configuration !== undefined) {
    const configuration = configurationJson(params.configuration)
    if (configuration !== "{}") s += `,"configuration":${configuration}`
  }
  return `${s}${free("metadata", params.metadata)}}`
}

/** `GetTaskRequest` from `tasks/get` params. */
export const getTaskRequestJson = (params: TaskQueryParams, tenant?: string): string =>
  `{${lead(tenant)}"id":${q(params.id)}${limit(params.historyLength) ? `,"historyLength":${params.historyLength}` : ""}}`

/** `CancelTaskRequest` from `tasks/cancel` params. */
export const cancelTaskRequestJson = (params: TaskIdParams, tenant?: string): string =>
  `{${lead(tenant)}"id":${q(params.id)}${free("metadata", params.metadata)}}`

/** `SubscribeToTaskRequest` from `tasks/resubscribe` params. */
export const subscribeToTaskRequestJson = (params: TaskIdParams, tenant?: string): string => `{${lead(tenant)}"id":${q(params.id)}}`

/** The flat `TaskPushNotificationConfig` of `CreateTaskPushNotificationConfig`, from `…/set` params. */
export const createPushConfigRequestJson = (params: TaskPushNotificationConfig, tenant?: string): string => {
  const c = params.pushNotificationConfig
  return `{${lead(tenant)}${nonEmpty(c.id) ? `"id":${q(c.id)},` : ""}"taskId":${q(params.taskId)},${pushConfigTail(c)}}`
}

/**
 * `GetTaskPushNotificationConfigRequest` from `…/get` params that name the config (1.0 always does; a
 * client without a config id lists the task's configs instead).
 */
export const getPushConfigRequestJson = (
  params: GetTaskPushNotificationConfigParams & { readonly pushNotificationConfigId: string },
  tenant?: string
): string => `{${lead(tenant)}"taskId":${q(params.id)},"id":${q(params.pushNotificationConfigId)}}`

/** `DeleteTaskPushNotificationConfigRequest` from `…/delete` params. */
export const deletePushConfigRequestJson = (params: DeleteTaskPushNotificationConfigParams, tenant?: string): string =>
  `{${lead(tenant)}"taskId":${q(params.id)},"id":${q(params.pushNotificationConfigId)}}`

/** `ListTaskPushNotificationConfigsRequest` from `…/list` params (one page holds every config of a task). */
export const listPushConfigsRequestJson = (params: ListTaskPushNotificationConfigParams, tenant?: string): string =>
  `{"taskId":${q(params.id)}${nonEmpty(tenant) ? `,"tenant":${q(tenant)}` : ""}}`

/** `ListTasksRequest` from the model's {@link ListTasksParams}. */
export const listTasksRequestJson = (params: ListTasksParams, tenant?: string): string => {
  let s = open(tenant)
  const add = (member: string) => {
    s += s.length === 1 ? member : `,${member}`
  }
  if (nonEmpty(params.contextId)) add(`"contextId":${q(params.contextId)}`)
  if (params.status !== undefined && params.status !== "unknown") add(`"status":"${toV1State(params.status)}"`)
  if (params.pageSize !== undefined) add(`"pageSize":${params.pageSize}`)
  if (nonEmpty(params.pageToken)) add(`"pageToken":${q(params.pageToken)}`)
  if (limit(params.historyLength)) add(`"historyLength":${params.historyLength}`)
  if (nonEmpty(params.statusTimestampAfter)) add(`"statusTimestampAfter":${q(params.statusTimestampAfter)}`)
  if (params.includeArtifacts !== undefined) add(`"includeArtifacts":${params.includeArtifacts}`)
  return `${s}}`
}

/** `GetExtendedAgentCardRequest`. */
export const extendedCardRequestJson = (tenant?: string): string => (nonEmpty(tenant) ? `{"tenant":${q(tenant)}}` : "{}")
