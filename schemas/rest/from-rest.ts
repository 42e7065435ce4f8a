/**
 * REST (HTTP+JSON) payloads, in either spelling peers use, rewritten as plain A2A JSON.
 *
 * Accepted: plain A2A JSON (camelCase, `kind`, `role: "user"`, `state: "working"`, `parts`), and the
 * protobuf JSON mapping of the 0.3.0 `.proto` in both its lowerCamelCase and snake_case field names
 * (`message_id`, `ROLE_USER`, `TASK_STATE_WORKING`, parts under `content`, `file_with_uri`,
 * `{ data: { data } }`, the `request` wrapper of a send request, results wrapped as `task`, `msg`,
 * `status_update`, ...).
 *
 * These functions only rename and unwrap: they never judge. What they return goes through the A2A Effect
 * Schemas (see `decode.ts`), so a bad value is refused there with the schema's message. Free-form members
 * (`metadata`, a data part's `data`) are copied verbatim, never renamed.
 *
 * Which spelling an object uses is read from markers only the protobuf form has: a message with `content`
 * or a `ROLE_*` role, a task or event without `kind`. Parts follow their container, which settles the one
 * real ambiguity: `{ data: { data: x } }` is a wrapped `x` inside a protobuf message, and a kind-less data
 * part holding `{ data: x }` inside a plain one.
 *
 * @module
 */
import { fromRestRole, fromRestState, isRestRole, isRestState } from "./enums.ts"
import { compact, holds, isRecord, type JsonRecord, mapArray, mapRecord, pick, repeated } from "./internal/fields.ts"

const TASK_NAME = /^tasks\/([^/]+)(?:\/pushNotificationConfigs\/([^/]*))?/

/** The task id (and config id, when present) of a resource name such as `tasks/t1/pushNotificationConfigs/c1`. */
export const parseResourceName = (name: unknown): { readonly taskId: string; readonly configId?: string } | undefined => {
  if (typeof name !== "string") return undefined
  const match = TASK_NAME.exec(name)
  if (match === null || match[1] === undefined) return undefined
  return match[2] === undefined || match[2] === "" ? { taskId: match[1] } : { taskId: match[1], configId: match[2] }
}

const file = (f: JsonRecord): unknown =>
  compact({
    uri: pick(f, "uri", "fileWithUri", "file_with_uri"),
    bytes: pick(f, "bytes", "fileWithBytes", "file_with_bytes"),
    mimeType: pick(f, "mimeType", "mime_type"),
    name: pick(f, "name")
  })

const kindOfPart = (p: JsonRecord): string | undefined => {
  const present = (["text", "file", "data"] as const).filter((k) => holds(p, k))
  return present.length === 1 ? present[0] : undefined
}

const part = (proto: boolean) => (u: unknown): unknown =>
  mapRecord(u, (p) => {
    const kind = pick(p, "kind") ?? kindOfPart(p)
    const data = pick(p, "data")
    const unwrap = proto && pick(p, "kind") === undefined && isRecord(data) && isRecord(pick(data, "data"))
    return compact({
      kind,
      text: pick(p, "text"),
      file: mapRecord(pick(p, "file"), file),
      data: unwrap ? pick(data as JsonRecord, "data") : data,
      metadata: pick(p, "metadata")
    })
  })

const isProtoMessage = (m: JsonRecord): boolean => holds(m, "content") || isRestRole(pick(m, "role"))

const message = (u: unknown): unknown =>
  mapRecord(u, (m) => {
    const proto = isProtoMessage(m)
    return compact({
      kind: pick(m, "kind") ?? "message",
      messageId: pick(m, "messageId", "message_id"),
      role: fromRestRole(pick(m, "role")),
      parts: mapArray(repeated(m, "parts", "content"), part(proto)),
      taskId: pick(m, "taskId", "task_id"),
      contextId: pick(m, "contextId", "context_id"),
      referenceTaskIds: pick(m, "referenceTaskIds", "reference_task_ids"),
      extensions: pick(m, "extensions"),
      metadata: pick(m, "metadata")
    })
  })

/*
 * The protobuf JSON mapping leaves out every field at its default (empty string, empty list, enum zero),
 * so inside a protobuf-form object a missing id is "" and a missing state is the unspecified one. Plain A2A
 * objects get no such defaults: there a missing required field is an error. Lists are read the protobuf way
 * in every form (`repeated`): an empty list may be left out, and there is no telling the forms apart in objects
 * without markers (a push config's `authentication`).
 */
