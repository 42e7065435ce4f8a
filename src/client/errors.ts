/**
 * Errors of the A2A client.
 *
 * Three families reach callers:
 * - the protocol errors of the error catalogue (`TaskNotFound`, `InvalidParams`, ...), decoded from the
 *   agent's JSON-RPC error objects with `fromWireError`;
 * - `InvalidAgentResponse` (also from the catalogue) when the peer answered, but not with valid A2A:
 *   non-JSON, a wrong JSON-RPC id, a result of the wrong shape, a JSON reply to a stream request, an event
 *   above the size limit, a stream that went silent for longer than the idle timeout;
 * - `A2AClientTransportError` when no usable answer arrived at all: host unreachable, request timeout,
 *   an HTTP error status without a JSON-RPC (or REST `{ code, message }`) error body, a stream that dropped
 *   and could not be resumed.
 *
 * @module
 */
import { Data } from "effect"
import { InvalidAgentResponse, type ProtocolError } from "../../schemas/error-catalogue.ts"

/** Why a request produced no usable answer. */
export type TransportReason =
  /** DNS failure, connection refused or reset before any response arrived. */
  | "Unreachable"
  /** The per-request timeout elapsed before the answer was complete. */
  | "Timeout"
  /** An HTTP error status whose body is not an A2A error (JSON-RPC response or REST `{ code, message }`). */
  | "HttpStatus"
  /** A stream broke off before its final event and could not be resumed within the retry budget. */
  | "Dropped"
  /** The request could not be built: an interceptor failed or produced an invalid header. */
  | "Request"
  /** The agent card lists no JSON-RPC interface this client can use (or none at all, with `transport: "auto"`). */
  | "NoJsonRpcInterface"
  /** `transport: "HTTP+JSON"` was asked for, and the agent card lists no REST interface. */
  | "NoRestInterface"
  /** `protocolVersion` pins a version, and the agent card lists no interface of it (for the binding asked for). */
  | "NoVersionInterface"

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const A2AClientTransportErrorBase: ReturnType<typeof Data.TaggedError<"A2AClientTransportError">> = Data.TaggedError("A2AClientTransportError")

/**
 * No usable answer came back from the agent.
 *
 * @example
 * ```ts
 * client.getTask({ id }).pipe(
 *   Effect.catchTag("A2AClientTransportError", (e) => Effect.logWarning(`${e.reason}: ${e.message}`))
 * )
 * ```
 */
export class A2AClientTransportError extends A2AClientTransportErrorBase<{
  readonly reason: TransportReason
  readonly message: string
  readonly url: string
  readonly status?: number | undefined
  readonly cause?: unknown
}> {}

/** Why an answer was refused as not being valid A2A; carried in `InvalidAgentResponse.data.reason`. */
export type InvalidAnswerReason =
  | "NotJson"
  | "NotJsonRpc"
  | "WrongId"
  | "WrongShape"
  | "NotSse"
  | "TooLarge"
  | "IdleTimeout"
  | "NoFinalEvent"
  | "NoAgentCard"

/** Structured details of an `InvalidAgentResponse` raised by this client. */
export interface InvalidAnswerDetails {
  readonly reason: InvalidAnswerReason
  readonly url: string
  readonly method?: string | undefined
  readonly detail?: string | undefined
}

/** Builds the `InvalidAgentResponse` for an answer that is not valid A2A. */
export const invalidAnswer = (
  reason: InvalidAnswerReason,
  message: string,
  where: { readonly url: string; readonly method?: string | undefined; readonly detail?: string | undefined }
): InvalidAgentResponse => {
  const data: InvalidAnswerDetails = { reason, ...where }
  const error = new InvalidAgentResponse({ message, data })
  locallyRaised.add(error)
  return error
}

const locallyRaised = new WeakSet<InvalidAgentResponse>()

/** True when this client raised `e` itself (as opposed to an agent relaying a -32006 error object). */
export const isLocalInvalidAnswer = (e: unknown): e is InvalidAgentResponse =>
  e instanceof InvalidAgentResponse && locallyRaised.has(e)

/** Reads the client-side reason back from an `InvalidAgentResponse` (undefined when the agent sent it). */
export const invalidAnswerReason = (e: InvalidAgentResponse): InvalidAnswerReason | undefined =>
  isLocalInvalidAnswer(e) ? (e.data as InvalidAnswerDetails).reason : undefined

/** Every error an `A2AClient` method can fail with. */
export type A2AClientError = ProtocolError | A2AClientTransportError

/** Shortens a peer-controlled text for use inside an error message. */
export const excerpt = (text: string, max = 200): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max)}...` : flat
}
