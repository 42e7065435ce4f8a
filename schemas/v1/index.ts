/**
 * The A2A 1.0 codec: Effect Schemas of the ProtoJSON mapping of `lf.a2a.v1` (the normative `a2a.proto`), named
 * as in the proto; the lenient input normalisation ProtoJSON parsers apply; the conversions from 1.0 values
 * to the runtime's model (the 0.3 shapes of `schemas/`) and the writers of the model as 1.0 JSON text; the 1.0
 * method table and error mapping. Pure data, no I/O.
 *
 * A server decodes requests with `decodeV1Request` (JSON-RPC) or `decodeV1RestRequest` and `*FromV1`, and
 * writes answers with `*Json`; a client writes its requests from the model with the request writers
 * (`*RequestJson`), reads answers with `decodeV1Response` and `*FromV1`, its card with `cardFromV1` and its
 * errors with `errorFromV1` / `errorFromV1Status`.
 *
 * @module
 */
import "../internal/effect-version.ts"

export * from "./enums.ts"
export * from "./parts.ts"
export * from "./message.ts"
export * from "./task.ts"
export * from "./events.ts"
export * from "./push.ts"
export * from "./requests.ts"
export * from "./security.ts"
export * from "./agent-card.ts"
export * from "./errors.ts"
export * from "./methods.ts"
export * from "./proto-json.ts"
export * from "./from-v1.ts"
export * from "./v1-json.ts"
export * from "./card.ts"
export * from "./decode.ts"
export * from "./request-json.ts"
