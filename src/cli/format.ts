/**
 * Human-readable rendering of A2A objects for the `a2a` command. What it is given has been through
 * `forTerminal` (terminal-text.ts), so the agent's text is already escaped.
 *
 * @module
 */
import type { AgentCard } from "../../schemas/agent-card.ts"
import type { StreamResult } from "../../schemas/events.ts"
import type { ListTasksResult } from "../../schemas/list-tasks.ts"
import type { Message } from "../../schemas/message.ts"
import type { Part } from "../../schemas/parts.ts"
import type { Task } from "../../schemas/task.ts"
import { spokenVersion } from "../client/discovery.ts"
import { methodParamsText, securityLines, skillSecurityLines } from "./card-details.ts"
import { terminalText } from "./terminal-text.ts"

/** One part as a line of text: text as is, data as JSON, files by name or URI. */
export const formatPart = (part: Part): string => {
  switch (part.kind) {
    case "text":
      return part.text
    case "data":
      // The agent's data as JSON, which escapes C0 controls; the rest are escaped for the terminal.
      return terminalText(JSON.stringify(part.data))
    case "file": {
      const file = part.file as { readonly name?: string; readonly uri?: string; readonly mimeType?: string }
      return `[file ${file.name ?? file.uri ?? "(inline)"}${file.mimeType === undefined ? "" : ` ${file.mimeType}`}]`
    }
  }
}

/** Parts as text, one line each. */
export const partsText = (parts: ReadonlyArray<Part>): string => parts.map(formatPart).join("\n")

/** A message as `role: text`. */
export const formatMessage = (message: Message): string => `${message.role}: ${partsText(message.parts)}`

/** One interface of a card: a binding at a URL, for an A2A version, under a tenant when it names one. */
export interface ShownInterface {
  readonly protocolBinding: string
  readonly url: string
  readonly protocolVersion: string
  readonly tenant?: string
}

/** The card's interfaces in its order (the first preferred), each with its A2A version; the one in use marked. */
const interfaceLines = (interfaces: ReadonlyArray<ShownInterface>, inUse: { readonly endpoint: string; readonly transport: string; readonly version: string }): ReadonlyArray<string> =>
  interfaces.map((i, n) => {
    const marks = [n === 0 ? "preferred" : "", i.tenant === undefined || i.tenant === "" ? "" : `tenant ${i.tenant}`]
    const used = i.protocolBinding.toUpperCase() === inUse.transport && spokenVersion(i.protocolVersion) === inUse.version && sameUrl(i.url, inUse.endpoint)
    if (used) marks.push("in use")
    const shown = marks.filter((m) => m !== "")
    return `  - ${i.protocolBinding} ${i.url} (A2A ${i.protocolVersion})${shown.length === 0 ? "" : ` (${shown.join(", ")})`}`
  })

/** Two URLs naming the same place, up to a trailing slash. */
const sameUrl = (a: string, b: string): boolean => a.replace(/\/+$/, "") === b.replace(/\/+$/, "")

/** The card's extensions, with the methods their declarations list in `params.methods` and their params. */
const extensionLines = (card: AgentCard): ReadonlyArray<string> => {
  const extensions = card.capabilities.extensions ?? []
  if (extensions.length === 0) return ["  (none)"]
  return extensions.flatMap((ext) => {
    const methods = (ext.params as { readonly methods?: unknown } | undefined)?.methods
    const listed = Array.isArray(methods) ? methods.filter((m): m is string => typeof m === "string") : []
    const withParams = listed.map((method) => ({ method, params: methodParamsText(ext.params, method) }))
    return [
      `  - ${ext.uri}${ext.required === true ? " (required)" : ""}${ext.description === undefined ? "" : ` - ${ext.description}`}`,
      ...(listed.length === 0
        ? []
        : withParams.every(({ params }) => params === undefined)
        ? [`    methods: ${listed.join(", ")}`]
        : ["    methods:", ...withParams.map(({ method, params }) => `      ${method}${params === undefined ? "" : ` ${params}`}`)])
    ]
  })
}

/** How the client talks to the agent: where, over which binding, in which version. */
export interface Connection {
  readonly endpoint: string
  readonly transport: string
  readonly version: string
  readonly interfaces: ReadonlyArray<ShownInterface>
}

