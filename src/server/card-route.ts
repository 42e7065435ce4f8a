/**
 * `GET /.well-known/agent-card.json` (and the legacy `agent.json`): the card in the version the request
 * asks for with `A2A-Version` (header or query), or, when it names none, in the server's `cardVersion`
 * (default 0.3, as the spec reads a header-less request). Answers vary by that header (`Vary: A2A-Version`),
 * so caches keep one card per version.
 *
 * @module
 */
import { HttpServerResponse, type HttpServerRequest } from "effect/http"
import { Effect } from "effect"
import { toWireError } from "../../schemas/error-catalogue.ts"
import { toV1StatusBody } from "../../schemas/v1/errors.ts"
import { cardBaseUrl } from "./card-base-url.ts"
import type { makeCardPublisher } from "./card-publisher.ts"
import { versionHeader, versionOf } from "./negotiation.ts"
import type { ResolvedServerOptions } from "./options.ts"
import { requestUrl } from "./request-url.ts"

const headers = { "access-control-allow-origin": "*", vary: "A2A-Version" }

/** The version a card request names, if it names one. */
const named = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const header = request.headers[versionHeader]
  if (header !== undefined && header.trim() !== "") return header
  const query = requestUrl(request.url).searchParams
  return query.get("A2A-Version") ?? query.get("a2a-version") ?? undefined
}

/** The handler of the card paths. */
export const cardRoute = (publisher: ReturnType<typeof makeCardPublisher>, options: ResolvedServerOptions) => {
  // No URL to name without guessing (see card-base-url.ts): said once in the log, and to each caller.
  let unknownOriginLogged = false
  return (request: HttpServerRequest.HttpServerRequest): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
    const asked = named(request)
    const negotiated = asked === undefined ? undefined : versionOf(asked)
    if (negotiated?._tag === "Unsupported") {
      return Effect.succeed(HttpServerResponse.jsonUnsafe(toV1StatusBody(negotiated.error), { status: 400, headers }))
    }
    const version = negotiated?.version ?? options.cardVersion
    return cardBaseUrl(request, options).pipe(
      Effect.flatMap((base) => publisher(base, version)),
      Effect.map((published) => HttpServerResponse.jsonUnsafe(published, { headers })),
      Effect.catch((error) =>
        Effect.suspend(() => {
          const log = unknownOriginLogged ? Effect.void : Effect.logError(error.message)
          unknownOriginLogged = true
          return Effect.as(log, HttpServerResponse.jsonUnsafe(toWireError(error), { status: 500, headers }))
        }))
    )
  }
}
