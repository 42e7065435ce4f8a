import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { Message, Part } from "../../schemas/index.ts"
import { agentMessageOf, artifactChunkOf } from "./agent-output.ts"
import type { MessageInput, PartsInput } from "./messages.ts"
import type { ArtifactOptions } from "./task-context.ts"

const ids = { taskId: "t", contextId: "c" }
const problem = <A>(e: Result.Result<A, string>): string => {
  if (Result.isSuccess(e)) throw new Error(`accepted: ${JSON.stringify(e.success)}`)
  return e.failure
}

const cyclic: Record<string, unknown> = { a: 1 }
cyclic["self"] = cyclic

/** Agent output that is not A2A 0.3.0, and the words the refusal must contain. */
const invalidMessages: Record<string, readonly [unknown, string]> = {
  "a text part whose text is a number": [{ kind: "text", text: 42 }, "parts[0]"],
  "a part of an unknown kind": [{ kind: "video", url: "x" }, "parts[0]"],
  "a part without kind": [{ text: "hi" }, "parts[0]"],
  "a file with both bytes and uri": [{ kind: "file", file: { bytes: "AAAA", uri: "https://x/y" } }, "parts[0]"],
  "no parts at all": [[], "parts"],
  "a Message with a role that is neither": [{ kind: "message", messageId: "m", role: "bot", parts: [{ kind: "text", text: "x" }] }, "role"],
  "a function in metadata": [{ kind: "text", text: "x", metadata: { f: () => 1 } }, "metadata.f"],
  "a bigint in data": [{ kind: "data", data: { n: 1n } }, "data.n"],
  "NaN in data": [{ kind: "data", data: { n: Number.NaN } }, "data.n"],
  "a Date in metadata": [{ kind: "text", text: "x", metadata: { at: new Date(0) } }, "Date"],
  "a cycle": [{ kind: "data", data: cyclic }, "cycle"],
  "undefined inside an array": [{ kind: "data", data: { xs: [1, undefined] } }, "xs[1]"],
  "null": [null, "got object"],
  "a number": [7, "got number"]
}

describe("agent messages are checked against the wire schema", () => {
  it.each(Object.entries(invalidMessages))("refuses %s, saying where", (_name, [input, where]) => {
    const why = problem(agentMessageOf(input as MessageInput, ids))
    expect(why).toMatch(/^message is not valid A2A: /)
    expect(why).toContain(where)
  })

  it("accepts text, parts and Messages, filling in the task's ids", () => {
    const fromText = Result.getOrThrow(agentMessageOf("hello", ids))
    expect(fromText).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "hello" }], taskId: "t", contextId: "c" })
    const parts: ReadonlyArray<Part> = [{ kind: "text", text: "a" }, { kind: "data", data: { n: 1, nested: { ok: [true, null] } } }]
    expect(Result.getOrThrow(agentMessageOf(parts, ids)).parts).toEqual(parts)
    const given: Message = { kind: "message", messageId: "m1", role: "agent", parts: [{ kind: "text", text: "x" }], metadata: { k: "v" } }
    expect(Result.getOrThrow(agentMessageOf(given, ids))).toEqual({ ...given, taskId: "t", contextId: "c" })
  })

  it("keeps a copy: changing the agent's object later does not change what entered the task", () => {
    const data: Record<string, unknown> = { n: 1 }
    const entered = Result.getOrThrow(agentMessageOf({ kind: "data", data }, ids))
    data["n"] = () => "changed"
    expect(entered.parts[0]).toEqual({ kind: "data", data: { n: 1 } })
  })

  it("drops fields the wire schema does not know and properties that are undefined", () => {
    const input = { kind: "text", text: "x", extra: "dropped", metadata: { kept: 1, gone: undefined } } as unknown as Part
    expect(Result.getOrThrow(agentMessageOf(input, ids)).parts).toEqual([{ kind: "text", text: "x", metadata: { kept: 1 } }])
  })
})

describe("agent artifacts are checked against the wire schema", () => {
  const invalid: Record<string, readonly [unknown, unknown, string]> = {
    "a part whose text is not a string": [[{ kind: "text", text: {} }], {}, "artifact.parts[0]"],
    "an artifactId that is a number": ["x", { artifactId: 5 }, "artifact.artifactId"],
    "a name that is not a string": ["x", { name: ["n"] }, "artifact.name"],
    "append that is not a boolean": ["x", { append: "yes" }, "append"],
    "lastChunk that is not a boolean": ["x", { lastChunk: 1 }, "lastChunk"],
    "metadata that is not JSON": ["x", { metadata: { at: new Date(0) } }, "metadata.at"],
    "metadata that is not an object": ["x", { metadata: [1] }, "metadata"],
    "parts that are null": [null, {}, "got null"],
    "options that are null": ["x", null, "options"]
  }
  it.each(Object.entries(invalid))("refuses %s, saying where", (_name, [parts, options, where]) => {
    const why = problem(artifactChunkOf(parts as PartsInput, options as ArtifactOptions))
    expect(why).toContain(where)
  })

  it("builds a text chunk directly, with the given id and flags", () => {
    expect(Result.getOrThrow(artifactChunkOf("chunk", { artifactId: "a", append: true, lastChunk: false }))).toEqual({
      type: "artifact",
      artifact: { artifactId: "a", parts: [{ kind: "text", text: "chunk" }] },
      append: true,
      lastChunk: false
    })
    const fresh = Result.getOrThrow(artifactChunkOf("x", {}))
    expect(fresh.artifact.artifactId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("accepts parts, a name, a description and JSON metadata", () => {
    const chunk = Result.getOrThrow(artifactChunkOf({ kind: "file", file: { uri: "https://x/y", mimeType: "text/plain" } }, {
      artifactId: "a", name: "n", description: "d", metadata: { tags: ["x"] }, lastChunk: true
    }))
    expect(chunk).toEqual({
      type: "artifact",
      artifact: { artifactId: "a", name: "n", description: "d", parts: [{ kind: "file", file: { uri: "https://x/y", mimeType: "text/plain" } }], metadata: { tags: ["x"] } },
      lastChunk: true
    })
  })
})
