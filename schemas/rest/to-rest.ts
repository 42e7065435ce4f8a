/**
 * A2A values in the form REST (HTTP+JSON) peers read: the protobuf JSON mapping of the 0.3.0 `.proto`,
 * with lowerCamelCase field names (`messageId`, `contextId`), enum names (`ROLE_USER`,
 * `TASK_STATE_WORKING`), message parts under `content`, file parts as `fileWithUri` / `fileWithBytes`,
 * data parts wrapped as `{ data: { data } }`, and results wrapped by kind (`task`, `message`,
 * `statusUpdate`, `artifactUpdate`). No `kind` members: strict protobuf parsers refuse unknown fields.
 *
 * This is the form the official JS SDK 0.3.14's REST client parses (it reads plain A2A JSON as unknown
 * enum values and fails), and the form its REST server answers with.
 *
 * @module
 */
import type { TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "../events.ts"
import type { Metadata } from "../internal/common.ts"
import type { Message } from "../message.ts"
import type { MessageSendConfiguration, MessageSendParams } from "../params.ts"
import type { Part } from "../parts.ts"
import type { PushNotificationConfig, TaskPushNotificationConfig } from "../push.ts"
import type { Artifact, Task, TaskStatus } from "../task.ts"
import { type RestRole, type RestTaskState, toRestRole, toRestState } from "./enums.ts"
import { compact } from "./internal/fields.ts"

type Meta = Metadata

/** A file part's content in the REST form. */
export interface RestFilePart {
  readonly fileWithUri?: string
  readonly fileWithBytes?: string
  readonly mimeType?: string
  readonly name?: string
}

/** A part in the REST form: exactly one of `text`, `file`, `data`. */
export interface RestPart {
  readonly text?: string
  readonly file?: RestFilePart
  readonly data?: { readonly data: Meta }
  readonly metadata?: Meta
}

/** A message in the REST form. */
export interface RestMessage {
  readonly messageId: string
  readonly contextId?: string
  readonly taskId?: string
  readonly role: RestRole
  readonly content: ReadonlyArray<RestPart>
  readonly referenceTaskIds?: ReadonlyArray<string>
  readonly extensions?: ReadonlyArray<string>
  readonly metadata?: Meta
}

/** A task status in the REST form. */
export interface RestTaskStatus {
  readonly state: RestTaskState
  readonly message?: RestMessage
  readonly timestamp?: string
}

/** An artifact in the REST form (its parts stay under `parts`, as in the `.proto`). */
export interface RestArtifact {
  readonly artifactId: string
  readonly name?: string
  readonly description?: string
  readonly parts: ReadonlyArray<RestPart>
  readonly extensions?: ReadonlyArray<string>
  readonly metadata?: Meta
}

/** A task in the REST form. */
export interface RestTask {
  readonly id: string
  readonly contextId: string
  readonly status: RestTaskStatus
  readonly history?: ReadonlyArray<RestMessage>
  readonly artifacts?: ReadonlyArray<RestArtifact>
  readonly metadata?: Meta
}

/** A status-update event in the REST form. */
export interface RestStatusUpdate {
  readonly taskId: string
  readonly contextId: string
  readonly status: RestTaskStatus
  readonly final: boolean
  readonly metadata?: Meta
}

/** An artifact-update event in the REST form. */
export interface RestArtifactUpdate {
  readonly taskId: string
  readonly contextId: string
  readonly artifact: RestArtifact
  readonly append?: boolean
  readonly lastChunk?: boolean
  readonly metadata?: Meta
}

/** The answer of `POST /v1/message:send`. */
export type RestSendResponse = { readonly task: RestTask } | { readonly message: RestMessage }

/** One `data:` payload of a REST stream. */
export type RestStreamResponse =
  | RestSendResponse
  | { readonly statusUpdate: RestStatusUpdate }
  | { readonly artifactUpdate: RestArtifactUpdate }

/** A push config in the REST form (same fields as A2A). */
export interface RestPushNotificationConfig {
  readonly id?: string
  readonly url: string
  readonly token?: string
  readonly authentication?: { readonly schemes: ReadonlyArray<string>; readonly credentials?: string }
}

/** A task's push config in the REST form: the task and config ids travel in a resource `name`. */
export interface RestTaskPushNotificationConfig {
  readonly name: string
  readonly pushNotificationConfig: RestPushNotificationConfig
}

/** The configuration of a send request in the REST form. */
export interface RestSendConfiguration {
  readonly acceptedOutputModes?: ReadonlyArray<string>
  readonly pushNotification?: RestPushNotificationConfig
  readonly historyLength?: number
  readonly blocking?: boolean
}

/** The body of `POST /v1/message:send` and `POST /v1/message:stream`. */
export interface RestSendMessageRequest {
  readonly message: RestMessage
  readonly configuration?: RestSendConfiguration
  readonly metadata?: Meta
}

/** The body of `POST /v1/tasks/{id}/pushNotificationConfigs`, as the `.proto` and the spec's REST tab have it. */
export interface RestCreatePushConfigRequest {
  readonly parent: string
  readonly configId?: string
  readonly config: RestTaskPushNotificationConfig
}

/** `tasks/{id}`: a task's resource name. */
export const taskName = (taskId: string): string => `tasks/${taskId}`

/** `tasks/{id}/pushNotificationConfigs/{configId}`: a push config's resource name. */
export const pushConfigName = (taskId: string, configId: string): string =>
  `tasks/${taskId}/pushNotificationConfigs/${configId}`

const part = (p: Part): RestPart => {
  switch (p.kind) {
    case "text":
      return compact({ text: p.text, metadata: p.metadata })
    case "file": {
      const f = p.file
      const content = "uri" in f && f.uri !== undefined ? { fileWithUri: f.uri } : { fileWithBytes: (f as { bytes: string }).bytes }
      return compact({ file: compact({ ...content, mimeType: f.mimeType, name: f.name }), metadata: p.metadata })
    }
    case "data":
      return compact({ data: { data: p.data }, metadata: p.metadata })
  }
}

const message = (m: Message): RestMessage =>
  compact({
    messageId: m.messageId,
    contextId: m.contextId,
    taskId: m.taskId,
    role: toRestRole(m.role),
    content: m.parts.map(part),
    referenceTaskIds: m.referenceTaskIds,
    extensions: m.extensions,
    metadata: m.metadata
  })

const status = (s: TaskStatus): RestTaskStatus =>
  compact({
    state: toRestState(s.state),
    message: s.message === undefined ? undefined : message(s.message),
    timestamp: s.timestamp
  })

const artifact = (a: Artifact): RestArtifact =>
  compact({
    artifactId: a.artifactId,
    name: a.name,
    description: a.description,
    parts: a.parts.map(part),
    extensions: a.extensions,
    metadata: a.metadata
  })

const task = (t: Task): RestTask =>
  compact({
    id: t.id,
    contextId: t.contextId,
    status: status(t.status),
    history: t.history?.map(message),
    artifacts: t.artifacts?.map(artifact),
    metadata: t.metadata
  })

const statusUpdate = (e: TaskStatusUpdateEvent): RestStatusUpdate =>
  compact({ taskId: e.taskId, contextId: e.contextId, status: status(e.status), final: e.final, metadata: e.metadata })

const artifactUpdate = (e: TaskArtifactUpdateEvent): RestArtifactUpdate =>
  compact({
    taskId: e.taskId,
    contextId: e.contextId,
    artifact: artifact(e.artifact),
    append: e.append,
    lastChunk: e.lastChunk,
    metadata: e.metadata
  })

const pushConfig = (c: PushNotificationConfig): RestPushNotificationConfig =>
  compact({
    id: c.id,
    url: c.url,
    token: c.token,
    authentication: c.authentication === undefined
      ? undefined
      : compact({ schemes: c.authentication.schemes, credentials: c.authentication.credentials })
  })

const taskPushConfig = (c: TaskPushNotificationConfig): RestTaskPushNotificationConfig => ({
  name: pushConfigName(c.taskId, c.pushNotificationConfig.id ?? ""),
  pushNotificationConfig: pushConfig(c.pushNotificationConfig)
})

/*
 * `blocking` is written out whenever a configuration is: in the protobuf mapping an absent boolean is
 * false, so a server reading the `.proto` way would take a configuration without it as non-blocking,
 * while A2A's default is blocking.
 */
const configuration = (c: MessageSendConfiguration): RestSendConfiguration =>
  compact({
    acceptedOutputModes: c.acceptedOutputModes,
    pushNotification: c.pushNotificationConfig === undefined ? undefined : pushConfig(c.pushNotificationConfig),
    historyLength: c.historyLength,
    blocking: c.blocking ?? true
  })

/** Encoders from A2A values to the REST form. Pure; the input must already be valid (a decoded value). */
export const toRest = {
  part,
  message,
  status,
  artifact,
  task,
  statusUpdate,
  artifactUpdate,
  pushConfig,
  taskPushConfig,
  /** The answer of `message:send`: `{ task }` or `{ message }`. */
  sendResponse: (result: Task | Message): RestSendResponse =>
    result.kind === "task" ? { task: task(result) } : { message: message(result) },
  /** One stream event, wrapped by its kind. */
  streamResponse: (
    event: Task | Message | TaskStatusUpdateEvent | TaskArtifactUpdateEvent
  ): RestStreamResponse => {
    switch (event.kind) {
      case "task":
        return { task: task(event) }
      case "message":
        return { message: message(event) }
      case "status-update":
        return { statusUpdate: statusUpdate(event) }
      case "artifact-update":
        return { artifactUpdate: artifactUpdate(event) }
    }
  },
  /** The answer of `GET /v1/tasks/{id}/pushNotificationConfigs`: `{ configs }`, as the JS SDK reads it. */
  pushConfigList: (configs: ReadonlyArray<TaskPushNotificationConfig>): { readonly configs: ReadonlyArray<RestTaskPushNotificationConfig> } => ({
    configs: configs.map(taskPushConfig)
  }),
  /** The body of a send or stream request. */
  sendMessageRequest: (params: MessageSendParams): RestSendMessageRequest =>
    compact({
      message: message(params.message),
      configuration: params.configuration === undefined ? undefined : configuration(params.configuration),
      metadata: params.metadata
    }),
  /** The body of a push-config creation. */
  createPushConfigRequest: (params: TaskPushNotificationConfig): RestCreatePushConfigRequest =>
    compact({
      parent: taskName(params.taskId),
      configId: params.pushNotificationConfig.id,
      config: taskPushConfig(params)
    })
} as const