/** A card as a short description, with the interfaces it lists and the one `connection` uses. */
export const formatCard = (card: AgentCard, connection: Connection): string => {
  const capabilities = Object.entries(card.capabilities)
    .filter(([, on]) => on === true)
    .map(([name]) => name)
  const versions = [...new Set(connection.interfaces.map((i) => i.protocolVersion))]
  const lines = [
    `${card.name} ${card.version} (A2A ${versions.length === 0 ? card.protocolVersion : versions.join(", ")})`,
    card.description,
    `Endpoint: ${connection.endpoint} (${connection.transport}, A2A ${connection.version})`,
    `Capabilities: ${capabilities.length === 0 ? "none" : capabilities.join(", ")}`,
    `Input: ${card.defaultInputModes.join(", ")}  Output: ${card.defaultOutputModes.join(", ")}`,
    ...securityLines(card),
    "Interfaces:",
    ...interfaceLines(connection.interfaces, connection),
    "Extensions:",
    ...extensionLines(card),
    "Skills:",
    ...(card.skills.length === 0
      ? ["  (none)"]
      : card.skills.flatMap((s) => [`  - ${s.id}: ${s.name} - ${s.description}`, ...skillSecurityLines(card, s.security)]))
  ]
  return lines.join("\n")
}

/** A task: id and state, the status message, the artifacts. */
export const formatTask = (task: Task): string => {
  const lines = [`Task ${task.id} (context ${task.contextId}): ${task.status.state}`]
  if (task.status.message !== undefined) lines.push(`  ${formatMessage(task.status.message)}`)
  for (const artifact of task.artifacts ?? []) {
    lines.push(`  artifact ${artifact.name ?? artifact.artifactId}: ${partsText(artifact.parts)}`)
  }
  if (task.history !== undefined && task.history.length > 0) {
    lines.push("  history:")
    for (const m of task.history) lines.push(`    ${formatMessage(m)}`)
  }
  return lines.join("\n")
}

/** The first line of a task's status message, for one-line listings. */
const statusLine = (task: Task): string => {
  const message = task.status.message
  if (message === undefined) return ""
  const text = partsText(message.parts).split("\n")[0] ?? ""
  return text === "" ? "" : `  ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`
}

/** One page of `list`: a line per task, then how to ask for the next page. */
export const formatTaskList = (page: ListTasksResult): string => {
  const lines = [`${page.tasks.length} of ${page.totalSize} task${page.totalSize === 1 ? "" : "s"}, newest first`]
  for (const task of page.tasks) {
    lines.push(`  ${task.id}  ${task.status.state}  ${task.status.timestamp ?? "-"}  context ${task.contextId}${statusLine(task)}`)
    for (const artifact of task.artifacts ?? []) lines.push(`    artifact ${artifact.name ?? artifact.artifactId}: ${partsText(artifact.parts)}`)
    for (const m of task.history ?? []) lines.push(`    ${formatMessage(m)}`)
  }
  if (page.nextPageToken !== "") lines.push(`Next page: --page-token ${page.nextPageToken}`)
  return lines.join("\n")
}

/** The result of `message/send`. */
export const formatSendResult = (result: Task | Message): string =>
  result.kind === "task" ? formatTask(result) : formatMessage(result)

/** One stream event as one line (or a few, for a Task). */
export const formatEvent = (event: StreamResult): string => {
  switch (event.kind) {
    case "task":
      return `[task] ${formatTask(event)}`
    case "message":
      return `[message] ${formatMessage(event)}`
    case "status-update": {
      const text = event.status.message === undefined ? "" : ` - ${formatMessage(event.status.message)}`
      return `[status] ${event.status.state}${event.final ? " (final)" : ""}${text}`
    }
    case "artifact-update": {
      const flags = [event.append === true ? "append" : "", event.lastChunk === true ? "last" : ""].filter((f) => f !== "")
      const suffix = flags.length === 0 ? "" : ` (${flags.join(", ")})`
      return `[artifact] ${event.artifact.name ?? event.artifact.artifactId}${suffix}: ${partsText(event.artifact.parts)}`
    }
  }
}
