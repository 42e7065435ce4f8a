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
    shutdownGraceMs: options.shutdownGraceMs ?? 5_000
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
