/**
 * Serves a Web-standard handler on `node:http` at 127.0.0.1, port 0, for tests. A response body that
 * errors destroys the connection (a server crash or a cut cable, as the client sees it), and a client that
 * goes away cancels the body.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** A running test server. */
export interface TestServer {
  readonly url: string
  readonly close: () => Promise<void>
}

const toRequest = (req: IncomingMessage, body: string | undefined, signal: AbortSignal): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value)
    else if (Array.isArray(value)) headers.set(name, value.join(", "))
  }
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    signal,
    ...(body === undefined ? {} : { body })
  })
}

const readBody = (req: IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    if (req.method === "GET" || req.method === "HEAD") return resolve(undefined)
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/** Starts `handler`; resolves once it listens. */
export const serveWebHandler = async (handler: (request: Request) => Promise<Response>): Promise<TestServer> => {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const controller = new AbortController()
    res.on("close", () => controller.abort())
    void (async () => {
      const response = await handler(toRequest(req, await readBody(req), controller.signal))
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.flushHeaders()
      if (response.body === null) return void res.end()
      const reader = response.body.getReader()
      controller.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}))
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          // Waits until the chunk reached the socket, so a cut after it happens after it, as on a real wire.
          await new Promise<void>((resolve) => res.write(value, () => resolve()))
        }
        res.end()
      } catch {
        res.destroy()
      }
    })().catch(() => res.destroy())
  })
  server.requestTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
