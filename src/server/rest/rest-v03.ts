/**
 * A2A 0.3 on the REST binding: the `/v1/…` routes, params in any spelling 0.3 peers use, the protobuf JSON
 * mapping of the 0.3 `.proto` on output, `{ code, message, data? }` errors, `X-A2A-Extensions`.
 *
 * @module
 */
import { HttpServerResponse } from "effect/http"
import { type ProtocolError, toWireError } from "../../../schemas/error-catalogue.ts"
import { EXTENSIONS_HEADER, extensionRequired03 } from "../extensions.ts"
import type { MethodHandlers } from "../method-handlers.ts"
import { matchV1RestRoute } from "../v1/rest-paths-v1.ts"
import type { RestDialect } from "./rest-dialect.ts"
import { bodyRule, methodOf, prepareCall } from "./rest-operations.ts"
import { matchRestRoute, type RestOperation } from "./rest-paths.ts"
import { restSseBody } from "./rest-sse.ts"

const errorResponse = (error: ProtocolError, status: number = error.httpStatus, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(JSON.stringify(toWireError(error)), { status, contentType: "application/json", headers })

/** The 0.3 dialect of the REST binding. */
export const rest03 = (handlers: MethodHandlers): RestDialect<RestOperation> => ({
  version: "0.3",
  match: (method, pathname) => {
    const match = matchRestRoute(method, pathname)
    if (match._tag !== "NotFound" || matchV1RestRoute(method, pathname)._tag !== "Matched") return match
    return {
      _tag: "NotFound",
      message: `${match.message}: ${method.slice(0, 10)} ${pathname.slice(0, 200)} is an A2A 1.0 operation, and this request ` +
        "has no A2A-Version header, so it is read as A2A 0.3 (whose routes start with /v1/); send A2A-Version: 1.0"
    }
  },
  bodyRule: (operation) => bodyRule(operation.op),
  methodOf: (operation) => methodOf[operation.op],
  prepare: (operation, body, search) => prepareCall(handlers, operation, body, search),
  errorResponse,
  contentType: () => "application/json",
  sse: restSseBody,
  extensionsHeader: EXTENSIONS_HEADER,
  extensionRequired: extensionRequired03
})
