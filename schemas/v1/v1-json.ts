/**
 * The runtime's model written as A2A 1.0 JSON text (ProtoJSON of `lf.a2a.v1`), straight from the model
 * values: no intermediate 1.0 objects, one string per answer or stream event.
 *
 * Field order is the proto's field-number order; defaults are left out as ProtoJSON does (empty strings,
 * empty optional lists, false booleans), except where the spec overrides it (`parts` is always written,
 * `ListTasksResponse` writes every member, `artifacts: []` when a listing asks for artifacts). Free-form
 * members (`metadata`, `data`) are written with `JSON.stringify`. A data part marked `data_part_compat`
 * is unwrapped to its value. Each writer returns exactly `JSON.stringify` of the 1.0 object it stands for,
 * which the property tests check against the 1.0 schemas and the proto.
 *
 * @module
 */
import type { StreamResult, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "../events.ts"
import { jsonString as q } from "../internal/json-string.ts"
import type { Message } from "../message.ts"
import { dataPartCompatKey, isWrappedDataPart, type Part } from "../parts.ts"
import type { PushNotificationConfig } from "../push.ts"
import type { Artifact, Task, TaskStatus } from "../task.ts"
import { toV1Role, toV1State } from "./enums.ts"

const nonEmpty = (s: string | undefined): s is string => s !== undefined && s !== ""

const strings = (xs: ReadonlyArray<string>): string => {
  let s = "["
  for (let i = 0; i < xs.length; i++) s += i === 0 ? q(xs[i]!) : `,${q(xs[i]!)}`
  return `${s}]`
}

const list = <A>(xs: ReadonlyArray<A>, f: (a: A) => string): string => {
  let s = "["
  for (let i = 0; i < xs.length; i++) s += i === 0 ? f(xs[i]!) : `,${f(xs[i]!)}`
  return `${s}]`
}

/** `,"key":<json>` for a free-form member, or nothing when it is absent. */
const free = (key: string, value: unknown): string => (value === undefined ? "" : `,"${key}":${JSON.stringify(value)}`)

const fileNaming = (filename: string | undefined, mediaType: string | undefined): string =>
  (nonEmpty(filename) ? `,"filename":${q(filename)}` : "") + (nonEmpty(mediaType) ? `,"mediaType":${q(mediaType)}` : "")

/** A model part as a 1.0 `Part`. */
export const partJson = (p: Part): string => {
  switch (p.kind) {
    case "text":
      return `{"text":${q(p.text)}${free("metadata", p.metadata)}${fileNaming(p.filename, p.mediaType)}}`
    case "file": {
      const f = p.file
      const content = "bytes" in f && f.bytes !== undefined ? `"raw":${q(f.bytes)}` : `"url":${q((f as { uri: string }).uri)}`
      return `{${content}${free("metadata", p.metadata)}${fileNaming(f.name, f.mimeType)}}`
    }
    case "data": {
      if (!isWrappedDataPart(p)) return `{"data":${JSON.stringify(p.data)}${free("metadata", p.metadata)}${fileNaming(p.filename, p.mediaType)}}`
      const { [dataPartCompatKey]: _flag, ...rest } = p.metadata!
      const metadata = Object.keys(rest).length === 0 ? "" : `,"metadata":${JSON.stringify(rest)}`
      return `{"data":${JSON.stringify(p.data["value"])}${metadata}${fileNaming(p.filename, p.mediaType)}}`
    }
  }
}

/** A model message as a 1.0 `Message`. */
export const messageJson = (m: Message): string => {
  let s = `{"messageId":${q(m.messageId)}`
  if (nonEmpty(m.contextId)) s += `,"contextId":${q(m.contextId)}`
  if (nonEmpty(m.taskId)) s += `,"taskId":${q(m.taskId)}`
  s += `,"role":"${toV1Role(m.role)}","parts":${list(m.parts, partJson)}`
  s += free("metadata", m.metadata)
  if (m.extensions !== undefined && m.extensions.length > 0) s += `,"extensions":${strings(m.extensions)}`
  if (m.referenceTaskIds !== undefined && m.referenceTaskIds.length > 0) s += `,"referenceTaskIds":${strings(m.referenceTaskIds)}`
  return `${s}}`
}

const statusJson = (s: TaskStatus): string => {
  let out = `{"state":"${toV1State(s.state)}"`
  if (s.message !== undefined) out += `,"message":${messageJson(s.message)}`
  if (s.timestamp !== undefined) out += `,"timestamp":${q(s.timestamp)}`
  return `${out}}`
}

/** A model artifact as a 1.0 `Artifact`. */
export const artifactJson = (a: Artifact): string => {
  let s = `{"artifactId":${q(a.artifactId)}`
  if (nonEmpty(a.name)) s += `,"name":${q(a.name)}`
  if (nonEmpty(a.description)) s += `,"description":${q(a.description)}`
  s += `,"parts":${list(a.parts, partJson)}${free("metadata", a.metadata)}`
  if (a.extensions !== undefined && a.extensions.length > 0) s += `,"extensions":${strings(a.extensions)}`
  return `${s}}`
}

/** How a Task is written. */
export interface TaskJsonOptions {
  /** `false` leaves `history` out (1.0's `historyLength: 0`). Default true. */
  readonly history?: boolean
  /**
   * `"omit"` leaves `artifacts` out, `"always"` writes them even when empty (ListTasks' `includeArtifacts`);
   * default: written when there are any.
   */
  readonly artifacts?: "omit" | "always"
}

/** A model task as a 1.0 `Task`. */
export const taskJson = (t: Task, options?: TaskJsonOptions): string => {
  let s = `{"id":${q(t.id)}`
  if (t.contextId !== "") s += `,"contextId":${q(t.contextId)}`
  s += `,"status":${statusJson(t.status)}`
  const artifacts = options?.artifacts
  if (artifacts !== "omit" && t.artifacts !== undefined && (t.artifacts.length > 0 || artifacts === "always")) {
    s += `,"artifacts":${list(t.artifacts, artifactJson)}`
  } else if (artifacts === "always") {
    s += `,"artifacts":[]`
  }
  if (options?.history !== false && t.history !== undefined && t.history.length > 0) s += `,"history":${list(t.history, messageJson)}`
  return `${s}${free("metadata", t.metadata)}}`
}

const statusUpdateJson = (e: TaskStatusUpdateEvent): string =>
  `{"taskId":${q(e.taskId)},"contextId":${q(e.contextId)},"status":${statusJson(e.status)}${free("metadata", e.metadata)}}`

const artifactUpdateTail = (e: TaskArtifactUpdateEvent): string =>
  `${artifactJson(e.artifact)}${e.append === true ? `,"append":true` : ""}${e.lastChunk === true ? `,"lastChunk":true` : ""}${free("metadata", e.metadata)}}}`

/** A model stream event as a 1.0 `StreamResponse` (`{"task":…}`, `{"statusUpdate":…}`, …); no `final`, no `kind`. */
export const streamResponseJson = (event: StreamResult): string => {
  switch (event.kind) {
    case "task":
      return `{"task":${taskJson(event)}}`
    case "message":
      return `{"message":${messageJson(event)}}`
    case "status-update":
      return `{"statusUpdate":${statusUpdateJson(event)}}`
    case "artifact-update":
      return `{"artifactUpdate":{"taskId":${q(event.taskId)},"contextId":${q(event.contextId)},"artifact":${artifactUpdateTail(event)}`
  }
}

/**
 * {@link streamResponseJson} for the events of one stream: the head of its artifact updates (task and
 * context ids) is built once, since a long stream is mostly artifact updates of one task.
 */
export const makeStreamResponseJson = (): ((event: StreamResult) => string) => {
  let taskId: string | undefined
  let contextId: string | undefined
  let head = ""
  return (event) => {
    if (event.kind !== "artifact-update") return streamResponseJson(event)
    if (event.taskId !== taskId || event.contextId !== contextId) {
      taskId = event.taskId
      contextId = event.contextId
      head = `{"artifactUpdate":{"taskId":${q(taskId)},"contextId":${q(contextId)},"artifact":`
    }
    return head + artifactUpdateTail(event)
  }
}

/** The answer of `SendMessage`: `{"task":…}` or `{"message":…}`. */
export const sendResponseJson = (result: Task | Message, options?: TaskJsonOptions): string =>
  result.kind === "task" ? `{"task":${taskJson(result, options)}}` : `{"message":${messageJson(result)}}`

/** A model push config of `taskId` as a flat 1.0 `TaskPushNotificationConfig`. */
export const pushConfigJson = (taskId: string, c: PushNotificationConfig): string => {
  let s = "{"
  if (nonEmpty(c.id)) s += `"id":${q(c.id)},`
  s += `"taskId":${q(taskId)},"url":${q(c.url)}`
  if (nonEmpty(c.token)) s += `,"token":${q(c.token)}`
  const scheme = c.authentication?.schemes[0]
  if (nonEmpty(scheme)) {
    const credentials = c.authentication?.credentials
    s += `,"authentication":{"scheme":${q(scheme)}${nonEmpty(credentials) ? `,"credentials":${q(credentials)}` : ""}}`
  }
  return `${s}}`
}

/** The answer of `ListTaskPushNotificationConfigs`: one page with every config (none: `{}`). */
export const pushConfigListJson = (taskId: string, configs: ReadonlyArray<PushNotificationConfig>): string =>
  configs.length === 0 ? "{}" : `{"configs":${list(configs, (c) => pushConfigJson(taskId, c))}}`

/** The answer of `ListTasks`: every member written, `nextPageToken` `""` on the last page (spec §3.1.4). */
export const listTasksResponseJson = (
  tasks: ReadonlyArray<Task>,
  page: { readonly nextPageToken: string; readonly pageSize: number; readonly totalSize: number },
  options?: TaskJsonOptions
): string =>
  `{"tasks":${list(tasks, (t) => taskJson(t, options))},"nextPageToken":${q(page.nextPageToken)},"pageSize":${page.pageSize},"totalSize":${page.totalSize}}`
