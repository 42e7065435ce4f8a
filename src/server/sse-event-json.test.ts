import { describe, expect, it, vi } from "vitest"
import { makeEventJson } from "./sse-event-json.ts"

const taskId = "0b6f3f4e-6c53-4b8e-9a43-3f1f3c7c2a11"
const contextId = "7d1c2b1e-3a4f-4e55-8f0e-2c9d1b6a5e22"
const update = (artifact: unknown, rest: Record<string, unknown> = {}) =>
  ({ kind: "artifact-update", taskId, contextId, artifact, ...rest })
const text = (t: string) => ({ kind: "text", text: t })

class Wrapped {
  constructor(readonly artifactId: string, readonly parts: Array<unknown>) {}
  toJSON() {
    return { artifactId: `wrapped-${this.artifactId}`, parts: this.parts }
  }
}

/** Events of the recognised shape, and near misses that must take the general path. */
const cases: Record<string, unknown> = {
  "bare text chunk": update({ artifactId: "a", parts: [text("1")] }),
  "append and lastChunk": update({ artifactId: "a", parts: [text("x"), text("y")] }, { append: true, lastChunk: false }),
  "only lastChunk": update({ artifactId: "a", parts: [] }, { lastChunk: true }),
  "metadata": update({ artifactId: "a", parts: [text("1")] }, { append: false, metadata: { k: [1, "two", null] } }),
  "null metadata": update({ artifactId: "a", parts: [text("1")] }, { metadata: null }),
  "undefined flags": update({ artifactId: "a", parts: [text("1")] }, { append: undefined, lastChunk: undefined }),
  "text needing escapes": update({ artifactId: "a", parts: [text('quote " slash \\ newline \n tab \t')] }),
  "lone surrogate": update({ artifactId: "a", parts: [text("\ud800 alone")] }),
  "non-ASCII text": update({ artifactId: "é-🙂", parts: [text("grüße 🙂")] }),
  "artifact with a name": update({ artifactId: "a", name: "n", parts: [text("1")] }),
  "file part": update({ artifactId: "a", parts: [{ kind: "file", file: { uri: "https://x/y", mimeType: "text/plain" } }] }),
  "data part": update({ artifactId: "a", parts: [{ kind: "data", data: { n: 1 } }] }),
  "text part with metadata": update({ artifactId: "a", parts: [{ kind: "text", text: "t", metadata: { m: 1 } }] }),
  "text part keys reversed": update({ artifactId: "a", parts: [{ text: "t", kind: "text" }] }),
  "artifact keys reversed": update({ parts: [text("1")], artifactId: "a" }),
  "event keys reordered": { kind: "artifact-update", contextId, taskId, artifact: { artifactId: "a", parts: [] } },
  "unknown event key": update({ artifactId: "a", parts: [] }, { extra: 1 }),
  "flag that is not a boolean": update({ artifactId: "a", parts: [] }, { append: "yes" }),
  "function metadata": update({ artifactId: "a", parts: [] }, { metadata: () => 1 }),
  "artifact with toJSON": update(new Wrapped("a", [text("1")])),
  "task id needing escapes": { kind: "artifact-update", taskId: 'a"b', contextId, artifact: { artifactId: "a", parts: [] } },
  "numeric task id": { kind: "artifact-update", taskId: 1, contextId, artifact: { artifactId: "a", parts: [] } },
  "missing artifact": { kind: "artifact-update", taskId, contextId },
  "status update": { kind: "status-update", taskId, contextId, status: { state: "working" }, final: false },
  "task": { kind: "task", id: taskId, contextId, status: { state: "submitted" } },
  "not an object": "artifact-update"
}

describe("makeEventJson", () => {
  it.each(Object.entries(cases))("writes exactly what JSON.stringify writes: %s", (_name, event) => {
    expect(makeEventJson()(event)).toBe(JSON.stringify(event))
  })

  it("writes the common text chunk without calling JSON.stringify", () => {
    const json = makeEventJson()
    const event = cases["append and lastChunk"]
    const expected = JSON.stringify(event)
    const spy = vi.spyOn(JSON, "stringify")
    try {
      expect(json(event)).toBe(expected)
      expect(spy).not.toHaveBeenCalled()
    } finally {
      spy.mockRestore()
    }
  })

  it("keeps writing the right ids when a stream's events change task", () => {
    const json = makeEventJson()
    const other = { kind: "artifact-update", taskId: "t2", contextId: "c2", artifact: { artifactId: "a", parts: [text("2")] } }
    for (const event of [cases["bare text chunk"], other, cases["metadata"], other]) {
      expect(json(event)).toBe(JSON.stringify(event))
    }
  })
})
