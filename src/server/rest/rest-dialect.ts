/**
 * What differs between the A2A versions on the REST (HTTP+JSON) binding: the routes and how a request's
 * path, query and body become a call, how answers, errors and streams are written, and the extensions
 * header. The binding (`rest-route.ts`) does the rest once for both: body reading, authentication, audit,
 * extension negotiation and dispatch.
 *
 * @module
 */
import type { HttpServerResponse } from "effect/http"
import type { Result, Stream } from "effect"
import type { InvalidParams, ProtocolError } from "../../../schemas/error-catalogue.ts"
import type { SequencedEvent } from "../../runtime/task-runtime.ts"
import type { ProtocolVersion } from "../negotiation.ts"
import type { SseOptions } from "../sse-writer.ts"
import type { PreparedCall } from "./rest-operations.ts"

/** The outcome of matching a request line against one version's routes; `O` is that version's operation. */
export type RestMatch<O> =
  | { readonly _tag: "Matched"; readonly operation: O }
  | { readonly _tag: "NotFound"; readonly message: string }
  | { readonly _tag: "MethodNotAllowed"; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: "BadPath" }

/** One version of the REST binding. */
export interface RestDialect<O> {
  readonly version: ProtocolVersion
  readonly match: (method: string, pathname: string) => RestMatch<O>
  /** Whether an operation reads a body: required, optional, or not at all. */
  readonly bodyRule: (operation: O) => "required" | "optional" | "none"
  /** The method name an operation is authorized, audited and traced as, known from the route alone. */
  readonly methodOf: (operation: O) => string
  /** Decodes the params of an operation (path, query, body) and binds it to its handler. */
  readonly prepare: (operation: O, body: unknown, search: URLSearchParams) => Result.Result<PreparedCall, InvalidParams>
  /** An error answer; `status` overrides the error's mapped HTTP status. */
  readonly errorResponse: (error: ProtocolError, status?: number, headers?: Record<string, string>) => HttpServerResponse.HttpServerResponse
  /** The `Content-Type` of JSON answers, given the request's `Accept`. */
  readonly contentType: (accept: string | undefined) => string
  /** The SSE body of a stream of events. */
  readonly sse: (events: Stream.Stream<SequencedEvent, ProtocolError>, options: SseOptions) => Stream.Stream<Uint8Array>
  /** The header extensions are echoed in. */
  readonly extensionsHeader: string
  /** The refusal of a request that does not activate a required extension. */
  readonly extensionRequired: (missing: ReadonlyArray<string>) => ProtocolError
}
