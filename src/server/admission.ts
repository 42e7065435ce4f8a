/**
 * What a request with a body goes through before its route reads that body, once for every binding: the
 * JSON-RPC endpoint, the REST binding, and any route added beside them must call {@link Admission.admit}
 * before they look at the body (the request target is already checked for every route where routes are
 * registered, in `a2a-server.ts`).
 *
 * In order, each refusal a finished answer in the route's error shape (its binding and A2A version):
 *
 * 1. a body's media type: a JSON one (see media-type.ts), else 415;
 * 2. the caller, as far as the headers tell (401, 403, 503: see `PrincipalResolver.beforeBody`), so an
 *    unauthenticated client cannot make the server take in a body at all;
 * 3. the body, under the size limit (413), the server's bound on body bytes in flight (503 with
 *    `Retry-After`) and, where the runtime's server bounds no body (Deno), the adapter's deadline on
 *    receiving it (408, closing the connection: see body-deadline.ts).
 *
 * A refusal comes before the body is taken in: the runtime discards whatever of it still arrives (Node reads
 * and drops it, within its request timeout), so the answer reaches a client that is still sending, and
 * nothing of the body is held.
 *
 * @module
 */
import { HttpServerResponse, type HttpServerRequest } from "effect/http"
import { Effect } from "effect"
import { Internal, InvalidRequest, type ProtocolError } from "../../schemas/error-catalogue.ts"
import type { PrincipalResolver } from "./authentication.ts"
import { type BodyBudget, makeBodyBudget, readBody } from "./body.ts"
import { isJsonMediaType } from "./media-type.ts"
import type { ProtocolVersion } from "./negotiation.ts"
import type { ResolvedServerOptions } from "./options.ts"

/** Who a route's refusals are written for, and how. */
export interface AdmissionTarget {
  readonly binding: "jsonrpc" | "rest"
  readonly version: ProtocolVersion
  /** The route's error answer, in its binding's and version's shape (a JSON-RPC error has id null: no body was read). */
  readonly refuse: (error: ProtocolError, status: number, headers?: Record<string, string>) => HttpServerResponse.HttpServerResponse
}

/** The checks of the shared request path. */
export interface Admission {
  /** The request's body, once the checks above passed; otherwise the answer that refuses it. */
  readonly admit: (
    request: HttpServerRequest.HttpServerRequest,
    target: AdmissionTarget
  ) => Effect.Effect<Uint8Array, HttpServerResponse.HttpServerResponse>
  /** Body bytes being received now, across requests. */
  readonly bodyBytesInFlight: () => number
}

/**
 * Whether the request carries a body: a non-zero declared length, chunked framing, or (a Web `Request` handed
 * over in process, which declares no length) a body stream.
 */
const hasBody = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const length = request.headers["content-length"]
  if (length !== undefined) return length.trim() !== "0"
  if (request.headers["transfer-encoding"] !== undefined) return true
  return typeof Request !== "undefined" && request.source instanceof Request && request.source.body !== null
}

/** Builds the admission of a server. */
export const makeAdmission = (options: ResolvedServerOptions, principal: PrincipalResolver): Admission => {
  const budget: BodyBudget = makeBodyBudget(options.maxBodyBytesInFlight)
  const limitText = `${Math.round(options.maxBodyBytes / 1024)} KiB`

  // Made once, not per request (see json-rpc-route.ts).
  const admit = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest, target: AdmissionTarget) {
      const body = hasBody(request)
      if (body && !isJsonMediaType(request.headers["content-type"])) {
        return yield* Effect.fail(target.refuse(new InvalidRequest({
          message: "The request body must be sent as JSON: Content-Type application/json (or application/a2a+json, or another +json type; charset UTF-8)"
        }), 415))
      }
      if (body) yield* principal.beforeBody(request, { binding: target.binding, version: target.version })
      return yield* readBody(request, options.maxBodyBytes, budget).pipe(
        Effect.mapError((failure) => {
          switch (failure._tag) {
            case "BodyTooLarge":
              return target.refuse(new InvalidRequest({ message: `Request body exceeds the ${limitText} limit` }), 413)
            case "BodiesBusy":
              return target.refuse(new Internal({
                message: "The server is receiving as many request bodies as it takes at once; try again shortly"
              }), 503, { "retry-after": "1" })
            case "BodyUnreadable":
              return target.refuse(new InvalidRequest({ message: "The request body could not be read" }), 400)
            case "BodyTooSlow":
              // The client is still sending (or holding the request open): the connection is not worth keeping.
              return target.refuse(new InvalidRequest({ message: `The request body did not arrive within ${failure.ms} ms` }), 408, { connection: "close" })
          }
        })
      )
    })

  return { admit, bodyBytesInFlight: budget.inFlight }
}
