/**
 * Where the URLs in a published card point. A card that names an address taken from the request
 * (its `Host` header) would point wherever the sender chose; signed, it would be a valid
 * signature over an attacker's URL. So the rule, per request:
 *
 * 1. `publicUrl`, when configured (required for signed cards);
 * 2. with `trustProxyHeaders`, the origin the request names: `X-Forwarded-Proto` and
 *    `X-Forwarded-Host` (first value of each), else the `Host` header (or the request URL);
 * 3. the address the server listens on ({@link ListeningOrigin}, provided by the adapters; or
 *    the address of the Effect `HttpServer` the routes are served by);
 * 4. otherwise no guess: the card is answered with an internal error naming the options.
 *
 * @module
 */
import { HttpServer, type HttpServerRequest } from "effect/http"
import { Effect, Option } from "effect"
import { NetAddress } from "effect/net"
import { Internal } from "../../schemas/error-catalogue.ts"
import { ListeningOrigin } from "./listening-origin.ts"
import type { ResolvedServerOptions } from "./options.ts"

const unknownOrigin = new Internal({
  message: "The agent card's URL is unknown: configure the server's publicUrl, serve it with serveNode, serveBun " +
    "or serveDeno, or enable trustProxyHeaders behind a proxy that sets X-Forwarded-Host"
})

/** `scheme://host` as an origin, or `undefined` when `host` is not a bare host with an optional port. */
const originOf = (scheme: string, host: string): string | undefined => {
  if (scheme !== "http" && scheme !== "https") return undefined
  if (host === "" || /[\s/\\?#@]/.test(host)) return undefined
  try {
    const url = new URL(`${scheme}://${host}`)
    return url.pathname === "/" && url.search === "" && url.hash === "" ? url.origin : undefined
  } catch {
    return undefined
  }
}

const firstValue = (header: string | undefined): string | undefined => {
  const value = header?.split(",")[0]?.trim()
  return value === undefined || value === "" ? undefined : value
}

/**
 * The origin a request names, when well-formed: `X-Forwarded-Host`, else `Host`, else the host of
 * the request URL as the runtime reports it (itself made from `Host`); with `X-Forwarded-Proto`,
 * else the scheme the request arrived with.
 */
export const requestOrigin = (request: HttpServerRequest.HttpServerRequest, defaultScheme: string): string | undefined => {
  const absolute = /^https?:\/\//i.test(request.originalUrl) ? new URL(request.originalUrl) : undefined
  const host = firstValue(request.headers["x-forwarded-host"]) ?? request.headers["host"] ?? absolute?.host
  const scheme = firstValue(request.headers["x-forwarded-proto"])?.toLowerCase() ??
    absolute?.protocol.slice(0, -1) ?? defaultScheme
  return host === undefined ? undefined : originOf(scheme, host)
}

const platformServerOrigin = Effect.map(Effect.serviceOption(HttpServer.HttpServer), (server) => {
  if (Option.isNone(server) || server.value.address._tag === "UnixPathAddress") return undefined
  const { address, port } = server.value.address
  const hostname = NetAddress.formatIp(address)
  return `http://${address._tag === "Ipv6Address" ? `[${hostname}]` : hostname}:${port}`
})

/** The listening origin, from the adapter or else from the platform server serving the routes. */
const listeningOrigin: Effect.Effect<string | undefined> = Effect.flatMap(
  Effect.serviceOption(ListeningOrigin),
  (origin) => (Option.isSome(origin) ? Effect.succeed(origin.value) : platformServerOrigin)
)

const schemeOf = (url: string | undefined): string | undefined => url?.startsWith("https:") ? "https" : url === undefined ? undefined : "http"

/** The base URL (scheme, host, port, optional prefix) the card of `request` names; see the module rule. */
export const cardBaseUrl = (
  request: HttpServerRequest.HttpServerRequest,
  options: ResolvedServerOptions
): Effect.Effect<string, Internal> =>
  options.publicUrl !== undefined
    ? Effect.succeed(options.publicUrl)
    : Effect.flatMap(listeningOrigin, (listening) => {
      if (options.trustProxyHeaders) {
        const forwarded = requestOrigin(request, schemeOf(listening) ?? "http")
        if (forwarded !== undefined) return Effect.succeed(forwarded)
      }
      return listening !== undefined ? Effect.succeed(listening) : Effect.fail(unknownOrigin)
    })
