/**
 * Decoded A2A 1.0 values as the runtime's model (the 0.3 shapes of `schemas/`, with `kind`).
 *
 * Lossless but for what 1.0 says is the same: empty strings and empty lists are absent values. A data part
 * whose value is not an object becomes `{ value }` marked `data_part_compat` (see `dataPart`); `raw` bytes in
 * the URL-safe base64 alphabet become the standard one, which is what every reader of a file's `bytes` expects.
 *
 * @module
 */
import type { Metadata } from "../internal/common.ts"
import type { ListTasksResult } from "../list-tasks.ts"
import type { Message as ModelMessage } from "../message.ts"
import type { MessageSendConfiguration, MessageSendParams } from "../params.ts"
import { dataPart, type Part as ModelPart } from "../parts.ts"
import type {
  PushNotificationAuthenticationInfo,
  PushNotificationConfig,
  TaskPushNotificationConfig as ModelTaskPushNotificationConfig
} from "../push.ts"
import type { Artifact as ModelArtifact, Task as ModelTask, TaskStatus as ModelTaskStatus } from "../task.ts"
import type { StreamResult, TaskArtifactUpdateEvent as ModelArtifactUpdate, TaskStatusUpdateEvent as ModelStatusUpdate } from "../events.ts"
import { fromV1State } from "./enums.ts"
import type { StreamResponse, SendMessageResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "./events.ts"
import type { Message } from "./message.ts"
import type { Part } from "./parts.ts"
import type { AuthenticationInfo, ListTaskPushNotificationConfigsResponse, TaskPushNotificationConfig } from "./push.ts"
import type { ListTasksResponse, SendMessageConfiguration, SendMessageRequest } from "./requests.ts"
import type { Artifact, Task, TaskStatus } from "./task.ts"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const nonEmpty = (s: string | undefined): s is string => s !== undefined && s !== ""
const some = <A>(xs: ReadonlyArray<A> | undefined): xs is ReadonlyArray<A> => xs !== undefined && xs.length > 0

/** Standard base64 with padding, from either alphabet. */
export const standardBase64 = (s: string): string => {
  if (!/[-_]/.test(s) && s.length % 4 === 0) return s
  const standard = s.replace(/-/g, "+").replace(/_/g, "/")
  return standard + "=".repeat((4 - (standard.length % 4)) % 4)
}

/** A 1.0 part as a model part. */
export const partFromV1 = (part: Part): ModelPart => {
  const metadata = part.metadata as Metadata | undefined
  if (part.text !== undefined) {
    const out: Mutable<Extract<ModelPart, { kind: "text" }>> = { kind: "text", text: part.text }
    if (nonEmpty(part.mediaType)) out.mediaType = part.mediaType
    if (nonEmpty(part.filename)) out.filename = part.filename
    if (metadata !== undefined) out.metadata = metadata
    return out
  }
  if (part.raw !== undefined || part.url !== undefined) {
    const file: Record<string, string> = part.raw !== undefined ? { bytes: standardBase64(part.raw) } : { uri: part.url! }
    if (nonEmpty(part.mediaType)) file["mimeType"] = part.mediaType
    if (nonEmpty(part.filename)) file["name"] = part.filename
    const out = { kind: "file", file } as Mutable<Extract<ModelPart, { kind: "file" }>>
    if (metadata !== undefined) out.metadata = metadata
    return out
  }
  const out = dataPart(part.data, metadata) as Mutable<Extract<ModelPart, { kind: "data" }>>
  if (nonEmpty(part.mediaType)) out.mediaType = part.mediaType
  if (nonEmpty(part.filename)) out.filename = part.filename
  return out
}

/** A 1.0 message as a model message. */
export const messageFromV1 = (m: Message): ModelMessage => {
  const out: Mutable<ModelMessage> = {
    kind: "message",
    messageId: m.messageId,
    role: m.role === "ROLE_AGENT" ? "agent" : "user",
    parts: m.parts.map(partFromV1)
  }
  if (nonEmpty(m.taskId)) out.taskId = m.taskId
  if (nonEmpty(m.contextId)) out.contextId = m.contextId
  if (some(m.referenceTaskIds)) out.referenceTaskIds = m.referenceTaskIds
  if (some(m.extensions)) out.extensions = m.extensions
  if (m.metadata !== undefined) out.metadata = m.metadata as Metadata
  return out
}

const authenticationFromV1 = (a: AuthenticationInfo): PushNotificationAuthenticationInfo =>
  nonEmpty(a.credentials) ? { schemes: [a.scheme], credentials: a.credentials } : { schemes: [a.scheme] }

/** A flat 1.0 push config as the model's config (without its task). */
export const pushConfigFromV1 = (c: TaskPushNotificationConfig): PushNotificationConfig => {
  const out: Mutable<PushNotificationConfig> = { url: c.url }
  if (nonEmpty(c.id)) out.id = c.id
  if (nonEmpty(c.token)) out.token = c.token
  if (c.authentication !== undefined) out.authentication = authenticationFromV1(c.authentication)
  return out
}

/** A flat 1.0 push config bound to `taskId` (the path's or the body's) as the model's. */
export const taskPushConfigFromV1 = (c: TaskPushNotificationConfig, taskId: string): ModelTaskPushNotificationConfig => ({
  taskId,
  pushNotificationConfig: pushConfigFromV1(c)
})

const configurationFromV1 = (c: SendMessageConfiguration): MessageSendConfiguration => {
  const out: Mutable<MessageSendConfiguration> = {}
  if (c.acceptedOutputModes !== undefined) out.acceptedOutputModes = c.acceptedOutputModes
  // 1.0's 0 means "no history", which the model has no number for: the 1.0 edge leaves history out instead.
  if (c.historyLength !== undefined && c.historyLength > 0) out.historyLength = c.historyLength
  if (c.taskPushNotificationConfig !== undefined) out.pushNotificationConfig = pushConfigFromV1(c.taskPushNotificationConfig)
  if (c.returnImmediately === true) out.blocking = false
  return out
}

/** A 1.0 SendMessageRequest as the model's `message/send` params (`tenant` is the server's to check). */
export const sendParamsFromV1 = (r: SendMessageRequest): MessageSendParams => {
  const out: Mutable<MessageSendParams> = { message: messageFromV1(r.message) }
  if (r.configuration !== undefined) out.configuration = configurationFromV1(r.configuration)
  if (r.metadata !== undefined) out.metadata = r.metadata as Metadata
  return out
}

const statusFromV1 = (s: TaskStatus): ModelTaskStatus => {
  const out: Mutable<ModelTaskStatus> = { state: fromV1State(s.state) }
  if (s.message !== undefined) out.message = messageFromV1(s.message)
  if (s.timestamp !== undefined) out.timestamp = s.timestamp
  return out
}

const artifactFromV1 = (a: Artifact): ModelArtifact => {
  const out: Mutable<ModelArtifact> = { artifactId: a.artifactId, parts: a.parts.map(partFromV1) }
  if (nonEmpty(a.name)) out.name = a.name
  if (nonEmpty(a.description)) out.description = a.description
  if (some(a.extensions)) out.extensions = a.extensions
  if (a.metadata !== undefined) out.metadata = a.metadata as Metadata
  return out
}

/** A 1.0 Task as the model's. */
export const taskFromV1 = (t: Task): ModelTask => {
  const out: Mutable<ModelTask> = { kind: "task", id: t.id, contextId: t.contextId ?? "", status: statusFromV1(t.status) }
  if (t.history !== undefined) out.history = t.history.map(messageFromV1)
  if (t.artifacts !== undefined) out.artifacts = t.artifacts.map(artifactFromV1)
  if (t.metadata !== undefined) out.metadata = t.metadata as Metadata
  return out
}

const statusUpdateFromV1 = (e: TaskStatusUpdateEvent, final: boolean): ModelStatusUpdate => {
  const out: Mutable<ModelStatusUpdate> = {
    kind: "status-update",
    taskId: e.taskId,
    contextId: e.contextId,
    status: statusFromV1(e.status),
    final
  }
  if (e.metadata !== undefined) out.metadata = e.metadata as Metadata
  return out
}

const artifactUpdateFromV1 = (e: TaskArtifactUpdateEvent): ModelArtifactUpdate => {
  const out: Mutable<ModelArtifactUpdate> = { kind: "artifact-update", taskId: e.taskId, contextId: e.contextId, artifact: artifactFromV1(e.artifact) }
  if (e.append === true) out.append = true
  if (e.lastChunk === true) out.lastChunk = true
  if (e.metadata !== undefined) out.metadata = e.metadata as Metadata
  return out
}

const endsStream = new Set(["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"])

/**
 * One 1.0 stream event as the model's. 1.0 has no `final`: a status update is final when its state ends a
 * stream (terminal or interrupted), which is where this runtime's streams end too.
 */
export const streamResponseFromV1 = (r: StreamResponse): StreamResult => {
  if (r.task !== undefined) return taskFromV1(r.task)
  if (r.message !== undefined) return messageFromV1(r.message)
  if (r.statusUpdate !== undefined) return statusUpdateFromV1(r.statusUpdate, endsStream.has(r.statusUpdate.status.state))
  return artifactUpdateFromV1(r.artifactUpdate!)
}

/** The answer of `SendMessage` as the model's Task or Message. */
export const sendResponseFromV1 = (r: SendMessageResponse): ModelTask | ModelMessage =>
  r.task !== undefined ? taskFromV1(r.task) : messageFromV1(r.message!)

/**
 * A 1.0 push config as the model's `TaskPushNotificationConfig`; `taskId` is the config's, or the one the
 * request named when the answer leaves it out.
 */
export const pushConfigResultFromV1 = (c: TaskPushNotificationConfig, taskId: string): ModelTaskPushNotificationConfig =>
  taskPushConfigFromV1(c, nonEmpty(c.taskId) ? c.taskId : taskId)

/** The answer of `ListTaskPushNotificationConfigs` as the model's list (`tasks/pushNotificationConfig/list`). */
export const pushConfigListFromV1 = (r: ListTaskPushNotificationConfigsResponse, taskId: string): Array<ModelTaskPushNotificationConfig> =>
  (r.configs ?? []).map((c) => pushConfigResultFromV1(c, taskId))

/** The answer of `ListTasks` as the model's page. */
export const listTasksFromV1 = (r: ListTasksResponse): ListTasksResult => ({
  tasks: r.tasks.map(taskFromV1),
  nextPageToken: r.nextPageToken,
  pageSize: r.pageSize,
  totalSize: r.totalSize
})
