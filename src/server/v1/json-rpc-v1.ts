/**
 * A2A 1.0 on the JSON-RPC binding: PascalCase methods (`schemas/v1/methods.ts`), ProtoJSON params and results,
 * errors with `data: [ErrorInfo, …]`, stream events as `StreamResponse` (`{"statusUpdate":…}`, no `kind`, no
 * `final`), `A2A-Extensions`, and refusals of streaming methods as plain JSON-RPC responses.
 *
 * @module
 */
import type { ProtocolError } from "../../../schemas/error-catalogue.ts"
import { decodeV1Request } from "../../../schemas/v1/decode.ts"
import { toV1JsonRpcError } from "../../../schemas/v1/errors.ts"
import type { V1MethodName } from "../../../schemas/v1/methods.ts"
import { makeStreamResponseJson } from "../../../schemas/v1/v1-json.ts"
import { extensionRequiredV1, V1_EXTENSIONS_HEADER } from "../extensions.ts"
import type { CoreHandler, JsonRpcDialect } from "../json-rpc-dialect.ts"
import { resultPrefix, type RequestId } from "../json-rpc-envelope.ts"
import { makeArtifactFrameWriterV1 } from "../sse-event-bytes.ts"
import type { SseFormat } from "../sse-writer.ts"
import { isV1Streaming, type V1Answer, type V1Handlers } from "./method-handlers-v1.ts"

/** A whole 1.0 JSON-RPC error response. */
export const v1ErrorResponse = (id: RequestId, error: ProtocolError): string =>
  JSON.stringify({ jsonrpc: "2.0", id, error: toV1JsonRpcError(error) })

/** 1.0 stream frames: `StreamResponse` results (artifact updates of text parts straight into bytes), 1.0 errors. */
export const sseV1: SseFormat = { eventJson: makeStreamResponseJson, errorResponse: v1ErrorResponse, frameWriter: makeArtifactFrameWriterV1 }

const taskIdOf = (params: unknown, result: unknown): string | undefined => {
  const p = params as { id?: unknown; taskId?: unknown; message?: { taskId?: unknown } } | undefined
  const candidate = p?.taskId ?? p?.message?.taskId ?? p?.id ?? (result as Partial<V1Answer> | undefined)?.taskId
  return typeof candidate === "string" ? candidate : undefined
}

/** The 1.0 dialect of the JSON-RPC endpoint. */
export const jsonRpcV1 = (handlers: V1Handlers): JsonRpcDialect => ({
  ...sseV1,
  version: "1.0",
  decode: decodeV1Request,
  isStreaming: isV1Streaming,
  handler: (method) => handlers[method as V1MethodName] as unknown as CoreHandler,
  successResponse: (id, result) => `${resultPrefix(id)}${(result as V1Answer).json}}`,
  refusalsInSse: false,
  extensionsHeader: V1_EXTENSIONS_HEADER,
  extensionRequired: extensionRequiredV1,
  taskIdOf
})
