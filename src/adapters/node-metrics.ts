/**
 * The server's metrics in Prometheus' text format on a port of their own, with `node:http`: for a scraper
 * that reaches an internal port only. It listens on loopback unless told otherwise, and asks for no
 * credentials (put it where only the scraper reaches it; `telemetry.prometheus` serves the metrics behind
 * the server's authentication instead).
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { A2AServerHandle } from "../server/a2a-server.ts"

/** Options of {@link serveMetrics}. */
export interface ServeMetricsOptions {
  /** Default 0: a free port (see `port` of the result). */
  readonly port?: number
  /** Default `127.0.0.1`. */
  readonly host?: string
  /** Default `/metrics`; any other path is 404. */
  readonly path?: string
}

/** A metrics endpoint that listens. */
export interface MetricsListening {
  /** The endpoint, e.g. `http://127.0.0.1:9464/metrics`. */
  readonly url: string
  readonly port: number
  readonly close: () => Promise<void>
}

/**
 * Serves `server.metrics` at `GET path`. The server must keep metrics: `telemetry: { metrics: true }` (or
 * `otlp`, or `prometheus`).
 *
 * @example
 * ```ts
 * const server = await A2AServer.make(agent, { telemetry: { metrics: true } })
 * const metrics = await serveMetrics(server, { port: 9464 })
 * ```
 */
export const serveMetrics = async (server: Pick<A2AServerHandle, "metrics">, options: ServeMetricsOptions = {}): Promise<MetricsListening> => {
  const render = server.metrics
  if (render === undefined) throw new Error("serveMetrics needs a server that keeps metrics: give it `telemetry: { metrics: true }`")
  const path = options.path ?? "/metrics"
  const http = createServer((req, res) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.url !== path) return void res.writeHead(404).end()
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" })
    res.end(req.method === "HEAD" ? undefined : render())
  })
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject)
    http.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const address = http.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}${path}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections()
        http.close(() => resolve())
      })
  }
}
