import { describe, expect, it } from "vitest"
import type { StreamResult } from "../../schemas/events.ts"
import { streamPrinter } from "./stream-printer.ts"

const chunk = (artifactId: string, text: string, flags: { append?: boolean; lastChunk?: boolean; name?: string } = {}): StreamResult => ({
  kind: "artifact-update",
  taskId: "t",
  contextId: "c",
  artifact: { artifactId, ...(flags.name === undefined ? {} : { name: flags.name }), parts: [{ kind: "text", text }] },
  ...(flags.append === undefined ? {} : { append: flags.append }),
  ...(flags.lastChunk === undefined ? {} : { lastChunk: flags.lastChunk })
})

const status = (state: "working" | "completed", final = false): StreamResult => ({
  kind: "status-update",
  taskId: "t",
  contextId: "c",
  status: { state },
  final
})

const print = (events: ReadonlyArray<StreamResult>) => {
  let out = ""
  const printer = streamPrinter((text) => (out += text))
  for (const e of events) printer.event(e)
  printer.end()
  return out
}

describe("the readable stream output", () => {
  it("continues one line with an artifact's chunks and ends it at the last chunk", () => {
    expect(print([
      chunk("a", "Once ", { name: "story" }),
      chunk("a", "upon ", { append: true }),
      chunk("a", "a time", { append: true, lastChunk: true }),
      status("completed", true)
    ])).toBe("[artifact] story: Once upon a time\n[status] completed (final)\n")
  })

  it("ends the open line when another event comes, and marks a continuation that follows it", () => {
    expect(print([
      chunk("a", "one"),
      status("working"),
      chunk("a", " two", { append: true }),
      chunk("b", "other"),
      chunk("a", " three", { append: true, lastChunk: true })
    ])).toBe("[artifact] a: one\n[status] working\n[artifact] a (continued):  two\n[artifact] b: other\n[artifact] a (continued):  three\n")
  })

  it("starts a new line for a chunk that replaces the artifact (no append) and closes a line left open at the end", () => {
    expect(print([chunk("a", "draft"), chunk("a", "final")])).toBe("[artifact] a: draft\n[artifact] a: final\n")
  })
})
