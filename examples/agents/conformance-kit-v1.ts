/**
 * What the official A2A 1.0 conformance kit expects of the agent under test, keyed by the prefix of the
 * message's `messageId` (the kit's ids are `tck-<name>-<hex>`; the longest prefix wins, and any other
 * `tck-` id completes the task). Messages whose id does not start with `tck-` are none of the kit's.
 */
import { Effect } from "effect"
import type { TaskContext } from "../../src/agent/task-context.ts"

const fileBytes = btoa("Generated file content")

type Behaviour = (ctx: TaskContext) => Effect.Effect<void, unknown>

const completeWithArtifact = (parts: Parameters<TaskContext["artifact"]>[0]): Behaviour => (ctx) =>
  Effect.gen(function*() {
    yield* ctx.artifact(parts, { name: "output" })
    yield* ctx.complete("Hello from TCK")
  })

const streamed: Behaviour = (ctx) =>
  Effect.gen(function*() {
    yield* ctx.working()
    yield* ctx.artifact("Generated text content", { name: "output" })
    yield* ctx.complete()
  })

const fileText = { kind: "file", file: { bytes: fileBytes, name: "output.txt", mimeType: "text/plain" } } as const
const fileUrl = { kind: "file", file: { uri: "https://example.com/output.txt", name: "output.txt", mimeType: "text/plain" } } as const

/** The kit's behaviours by `messageId` prefix, longest first. */
const behaviours: ReadonlyArray<readonly [string, Behaviour]> = ([
  ["tck-complete-task", (ctx) => ctx.complete("Hello from TCK")],
  ["tck-artifact-text", completeWithArtifact("Generated text content")],
  ["tck-artifact-file-url", completeWithArtifact([fileUrl])],
  ["tck-artifact-file", completeWithArtifact([fileText])],
  ["tck-artifact-data", completeWithArtifact([{ kind: "data", data: { key: "value", count: 42 } }])],
  ["tck-message-response", (ctx) => ctx.reply("Direct message response")],
  ["tck-input-required", (ctx) =>
    Effect.gen(function*() {
      yield* ctx.requestInput("Input required by TCK")
      yield* ctx.complete("Hello from TCK")
    })],
  ["tck-reject-task", (ctx) => ctx.reject("Rejected by TCK")],
  ["tck-stream-001", streamed],
  ["tck-stream-003", streamed],
  ["tck-stream-ordering-001", streamed],
  ["tck-stream-artifact-text", streamed],
  ["tck-stream-002", (ctx) => ctx.complete()],
  ["tck-stream-artifact-file", (ctx) =>
    Effect.gen(function*() {
      yield* ctx.working()
      yield* ctx.artifact([fileText], { name: "output" })
      yield* ctx.complete()
    })],
  ["tck-stream-artifact-chunked", (ctx) =>
    Effect.gen(function*() {
      yield* ctx.working()
      yield* ctx.artifact("chunk-1 ", { artifactId: "chunked", append: true })
      yield* ctx.artifact("chunk-2", { artifactId: "chunked", append: true, lastChunk: true })
      yield* ctx.complete()
    })]
] as const satisfies ReadonlyArray<readonly [string, Behaviour]>).slice().sort((a, b) => b[0].length - a[0].length)

/** The kit's behaviour for a message, or undefined when the message is not the kit's. */
export const kitBehaviour = (messageId: string): Behaviour | undefined => {
  if (!messageId.startsWith("tck-")) return undefined
  return behaviours.find(([prefix]) => messageId.startsWith(prefix))?.[1] ?? behaviours.find(([p]) => p === "tck-complete-task")![1]
}
