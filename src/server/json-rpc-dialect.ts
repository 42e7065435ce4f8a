/**
 * What differs between the A2A versions on the JSON-RPC binding: the method table and its decoder, the
 * handlers' answers, the error objects, the stream frames and the extensions header. The endpoint
 * (`json-rpc-route.ts`) does everything else once for both: body limit, parsing, authentication, audit,
 * extension negotiation, dispatch and SSE.
 *
 * @module
 */
import type { Effect } from "effect"
import { decodeRequest, type DecodeRequestOptions, type ExtensionRequest, type RequestFailure } from "../../schemas/decode-request.ts"
import type { ProtocolError } from "../../schemas/error-catalogue.ts"
import { methods, type MethodName } from "../../schemas/methods.ts"
import { EXTENSIONS_HEADER, extensionRequired03 } from "./extensions.ts"
import { successResponse, type RequestId } from "./json-rpc-envelope.ts"
import type { CallContext, MethodHandlers } from "./method-handlers.ts"
import type { ProtocolVersion } from "./negotiation.ts"
import { sse03, type SseFormat } from "./sse-writer.ts"

/** A core call whose params passed its method's schema (any version's table). */
export interface DecodedCoreCall {
  readonly _tag: "Request"
  readonly id: RequestId
  readonly method: string
  readonly params: unknown
  readonly notification: boolean
}

/** A core method's handler: the answer is a value for {@link JsonRpcDialect.successResponse}, or a stream. */
export type CoreHandler = (params: unknown, ctx: CallContext) => Effect.Effect<unknown, ProtocolError>

/** One version of the JSON-RPC binding. */
export interface JsonRpcDialect extends SseFormat {
  readonly version: ProtocolVersion
  readonly decode: (json: unknown, options: DecodeRequestOptions) => DecodedCoreCall | ExtensionRequest | RequestFailure
  /** True for a core method of this version that answers with a stream. */
  readonly isStreaming: (method: string) => boolean
  /** The handler of a core method of this version. */
  readonly handler: (method: string) => CoreHandler
  /** A whole success response for a handler's answer. */
  readonly successResponse: (id: RequestId, result: unknown) => string
  /**
   * Whether a refused request to a streaming method is answered as an SSE stream (0.3: its clients refuse a
   * JSON answer to a stream) or as a plain JSON-RPC response (1.0, as the spec's clients expect).
   */
  readonly refusalsInSse: boolean
  /** The header extensions are echoed in. */
  readonly extensionsHeader: string
  /** The refusal of a request that does not activate a required extension. */
  readonly extensionRequired: (missing: ReadonlyArray<string>) => ProtocolError
  /** The task a call concerns, for the audit trail: named in its params or created by it. */
  readonly taskIdOf: (params: unknown, result: unknown) => string | undefined
}

const taskIdOf03 = (params: unknown, result: unknown): string | undefined => {
  const p = params as { id?: unknown; taskId?: unknown; message?: { taskId?: unknown } } | undefined
  const r = result as { kind?: unknown; id?: unknown } | undefined
  const candidate = p?.id ?? p?.taskId ?? p?.message?.taskId ?? (r?.kind === "task" ? r.id : undefined)
  return typeof candidate === "string" ? candidate : undefined
}

/** A2A 0.3 on JSON-RPC: `schemas/methods.ts`, bare results, `X-A2A-Extensions`. */
export const jsonRpc03 = (handlers: MethodHandlers): JsonRpcDialect => ({
  ...sse03,
  version: "0.3",
  decode: decodeRequest,
  isStreaming: (method) => Object.hasOwn(methods, method) && methods[method as MethodName].streaming,
  handler: (method) => handlers[method as MethodName] as CoreHandler,
  successResponse,
  refusalsInSse: true,
  extensionsHeader: EXTENSIONS_HEADER,
  extensionRequired: extensionRequired03,
  taskIdOf: taskIdOf03
})
