/**
 * The practical ceiling on Node: a bare `node:http` server writing the same SSE frames and JSON-RPC
 * envelopes the A2A servers write, with no protocol logic (no validation, no task state, no store).
 *
 * `--batch <k>` joins k frames per socket write (1 = one write per event). `--drop <i>` leaves out
 * artifact chunk i, a deliberately wrong answer that the load client must reject.
 */
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { announce, argValue, chunksWanted } from "./control.ts"

const batch = Math.max(1, Number(argValue("batch") ?? "1"))
const drop = argValue("drop") === undefined ? -1 : Number(argValue("drop"))

interface RpcRequest {
  readonly id: string | number | null
  readonly method: string
  readonly params?: { readonly message?: { readonly messageId?: string; readonly parts?: ReadonlyArray<{ readonly text?: string }> } }
}

const taskJson = (taskId: string, contextId: string, state: string, userMessage: string) =>
  `{"kind":"task","id":"${taskId}","contextId":"${contextId}","status":{"state":"${state}","timestamp":"${new Date().toISOString()}"},"history":[${userMessage}]}`

const waitDrain = (res: ServerResponse) => new Promise<void>((resolve) => res.once("drain", resolve))

const stream = async (res: ServerResponse, request: RpcRequest, userMessage: string, n: number) => {
  const taskId = randomUUID()
  const contextId = randomUUID()
  const prefix = `data: {"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":`
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" })
  let seq = 1
  let text = `id: ${seq}\n${prefix}${taskJson(taskId, contextId, "submitted", userMessage)}}\n\n`
  let queued = 1
  const artifactHead = `{"kind":"artifact-update","taskId":"${taskId}","contextId":"${contextId}","artifact":{"artifactId":"a","parts":[{"kind":"text","text":"`
  for (let i = 0; i < n; i++) {
    if (i === drop) continue
    seq++
    text += `id: ${seq}\n${prefix}${artifactHead}${i}"}]},"append":${i > 0},"lastChunk":${i === n - 1}}}\n\n`
    if (++queued >= batch) {
      const ok = res.write(text)
      text = ""
      queued = 0
      if (!ok) await waitDrain(res)
    }
  }
  seq++
  text += `id: ${seq}\n${prefix}{"kind":"status-update","taskId":"${taskId}","contextId":"${contextId}","status":{"state":"completed","timestamp":"${new Date().toISOString()}"},"final":true}}\n\n`
  res.end(text)
}

const send = (res: ServerResponse, request: RpcRequest, userMessage: string) => {
  const body = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":${taskJson(randomUUID(), randomUUID(), "completed", userMessage)}}`
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

const handle = (req: IncomingMessage, res: ServerResponse) => {
  const parts: Array<Buffer> = []
  req.on("data", (b: Buffer) => parts.push(b))
  req.on("end", () => {
    const request = JSON.parse(Buffer.concat(parts).toString("utf8")) as RpcRequest
    const message = request.params?.message
    const userMessage = JSON.stringify(message ?? null)
    if (request.method === "message/stream") {
      stream(res, request, userMessage, chunksWanted(message?.parts?.[0]?.text)).catch(() => res.destroy())
    } else {
      send(res, request, userMessage)
    }
  })
}

const server = createServer(handle)
server.keepAliveTimeout = 60_000
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo
  announce(`http://127.0.0.1:${port}`)
})
