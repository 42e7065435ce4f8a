/**
 * A real push-notification webhook on 127.0.0.1: records every POST (path, headers, body) and lets a
 * test wait, with a deadline, until what it expects has arrived. Deliveries happen in the
 * background, so waiting is event driven: each arrival re-checks the pending waits.
 *
 * @module
 */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

/** One POST the webhook received. */
export interface ReceivedPost {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** A running webhook. */
export interface WebhookReceiver {
  /** The URL of `path` on this receiver, e.g. `http://127.0.0.1:40001/hook/a`. */
  readonly urlOf: (path: string) => string
  /** Everything received so far, in arrival order. */
  readonly received: () => ReadonlyArray<ReceivedPost>
  /** Resolves with the posts so far once `done(posts)` holds; rejects after `timeoutMs`. */
  readonly waitUntil: (done: (posts: ReadonlyArray<ReceivedPost>) => boolean, timeoutMs?: number) => Promise<ReadonlyArray<ReceivedPost>>
  readonly close: () => Promise<void>
}

/** Starts a receiver that answers every POST with 200. */
export const startWebhookReceiver = async (): Promise<WebhookReceiver> => {
  const posts: Array<ReceivedPost> = []
  const waiters = new Set<() => void>()
  const http = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (req.method === "POST") {
        posts.push({ path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok")
      for (const wake of [...waiters]) wake()
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject)
    http.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = http.address() as AddressInfo
  return {
    urlOf: (path) => `http://127.0.0.1:${port}${path}`,
    received: () => [...posts],
    waitUntil: (done, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!done(posts)) return
          cleanup()
          resolve([...posts])
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`webhook: expected posts did not arrive within ${timeoutMs} ms; got ${posts.length}`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      }),
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve())
        http.closeAllConnections()
      })
  }
}
