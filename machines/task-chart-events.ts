/**
 * The lifecycle chart's finite event space: every event it can be sent, each under a small integer key.
 * The compiled chart keeps one answer per state and key, and the host computes an event's key from its
 * facts without building the event, so a step allocates nothing to look its answer up.
 *
 * @module
 */

import type { Message } from "../schemas/index.ts"
import type { TaskChartEvent } from "./task-types.ts"

/** Event types that carry no facts. */
const plainTypes = ["status", "requestInput", "requestAuth", "complete", "fail", "reject", "cancel"] as const
const roles = ["user", "agent"] as const satisfies ReadonlyArray<Message["role"]>

const artifactBase = plainTypes.length
const resumeBase = artifactBase + 4
const agentMessageBase = resumeBase + 2 * roles.length

/** The key of every event type the chart does not name (it refuses them all alike, as `unsupported`). */
export const unsupportedKey = agentMessageBase + 2 * roles.length

/** How many keys there are: keys run from 0 to `keyCount - 1`. */
export const keyCount = unsupportedKey + 1

/** The key of an event type without facts; any type the chart does not name has {@link unsupportedKey}. */
export const plainKey = (type: string): number => {
  switch (type) {
    case "status": return 0
    case "requestInput": return 1
    case "requestAuth": return 2
    case "complete": return 3
    case "fail": return 4
    case "reject": return 5
    case "cancel": return 6
    default: return unsupportedKey
  }
}

/** The key of an artifact chunk. */
export const artifactKey = (closed: boolean, last: boolean): number => artifactBase + (closed ? 2 : 0) + (last ? 1 : 0)

/** The key of a `resume` or `agentMessage`; a role outside the schema's is a fault of the caller. */
export const messageKey = (type: "resume" | "agentMessage", role: Message["role"], foreign: boolean): number => {
  const r = role === "user" ? 0 : role === "agent" ? 1 : -1
  if (r === -1) throw new TypeError(`a message's role is 'user' or 'agent', not '${String(role)}'`)
  return (type === "resume" ? resumeBase : agentMessageBase) + 2 * r + (foreign ? 1 : 0)
}

/** The key of a chart event. */
export const keyOf = (event: TaskChartEvent): number => {
  switch (event.type) {
    case "artifact": return artifactKey(event.closed, event.last)
    case "resume":
    case "agentMessage": return messageKey(event.type, event.role, event.foreign)
    default: return plainKey(event.type)
  }
}

/** Stands for every event type the chart does not name. */
export const unsupportedEvent = { type: "(not a task event)" } as const

/** Every event of the space, at its key; the last one stands for all types the chart does not name. */
export const taskChartEvents: ReadonlyArray<TaskChartEvent | typeof unsupportedEvent> = (() => {
  const space: Array<TaskChartEvent | typeof unsupportedEvent> = []
  const put = (key: number, event: TaskChartEvent | typeof unsupportedEvent) => {
    if (space[key] !== undefined) throw new Error(`two chart events share key ${key}`)
    space[key] = event
  }
  for (const type of plainTypes) put(plainKey(type), { type })
  for (const closed of [false, true]) for (const last of [false, true]) put(artifactKey(closed, last), { type: "artifact", closed, last })
  for (const type of ["resume", "agentMessage"] as const) {
    for (const role of roles) for (const foreign of [false, true]) put(messageKey(type, role, foreign), { type, role, foreign })
  }
  put(unsupportedKey, unsupportedEvent)
  for (let key = 0; key < keyCount; key++) if (space[key] === undefined) throw new Error(`no chart event has key ${key}`)
  return space
})()
