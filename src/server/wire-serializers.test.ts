/**
 * Property: the fast serializers (the SSE event writer and the JSON-RPC envelope) write, for every value
 * of the wire schemas, exactly the JSON of that value's Schema encoding. Agent output is checked against
 * the same schemas where it enters (agent-output.ts), so what the serializers meet is always such a value.
 */
import { Arbitrary, Effect, Schema } from "effect"
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

const runs = 100

/** Checks `property` on `runs` generated values; a failure names the (shrunk) counterexample. */
const check = async <A>(values: Arbitrary.Arbitrary<A>, property: (value: A) => boolean) => {
  const result = await Effect.runPromise(Arbitrary.checkEffect(values, property, { runs }))
  expect(Arbitrary.formatCheckFailure(result)).toBeUndefined()
}

/**
 * Generated values as the serializers meet them: decoded by the wire schema (agent-output.ts decodes what an
 * agent hands over), hence with their keys in the schema's order. Generated objects may list keys in
 * another order, which JSON does not mind but a string comparison would.
 */
const decoded = <S extends Schema.Codec<any, any>>(schema: S) => {
  const encode = Schema.encodeSync(schema)
  const decode = Schema.decodeUnknownSync(schema)
  return Arbitrary.map((value: S["Type"]): S["Type"] => decode(encode(value)))
}

/** Either of two generators, picked per value. */
const oneOf = <A>(first: Arbitrary.Arbitrary<A>, second: Arbitrary.Arbitrary<A>) =>
  Arbitrary.schema(Schema.Boolean).pipe(Arbitrary.flatMap((pick) => (pick ? first : second)))

/**
 * Artifact updates of the shape the event writer assembles by hand (text parts only), sharing a task so
 * that its cached head is reused; still values of the wire schema.
 */
const TextChunk = Schema.Struct({
  ...TaskArtifactUpdateEvent.fields,
  artifact: Schema.Struct({ artifactId: Artifact.fields.artifactId, parts: Schema.Array(TextPart) })
})
const textChunk = Arbitrary.schema(TextChunk).pipe(decoded(TextChunk))
const textChunks = Arbitrary.all([
  Arbitrary.schema(Schema.String),
  Arbitrary.schema(Schema.String),
  Arbitrary.array(textChunk, { maxLength: 6 })
]).pipe(Arbitrary.map(([taskId, contextId, chunks]) => chunks.map((c) => ({ ...c, taskId, contextId }))))

/** Any stream events, the common chunk shape mixed in, as one stream writes them. */
const streams = Arbitrary.array(
  oneOf<StreamResult>(Arbitrary.schema(StreamResult).pipe(decoded(StreamResult)), textChunk),
  { maxLength: 6 }
)

const encodeEvent = Schema.encodeSync(StreamResult)
const encodeFrame = Schema.encodeSync(SendStreamingMessageSuccessResponse)
const encodeSend = Schema.encodeSync(SendMessageSuccessResponse)

describe("fast serializers write the Schema encoding", () => {
  it("makeEventJson, for generated stream events", () =>
    check(oneOf(streams, textChunks), (events) => {
      const json = makeEventJson()
      return events.every((event) => json(event) === JSON.stringify(encodeEvent(event)))
    }))

  it("an SSE frame's JSON-RPC envelope, for generated ids and events", () =>
    check(Arbitrary.all([Arbitrary.schema(RequestId), streams]), ([id, events]) => {
      const json = makeEventJson()
      const prefix = resultPrefix(id)
      return events.every((result) => `${prefix}${json(result)}}` === JSON.stringify(encodeFrame({ jsonrpc: "2.0", id, result })))
    }))

  it("successResponse, for generated send results", () =>
    check(Arbitrary.all([Arbitrary.schema(RequestId), Arbitrary.schema(SendMessageResult).pipe(decoded(SendMessageResult))]), ([id, result]) =>
      successResponse(id, result) === JSON.stringify(encodeSend({ jsonrpc: "2.0", id, result }))))
})
