/**
 * A scripted JSON-RPC peer for client tests, as a Web-standard handler so every runtime can serve it
 * (`Bun.serve({ fetch })`, `Deno.serve(handler)`, or the `node:http` bridge in the tests).
 *
 * Each path behaves in one way, good or hostile:
 *
 * | path | behaviour |
 * | --- | --- |
 * | `/.well-known/agent-card.json` | a card whose `url` is `<origin>/rpc` |
 * | `/rpc` | a well-behaved agent: send, get, cancel, stream with `id:` lines, resubscribe with `Last-Event-ID` |
 * | `/rpc-noids` | the same stream without `id:` lines; resubscribe answers a Task snapshot then the rest |
 * | `/not-json` | HTML with status 200 |
 * | `/wrong-id` | a valid result under another JSON-RPC id |
 * | `/wrong-shape` | a `result` that is not a Task |
 * | `/json-to-stream` | a JSON result as the reply to a streaming method |
 * | `/never-ends` | one stream event and a ping, then silence forever |
 * | `/complete-stream` | the six scripted events with ids, then the end of the body |
 * | `/giant` | a stream event of `giantBytes` |
 * | `/silent` | never answers at all |
 * | `/http-503` | HTTP 503 with a text body |
 * | `/task-not-found` | a JSON-RPC error -32001 |
 *
 * On `/rpc` and `/rpc-noids` the first `message/stream` connection breaks off (the body stream errors,
 * which the server turns into a destroyed connection) after `cutAfter` events.
 *
 * @module
 */

/** Settings of the scripted peer. */
export interface HostileAgentOptions {
  /** Events delivered before the first stream connection breaks. Default 3. */
  readonly cutAfter?: number
  /** Size of the `/giant` event. Default 1 MiB. */
  readonly giantBytes?: number
}

/** The peer, and what it observed. */
export interface HostileAgent {
  readonly handler: (request: Request) => Promise<Response>
  /** `Last-Event-ID` header of every `tasks/resubscribe` received (null when absent). */
  readonly resubscribes: Array<string | null>
  /** Headers of every JSON-RPC request received, in order. */
  readonly requestHeaders: Array<Headers>
  /** Paths whose stream body was cancelled because the client let go of it. */
  readonly cancelled: Array<string>
}

const TASK_ID = "task-1"
const CONTEXT_ID = "ctx-1"
const encoder = new TextEncoder()

const task = (state: string, artifactParts: ReadonlyArray<string>) => ({
  kind: "task",
  id: TASK_ID,
  contextId: CONTEXT_ID,
  status: { state, timestamp: state === "submitted" ? "2025-01-01T00:00:00.000Z" : "2025-01-01T00:00:01.000Z" },
  ...(artifactParts.length === 0
    ? {}
    : { artifacts: [{ artifactId: "a-1", parts: artifactParts.map((text) => ({ kind: "text", text })) }] })
})

const status = (state: string, final: boolean, timestamp: string) => ({
  kind: "status-update",
  taskId: TASK_ID,
  contextId: CONTEXT_ID,
  status: { state, timestamp },
  final
})

const chunk = (text: string, append: boolean, lastChunk: boolean) => ({
  kind: "artifact-update",
  taskId: TASK_ID,
  contextId: CONTEXT_ID,
  artifact: { artifactId: "a-1", parts: [{ kind: "text", text }] },
  append,
  lastChunk
})

/** The six events of the scripted task, in order (seq = index + 1). */
export const scriptedEvents: ReadonlyArray<unknown> = [
  task("submitted", []),
  status("working", false, "2025-01-01T00:00:01.000Z"),
  chunk("a", false, false),
  chunk("b", true, false),
  chunk("c", true, true),
  status("completed", true, "2025-01-01T00:00:02.000Z")
]

/** The Task as it stands after the first `n` scripted events (what a snapshot would say). */
const snapshotAfter = (n: number) => {
  const parts = ["a", "b", "c"].slice(0, Math.max(0, n - 2))
  return task(n >= 6 ? "completed" : n >= 2 ? "working" : "submitted", parts)
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const rpcResult = (id: unknown, result: unknown) => json({ jsonrpc: "2.0", id, result })

const sseHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache" }

/** An SSE body from frames; `cut` errors the stream after the frames, `hang` keeps it open. */
const sse = (
  frames: ReadonlyArray<string>,
  end: "close" | "cut" | "hang",
  onCancel: () => void
): Response => {
  let i = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < frames.length) {
        controller.enqueue(encoder.encode(frames[i++]!))
        return
      }
      if (end === "close") return controller.close()
      if (end === "hang") return new Promise<void>(() => {})
      // Some servers (Bun.serve) pull ahead and reset the connection before flushing what was pulled;
      // a macrotask lets the frames reach the wire first, so the cut falls after them as on a real network.
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          controller.error(new Error("connection cut by the test agent"))
          resolve()
        }, 20))
    },
    cancel() {
      onCancel()
    }
  })
  return new Response(body, { headers: sseHeaders })
}

