/**
 * Serving an A2A server on Node with `node:http`.
 *
 * Requests go straight to the server's Effect HTTP app through `@effect/platform-node`,
 * without building a Web `Request` and `Response` per call (the fast path).
 */
import { lookup } from "node:dns/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { NodeHttpServer } from "@effect/platform-node"
import { HttpMiddleware, type HttpApp } from "@effect/platform"
import { Effect } from "effect"
import type { Listening, ListenOptions, WebHandlerServer } from "./listening.ts"

export { nodePushTransport, type NodePushTransportOptions } from "./node-push-transport.ts"

/** Resolves webhook host names with the system resolver, for `push.resolveDns`. */
export const nodeDnsResolver = async (host: string): Promise<ReadonlyArray<string>> =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

/** A server that also exposes its Effect HTTP app (every A2A server does). */
export interface NodeServable extends WebHandlerServer {
  readonly app: HttpApp.Default
}

/** Options of {@link serveNode}. */
export interface NodeServeOptions extends ListenOptions {
  /** Serve through the Web handler instead of the fast path (for comparison and tests). */
  readonly web?: boolean
}

/** Starts `server` on Node; resolves once it listens. */
export const serveNode = async (server: NodeServable, options: NodeServeOptions = {}): Promise<Listening> => {
  const http = options.web === true
    ? createServer(webBridge(server.handler))
    // The handler's runtime has no tracer, so the platform's per-request span would be pure cost.
    : createServer(Effect.runSync(NodeHttpServer.makeHandler(server.app).pipe(HttpMiddleware.withTracerDisabledWhenEffect(() => true))))
  // Streams may stay quiet between heartbeats; Node's request timeouts must not cut them.
  http.requestTimeout = 0
  http.headersTimeout = 60_000
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject)
    http.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const address = http.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    close: async (shutdown) => {
      const closed = closeServer(http)
      await server.dispose(shutdown)
      http.closeAllConnections()
      await closed
    }
  }
}

const closeServer = (http: Server) =>
  new Promise<void>((resolve) => http.close(() => resolve()))

/** Adapts a Web handler to `node:http`, streaming the response body. */
const webBridge = (handler: (request: Request) => Promise<Response>) =>
  (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
    const controller = new AbortController()
    res.on("close", () => controller.abort())
    const hasBody = req.method !== "GET" && req.method !== "HEAD"
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: req.method ?? "GET",
      headers: req.headers as Record<string, string>,
      signal: controller.signal,
      ...(hasBody ? { body: req as unknown as ReadableStream<Uint8Array>, duplex: "half" } : {})
    } as RequestInit)
    handler(request).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (response.body === null) return void res.end()
      const reader = response.body.getReader()
      controller.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}))
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        res.write(value)
      }
      res.end()
    }).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  }
