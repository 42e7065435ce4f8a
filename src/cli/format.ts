/**
 * Human-readable rendering of A2A objects for the `a2a` command. What it is given has been through
 * `forTerminal` (terminal-text.ts), so the agent's text is already escaped.
 *
 * @module
 */
import type { AgentCard } from "../../schemas/agent-card.ts"
import type { StreamResult } from "../../schemas/events.ts"
import type { Message } from "../../schemas/message.ts"
import type { Part } from "../../schemas/parts.ts"
import type { Task } from "../../schemas/task.ts"
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

/** The card's interfaces: the main one (its `url`, in `preferredTransport`) first, then the additional ones. */
const interfaceLines = (card: AgentCard): ReadonlyArray<string> => {
  const preferred = { transport: card.preferredTransport ?? "JSONRPC", url: card.url }
  const others = (card.additionalInterfaces ?? []).filter((i) => i.transport !== preferred.transport || i.url !== preferred.url)
  return [`  - ${preferred.transport} ${preferred.url} (preferred)`, ...others.map((i) => `  - ${i.transport} ${i.url}`)]
}

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

/** A card as a short description: `endpoint` and `transport` are where and how the client talks to it. */
export const formatCard = (card: AgentCard, endpoint: string, transport: string): string => {
  const capabilities = Object.entries(card.capabilities)
    .filter(([, on]) => on === true)
    .map(([name]) => name)
  const lines = [
    `${card.name} ${card.version} (A2A ${card.protocolVersion})`,
    card.description,
    `Endpoint: ${endpoint} (${transport})`,
    `Capabilities: ${capabilities.length === 0 ? "none" : capabilities.join(", ")}`,
    `Input: ${card.defaultInputModes.join(", ")}  Output: ${card.defaultOutputModes.join(", ")}`,
    ...securityLines(card),
    "Interfaces:",
    ...interfaceLines(card),
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
