/**
 * A stream event as a short line (`task:working`, `artifact:one`, `status:completed:final`), so that a test
 * states a whole stream as a list of strings.
 *
 * @module
 */
import type { StreamResult } from "../../schemas/events.ts"

const texts = (parts: ReadonlyArray<{ readonly kind: string; readonly text?: string }>) => parts.map((p) => (p.kind === "text" ? p.text : "")).join("")

/** One event as its kind and what it says. */
export const summary = (e: StreamResult): string => {
  switch (e.kind) {
    case "task":
      return `task:${e.status.state}`
    case "message":
      return `message:${texts(e.parts)}`
    case "status-update":
      return `status:${e.status.state}${e.final ? ":final" : ""}`
    case "artifact-update":
      return `artifact:${texts(e.artifact.parts)}`
  }
}