const orDefault = (proto: boolean, value: unknown, fallback: unknown): unknown => (proto && value === undefined ? fallback : value)

const status = (proto: boolean) => (u: unknown): unknown =>
  mapRecord(u, (s) =>
    compact({
      state: fromRestState(orDefault(proto, pick(s, "state"), "TASK_STATE_UNSPECIFIED")),
      message: message(pick(s, "message", "update")),
      timestamp: pick(s, "timestamp")
    }))

const artifact = (proto: boolean) => (u: unknown): unknown =>
  mapRecord(u, (a) =>
    compact({
      artifactId: orDefault(proto, pick(a, "artifactId", "artifact_id"), ""),
      name: pick(a, "name"),
      description: pick(a, "description"),
      parts: mapArray(repeated(a, "parts"), part(proto)),
      extensions: pick(a, "extensions"),
      metadata: pick(a, "metadata")
    }))

const isProtoTask = (t: JsonRecord): boolean => {
  const s = pick(t, "status")
  return pick(t, "kind") === undefined || (isRecord(s) && isRestState(pick(s, "state")))
}

const task = (u: unknown): unknown =>
  mapRecord(u, (t) => {
    const proto = isProtoTask(t)
    return compact({
      kind: pick(t, "kind") ?? "task",
      id: orDefault(proto, pick(t, "id"), ""),
      contextId: orDefault(proto, pick(t, "contextId", "context_id"), ""),
      status: status(proto)(orDefault(proto, pick(t, "status"), {})),
      history: mapArray(pick(t, "history"), message),
      artifacts: mapArray(pick(t, "artifacts"), artifact(proto)),
      metadata: pick(t, "metadata")
    })
  })

const statusUpdate = (u: unknown): unknown =>
  mapRecord(u, (e) => {
    const proto = pick(e, "kind") === undefined
    return compact({
      kind: pick(e, "kind") ?? "status-update",
      taskId: orDefault(proto, pick(e, "taskId", "task_id"), ""),
      contextId: orDefault(proto, pick(e, "contextId", "context_id"), ""),
      status: status(proto)(orDefault(proto, pick(e, "status"), {})),
      final: orDefault(proto, pick(e, "final"), false),
      metadata: pick(e, "metadata")
    })
  })

const artifactUpdate = (u: unknown): unknown =>
  mapRecord(u, (e) => {
    const proto = pick(e, "kind") === undefined
    return compact({
      kind: pick(e, "kind") ?? "artifact-update",
      taskId: orDefault(proto, pick(e, "taskId", "task_id"), ""),
      contextId: orDefault(proto, pick(e, "contextId", "context_id"), ""),
      artifact: artifact(proto)(pick(e, "artifact")),
      append: pick(e, "append"),
      lastChunk: pick(e, "lastChunk", "last_chunk"),
      metadata: pick(e, "metadata")
    })
  })

/** A bare plain A2A event, by its `kind`. */
const byKind = (o: JsonRecord): unknown => {
  switch (pick(o, "kind")) {
    case "task":
      return task(o)
    case "message":
      return message(o)
    case "status-update":
      return statusUpdate(o)
    case "artifact-update":
      return artifactUpdate(o)
    default:
      return o
  }
}

const streamResponse = (u: unknown): unknown =>
  mapRecord(u, (o) => {
    if (holds(o, "kind")) return byKind(o)
    if (holds(o, "task")) return task(pick(o, "task"))
    if (holds(o, "message", "msg")) return message(pick(o, "message", "msg"))
    if (holds(o, "statusUpdate", "status_update")) return statusUpdate(pick(o, "statusUpdate", "status_update"))
    if (holds(o, "artifactUpdate", "artifact_update")) return artifactUpdate(pick(o, "artifactUpdate", "artifact_update"))
    return o
  })

const pushConfig = (u: unknown): unknown =>
  mapRecord(u, (c) => {
    const auth = pick(c, "authentication")
    return compact({
      id: pick(c, "id"),
      url: pick(c, "url"),
      token: pick(c, "token"),
      authentication: mapRecord(auth, (a) => compact({ schemes: repeated(a, "schemes"), credentials: pick(a, "credentials") }))
    })
  })

/**
 * A task's push config: plain `{ taskId, pushNotificationConfig }` or the protobuf
 * `{ name: "tasks/{id}/pushNotificationConfigs/{configId}", pushNotificationConfig }`; a config id found
 * only in the name is copied into the config.
 */
