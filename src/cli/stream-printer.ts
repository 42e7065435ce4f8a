/**
 * The readable output of `a2a stream`: one line per event, except that the chunks of an artifact continue
 * one line as they arrive, so streamed text reads as text. The line stays open until the artifact's last
 * chunk, or until any other event comes.
 *
 * @module
 */
import type { StreamResult } from "../../schemas/events.ts"
import { formatEvent, partsText } from "./format.ts"

/** Prints events as they come; call `end` once the stream is over (or failed) to close an open line. */
export interface StreamPrinter {
  readonly event: (event: StreamResult) => void
  readonly end: () => void
}

/**
 * A printer writing to `write` without buffering: each chunk is written the moment it arrives.
 *
 * @example
 * ```ts
 * const printer = streamPrinter((text) => process.stdout.write(text))
 * // [artifact] story: Once upon a time… (chunks appended on one line)
 * ```
 */
export const streamPrinter = (write: (text: string) => unknown): StreamPrinter => {
  /** The artifact whose line is open. */
  let open: string | undefined
  const end = () => {
    if (open === undefined) return
    write("\n")
    open = undefined
  }
  const event = (e: StreamResult) => {
    if (e.kind !== "artifact-update") {
      end()
      write(`${formatEvent(e)}\n`)
      return
    }
    const { artifact } = e
    const text = partsText(artifact.parts)
    if (e.append === true && open === artifact.artifactId) {
      write(text)
    } else {
      end()
      // A continuation whose start was not on the line just before (another artifact came between) says so.
      write(`[artifact] ${artifact.name ?? artifact.artifactId}${e.append === true ? " (continued)" : ""}: ${text}`)
      open = artifact.artifactId
    }
    if (e.lastChunk === true) end()
  }
  return { event, end }
}
