/**
 * Options of an A2A server, with their defaults in one place.
 */
import { isRouteTarget } from "./request-target.ts"

/** How the server is configured. Every field is optional. */
export interface A2AServerOptions {
  /** Path of the JSON-RPC endpoint. Default `/`. */
  readonly rpcPath?: string
  /**
   * Public base URL of the server (scheme, host, port, optional path prefix). The card's `url` and
   * interfaces are built from it; required with `cardSigning`. Default: the address the server
   * listens on (see `trustProxyHeaders` for the one exception).
   */
  readonly publicUrl?: string
  /**
   * Without `publicUrl`, build the card's URLs from the request: `X-Forwarded-Proto` and
   * `X-Forwarded-Host` (first value of each), else `Host`. Any client can set these headers, so
   * turn this on only behind a proxy that overwrites them. Default `false`: the card names the
   * listening address. Signed cards always use `publicUrl`.
   */
  readonly trustProxyHeaders?: boolean
  /** Largest request body accepted, in bytes, checked before parsing. Default 10 MiB. */
  readonly maxBodyBytes?: number
  /**
   * Most bytes of request bodies received at once, across all requests: a body that would pass it is
   * refused with 503 (and `Retry-After`) before it is read. Default 64 MiB, and never less than
   * `maxBodyBytes`.
   */
  readonly maxBodyBytesInFlight?: number
  /** Idle time after which an open stream gets a `: ping` comment. Default 15,000 ms; 0 turns it off. */
  readonly heartbeatMs?: number
  /** How long `dispose` lets running tasks finish before canceling them. Default 5,000 ms. */
  readonly shutdownGraceMs?: number
  /**
   * Which card a card request without `A2A-Version` gets (a request that names a version gets that
   * version's card). Default `"0.3"`: the spec reads a header-less request as 0.3, every 0.3 client sends
   * none, and every 1.x SDK sends `A2A-Version`; the 0.3 card also lists the 1.0 interfaces. `"1.0"` for
   * readers that send no header yet refuse 0.3's fields, such as the official 1.0 conformance kit.
   */
  readonly cardVersion?: "0.3" | "1.0"
  /**
   * The tenant this server is addressed as (A2A 1.0's `tenant`: an opaque routing name, e.g. set by a gateway
   * that serves several agents under one host). The 1.0 interfaces of the card name it; 1.0 requests may name
   * it (in params, or as the `/{tenant}` REST prefix) or name none. Any other tenant is refused: there are no
   * namespaces of tasks inside one server. Default: none, and every request naming a tenant is refused.
   */
  readonly tenant?: string
}

/** Options with every default applied. */
export interface ResolvedServerOptions {
  readonly rpcPath: `/${string}`
  readonly publicUrl: string | undefined
  readonly trustProxyHeaders: boolean
  readonly maxBodyBytes: number
  readonly maxBodyBytesInFlight: number
  readonly heartbeatMs: number
  readonly shutdownGraceMs: number
  readonly cardVersion: "0.3" | "1.0"
  readonly tenant: string | undefined
}

/** Default request-body limit: 10 MiB. */
export const defaultMaxBodyBytes = 10 * 1024 * 1024

/** Default bound on request-body bytes in flight: 64 MiB. */
export const defaultMaxBodyBytesInFlight = 64 * 1024 * 1024

/** Applies the defaults. */
export const resolveServerOptions = (options: A2AServerOptions = {}): ResolvedServerOptions => {
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
  return {
    rpcPath: normalisePath(options.rpcPath ?? "/"),
    publicUrl: options.publicUrl?.replace(/\/+$/, ""),
    trustProxyHeaders: options.trustProxyHeaders ?? false,
    maxBodyBytes,
    maxBodyBytesInFlight: Math.max(options.maxBodyBytesInFlight ?? defaultMaxBodyBytesInFlight, maxBodyBytes),
    heartbeatMs: options.heartbeatMs ?? 15_000,
    shutdownGraceMs: options.shutdownGraceMs ?? 5_000,
    cardVersion: options.cardVersion ?? "0.3",
    tenant: options.tenant === "" ? undefined : options.tenant
  }
}

/** The JSON-RPC path, which must be one a request can reach (see request-target.ts): `/a2a`, not `/a2a/` or `/a//b`. */
const normalisePath = (path: string): `/${string}` => {
  const absolute = (path.startsWith("/") ? path : `/${path}`) as `/${string}`
  if (!isRouteTarget(absolute) || absolute.includes("?")) {
    throw new Error(`\`rpcPath\` must be a path without empty or dot segments, query or fragment (e.g. "/a2a"), got ${JSON.stringify(path)}`)
  }
  return absolute
}