const taskPushConfig = (u: unknown): unknown =>
  mapRecord(u, (o) => {
    const named = parseResourceName(pick(o, "name"))
    const config = pushConfig(pick(o, "pushNotificationConfig", "push_notification_config"))
    return compact({
      taskId: pick(o, "taskId", "task_id") ?? named?.taskId,
      pushNotificationConfig: isRecord(config) && config["id"] === undefined && named?.configId !== undefined
        ? { ...config, id: named.configId }
        : config
    })
  })

/*
 * Send configuration. `pushNotification` is the `.proto`'s JSON name, `pushNotificationConfig` A2A's. In the
 * protobuf form an absent `blocking` is false (the mapping leaves false out), which is how the official SDKs
 * read it; in plain A2A JSON it stays absent and the runtime applies A2A's default, true.
 */
const configuration = (proto: boolean) => (u: unknown): unknown =>
  mapRecord(u, (c) =>
    compact({
      acceptedOutputModes: pick(c, "acceptedOutputModes", "accepted_output_modes"),
      historyLength: pick(c, "historyLength", "history_length"),
      pushNotificationConfig: pushConfig(
        pick(c, "pushNotificationConfig", "push_notification_config", "pushNotification", "push_notification")
      ),
      blocking: pick(c, "blocking") ?? (proto ? false : undefined)
    }))

const sendParams = (u: unknown): unknown =>
  mapRecord(u, (o) => {
    const raw = pick(o, "message", "request")
    const proto = holds(o, "request") || (isRecord(raw) && isProtoMessage(raw))
    return compact({
      message: message(raw),
      configuration: configuration(proto)(pick(o, "configuration")),
      metadata: pick(o, "metadata")
    })
  })

/**
 * The body of a push-config creation, in any of the forms peers send: the `.proto`'s
 * `{ parent, configId, config: { name, pushNotificationConfig } }` (the spec's REST tab), a task push
 * config (`{ taskId | name, pushNotificationConfig }`), or a bare push config (`{ url, ... }`).
 * `taskId` is the task named by the URL; a body naming another task keeps that id, for the caller to refuse.
 */
const createPushConfigRequest = (u: unknown, taskId: string): unknown =>
  mapRecord(u, (o) => {
    const inner = pick(o, "config")
    if (isRecord(inner)) {
      const decoded = taskPushConfig(inner) as JsonRecord
      const configId = pick(o, "configId", "config_id")
      const config = decoded["pushNotificationConfig"]
      return {
        taskId: decoded["taskId"] ?? parseResourceName(pick(o, "parent"))?.taskId ?? taskId,
        pushNotificationConfig: isRecord(config) && config["id"] === undefined && configId !== undefined
          ? { ...config, id: configId }
          : config
      }
    }
    if (holds(o, "pushNotificationConfig", "push_notification_config")) {
      const decoded = taskPushConfig(o) as JsonRecord
      return { ...decoded, taskId: decoded["taskId"] ?? taskId }
    }
    return { taskId, pushNotificationConfig: pushConfig(o) }
  })

/** A list of push configs: a bare array (the spec's REST tab) or `{ configs }` (the `.proto`, the JS SDK). */
const pushConfigList = (u: unknown): unknown =>
  Array.isArray(u) ? u.map(taskPushConfig) : mapRecord(u, (o) => mapArray(pick(o, "configs") ?? [], taskPushConfig))

/** Normalisers from either REST spelling to plain A2A JSON (unvalidated: decode the result with a schema). */
export const fromRest = {
  part: (u: unknown, options: { readonly proto: boolean } = { proto: true }): unknown => part(options.proto)(u),
  message,
  status: (u: unknown, options: { readonly proto: boolean } = { proto: true }): unknown => status(options.proto)(u),
  artifact: (u: unknown, options: { readonly proto: boolean } = { proto: true }): unknown => artifact(options.proto)(u),
  task,
  statusUpdate,
  artifactUpdate,
  pushConfig,
  taskPushConfig,
  pushConfigList,
  sendParams,
  createPushConfigRequest,
  /** The answer of `message:send` (`{ task }`, `{ message }`, `{ msg }`, or a bare A2A Task or Message). */
  sendResponse: streamResponse,
  /** One stream payload (wrapped by kind, or a bare A2A event). */
  streamResponse
} as const
