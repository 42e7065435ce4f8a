/**
 * Property: the fast serializers (the SSE event writer and the JSON-RPC envelope) write, for every value
 * of the wire schemas, exactly the JSON of that value's Schema encoding. Agent output is checked against
 * the same schemas where it enters (agent-output.ts), so what the serializers meet is always such a value.
 */
import { Arbitrary, FastCheck, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  Artifact,
  RequestId,
  SendMessageResult,
  SendMessageSuccessResponse,
  SendStreamingMessageSuccessResponse,
  StreamResult,
  TaskArtifactUpdateEvent,
  TextPart
} from "../../schemas/index.ts"
import { resultPrefix, successResponse } from "./json-rpc-envelope.ts"
import { makeEventJson } from "./sse-event-json.ts"

const numRuns = 100

/**
 * Artifact updates of the shape the event writer assembles by hand (text parts only), sharing a task so
 * that its cached head is reused; still values of the wire schema.
 */
const TextChunk = Schema.Struct({
  ...TaskArtifactUpdateEvent.fields,
  artifact: Schema.Struct({ artifactId: Artifact.fields.artifactId, parts: Schema.Array(TextPart) })
})
const textChunks = FastCheck.tuple(FastCheck.string(), FastCheck.string(), FastCheck.array(Arbitrary.make(TextChunk), { maxLength: 6 }))
  .map(([taskId, contextId, chunks]) => chunks.map((c) => ({ ...c, taskId, contextId })))

/** Any stream events, the common chunk shape mixed in, as one stream writes them. */
const streams = FastCheck.array(FastCheck.oneof(Arbitrary.make(StreamResult), Arbitrary.make(TextChunk)), { maxLength: 6 })

const encodeEvent = Schema.encodeSync(StreamResult)
const encodeFrame = Schema.encodeSync(SendStreamingMessageSuccessResponse)
const encodeSend = Schema.encodeSync(SendMessageSuccessResponse)

describe("fast serializers write the Schema encoding", () => {
  it("makeEventJson, for generated stream events", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.oneof(streams, textChunks), (events) => {
        const json = makeEventJson()
        for (const event of events) expect(json(event)).toBe(JSON.stringify(encodeEvent(event)))
      }),
      { numRuns }
    )
  })

  it("an SSE frame's JSON-RPC envelope, for generated ids and events", () => {
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(RequestId), streams, (id, events) => {
        const json = makeEventJson()
        const prefix = resultPrefix(id)
        for (const result of events) {
          expect(`${prefix}${json(result)}}`).toBe(JSON.stringify(encodeFrame({ jsonrpc: "2.0", id, result })))
        }
      }),
      { numRuns }
    )
  })

  it("successResponse, for generated send results", () => {
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(RequestId), Arbitrary.make(SendMessageResult), (id, result) => {
        expect(successResponse(id, result)).toBe(JSON.stringify(encodeSend({ jsonrpc: "2.0", id, result })))
      }),
      { numRuns }
    )
  })
})