const frame = (id: unknown, result: unknown, seq: number | undefined) =>
  `${seq === undefined ? "" : `id: ${seq}\n`}data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`

/** Makes a fresh scripted peer. */
export const hostileAgent = (options: HostileAgentOptions = {}): HostileAgent => {
  const cutAfter = options.cutAfter ?? 3
  const giantBytes = options.giantBytes ?? 1024 * 1024
  const resubscribes: Array<string | null> = []
  const requestHeaders: Array<Headers> = []
  const cancelled: Array<string> = []
  let streamsOpened = 0

  const agent = async (path: string, request: Request): Promise<Response> => {
    const body = (await request.json()) as { id: unknown; method: string; params?: { id?: string } }
    requestHeaders.push(request.headers)
    const { id, method } = body
    const withIds = path === "/rpc"
    const onCancel = () => void cancelled.push(path)
    switch (method) {
      case "message/send":
        return rpcResult(id, snapshotAfter(2))
      case "tasks/get":
        return body.params?.id === TASK_ID
          ? rpcResult(id, snapshotAfter(6))
          : json({ jsonrpc: "2.0", id, error: { code: -32001, message: `Task ${body.params?.id} not found` } })
      case "tasks/cancel":
        return json({ jsonrpc: "2.0", id, error: { code: -32002, message: "Task cannot be canceled" } })
      case "message/stream": {
        streamsOpened++
        const first = streamsOpened === 1
        const events = first ? scriptedEvents.slice(0, cutAfter) : scriptedEvents
        return sse(events.map((e, i) => frame(id, e, withIds ? i + 1 : undefined)), first ? "cut" : "close", onCancel)
      }
      case "tasks/resubscribe": {
        const last = request.headers.get("last-event-id")
        resubscribes.push(last)
        if (withIds && last !== null) {
          // Replays the last delivered event too: the client must drop it.
          const from = Math.max(0, Number(last) - 1)
          const frames = scriptedEvents.slice(from).map((e, i) => frame(id, e, from + i + 1))
          return sse(frames, "close", onCancel)
        }
        // No ids: a snapshot of what the client already has, the last event again, then the rest.
        const frames = [snapshotAfter(cutAfter), ...scriptedEvents.slice(cutAfter - 1)].map((e) => frame(id, e, undefined))
        return sse(frames, "close", onCancel)
      }
      default:
        return json({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method ${method} not found` } })
    }
  }

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    const path = url.pathname
    if (path === "/.well-known/agent-card.json") {
      return json({
        protocolVersion: "0.3.0",
        name: "Scripted agent",
        description: "Answers client tests, well or badly",
        url: `${url.origin}/rpc`,
        preferredTransport: "JSONRPC",
        version: "1.0.0",
        capabilities: { streaming: true, pushNotifications: false },
        defaultInputModes: ["text/plain"],
        defaultOutputModes: ["text/plain"],
        skills: [{ id: "echo", name: "Echo", description: "Echoes", tags: ["test"] }]
      })
    }
    if (path === "/rpc" || path === "/rpc-noids") return agent(path, request)
    if (path === "/silent") return new Promise<Response>(() => {})
    const rpc = (await request.json().catch(() => ({}))) as { id?: unknown; method?: string }
    requestHeaders.push(request.headers)
    const onCancel = () => void cancelled.push(path)
    switch (path) {
      case "/not-json":
        return new Response("<html><body>Welcome to my homepage</body></html>", { headers: { "content-type": "text/html" } })
      case "/wrong-id":
        return rpcResult(`not-${String(rpc.id)}`, snapshotAfter(6))
      case "/wrong-shape":
        return rpcResult(rpc.id, { kind: "task", id: 42 })
      case "/json-to-stream":
        return rpcResult(rpc.id, snapshotAfter(6))
      case "/never-ends":
        return sse([frame(rpc.id, scriptedEvents[0], 1), ": ping\n\n"], "hang", onCancel)
      case "/complete-stream":
        return sse(scriptedEvents.map((e, i) => frame(rpc.id, e, i + 1)), "close", onCancel)
      case "/giant":
        return sse([`data: {"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":"${"x".repeat(giantBytes)}"}\n\n`], "close", onCancel)
      case "/http-503":
        return new Response("Service Unavailable", { status: 503, headers: { "content-type": "text/plain" } })
      case "/task-not-found":
        return json({ jsonrpc: "2.0", id: rpc.id, error: { code: -32001, message: "Task not found" } })
      default:
        return new Response("Not Found", { status: 404 })
    }
  }
  return { handler, resubscribes, requestHeaders, cancelled }
}
