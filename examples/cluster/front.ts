/**
 * A small round-robin HTTP front for several instances of one agent, for trying a cluster locally
 * and for tests (`npm run start:cluster` puts one before three instances). In production any load
 * balancer does the same job; see "Running several instances" in docs/storage.md.
 *
 * - Each request goes to the next ready instance in turn. The front asks each instance's `/readyz` twice a
 *   second: one that answers 503 (it is stopping) or does not answer within a second (it is stalled) gets
 *   no new requests until it is ready again (when none is ready, all are tried). An instance that refuses
 *   the connection (it is down or not yet up) is skipped and the next one tried, so a killed instance
 *   costs no failed request.
 *   A request is retried only when it provably never reached an instance (the connection was refused);
 *   any other failure before an answer is a 502, since the instance may have acted on the request.
 *   Kept-alive connections are closed by the front after 1 s idle, well before any runtime's own idle
 *   timeout, so that an instance rarely closes one under a request.
 * - Responses are piped through as they arrive: an SSE stream reaches the client event by event.
 *   When the client goes away the request to the instance is dropped too, and when the instance goes
 *   away mid-answer the client's connection is cut, so an SSE client sees the break and can resume.
 * - Request bodies are read up front (so a refused request can go to the next instance) and bounded
 *   ({@link defaultFrontMaxBodyBytes}); headers, time to send a request and header size are bounded by
 *   `node:http`. Headers pass through, `Last-Event-ID` included; hop-by-hop ones do not.
 * - Each answer names the instance that gave it in `X-A2A-Instance`.
 * - When no instance answers: 502, with a JSON-RPC error (echoing the request's `id`) when the request
 *   was a JSON-RPC call, a plain-text message otherwise.
 *
 * @module
 */
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** One instance behind the front. */
export interface Backend {
  /** Named in the `X-A2A-Instance` header of the answers it gives. */
  readonly name: string
  /** Its origin, `http://host:port`. */
  readonly url: string
}

/** Options of {@link startFront}. */
export interface FrontOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number
  /** Default `127.0.0.1`. */
  readonly host?: string
  /** The instances to start with; {@link Front.setBackends} replaces them. */
  readonly backends?: ReadonlyArray<Backend>
  /** Largest request body passed on, in bytes (default {@link defaultFrontMaxBodyBytes}); larger ones get 413. */
  readonly maxBodyBytes?: number
  /** Time a client has to send a whole request (default 30 s); 0 turns it off. Answers are never cut by it. */
  readonly requestTimeoutMs?: number
  /** Time a client has to send the request headers (default 10 s). */
  readonly headersTimeoutMs?: number
  /** How often each instance's `/readyz` is asked (default 500 ms); 0 never asks (every instance counts as ready). */
  readonly readyEveryMs?: number
  /** How long an instance has to answer `/readyz` before it counts as not ready (default 1 s). */
  readonly readyTimeoutMs?: number
}

/** A listening front. */
export interface Front {
  /** `http://host:port`. */
  readonly url: string
  readonly port: number
  /** The instances requests go to, in round-robin order. */
  readonly backends: () => ReadonlyArray<Backend>
  /** Names of the instances that are ready now (see {@link FrontOptions.readyEveryMs}). */
  readonly ready: () => ReadonlyArray<string>
  readonly setBackends: (backends: ReadonlyArray<Backend>) => void
  /** Stops listening and cuts open connections (streams included). */
  readonly close: () => Promise<void>
}

/**
 * The front's default body limit: 10 MiB and 64 KiB, a little above an instance's own default limit,
 * so a body the instance would refuse reaches it and is refused in the instance's words.
 */
export const defaultFrontMaxBodyBytes = 10 * 1024 * 1024 + 64 * 1024

/** The response header naming the instance that answered. */
export const instanceHeader = "x-a2a-instance"

/** Headers that describe one connection, not the request, and so are not passed on (RFC 9110 7.6.1). */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade"
])

const passedHeaders = (headers: IncomingHttpHeaders): Record<string, string | Array<string>> => {
  const named = new Set(
    String(headers["connection"] ?? "").split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== "")
  )
  const out: Record<string, string | Array<string>> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name) || named.has(name)) continue
    out[name] = value
  }
  return out
}

/** The `id` of a JSON-RPC request body, `null` when it has none; `undefined` when the body is not JSON-RPC. */
const jsonRpcId = (body: Buffer): string | number | null | undefined => {
  if (body.length === 0 || body.length > 1024 * 1024) return undefined
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"))
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined
    const { jsonrpc, id } = parsed as { jsonrpc?: unknown; id?: unknown }
    if (jsonrpc !== "2.0") return undefined
    return typeof id === "string" || typeof id === "number" ? id : null
  } catch {
    return undefined
  }
}

/** An error answered by the front itself: JSON-RPC-shaped when the request was a JSON-RPC call. */
const refuse = (res: ServerResponse, status: number, message: string, body: Buffer | undefined, rpcCode: number) => {
  if (res.headersSent) return void res.destroy()
  const id = body === undefined ? undefined : jsonRpcId(body)
  const payload = id === undefined
    ? `${message}\n`
    : JSON.stringify({ jsonrpc: "2.0", id, error: { code: rpcCode, message } })
  res.writeHead(status, {
    "content-type": id === undefined ? "text/plain; charset=utf-8" : "application/json",
    "content-length": Buffer.byteLength(payload)
  })
  res.end(payload)
}

/**
 * Whether a failed attempt provably never reached an instance, so the request may go to another: only a
 * refused connection. A reset, even on a kept-alive connection that looked idle, may come after the
 * instance read the request (and acted on it): sending it again could run a message twice.
 */
const neverReached = (error: NodeJS.ErrnoException): boolean => error.code === "ECONNREFUSED"

/** JSON-RPC's internal error, used for "no instance answered". */
const internalErrorCode = -32603
/** JSON-RPC's invalid request, which an instance answers for an oversized body too. */
const invalidRequestCode = -32600

/** Starts a front; resolves once it listens. */
export const startFront = async (options: FrontOptions = {}): Promise<Front> => {
  let backends: ReadonlyArray<Backend> = options.backends ?? []
  let next = 0
  const maxBody = options.maxBodyBytes ?? defaultFrontMaxBodyBytes
  // One pool of keep-alive connections to the instances; no cap, every client request gets one. An idle
  // connection is closed after 1 s, before the instance would close it (Node's default is 5 s): a request
  // then never meets a connection the instance is closing at that moment, which would be a 502.
  const pool = new Agent({ keepAlive: true, timeout: 1_000 })
  const requestTimeout = options.requestTimeoutMs ?? 30_000
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout === 0 ? Infinity : requestTimeout)

  // Readiness by instance URL: unknown counts as ready. An instance without health checks (404) is ready.
  const notReady = new Set<string>()
  const checking = new Set<string>()
  const readyEvery = options.readyEveryMs ?? 500
  const readyTimeout = options.readyTimeoutMs ?? 1_000
  const check = (backend: Backend) => {
    if (checking.has(backend.url)) return
    checking.add(backend.url)
    const target = new URL("/readyz", backend.url)
    let settled = false
    const settle = (ready: boolean) => {
      if (settled) return
      settled = true
      checking.delete(backend.url)
      if (ready) notReady.delete(backend.url)
      else notReady.add(backend.url)
    }
    const probe = httpRequest({ host: target.hostname, port: Number(target.port), path: target.pathname, method: "GET", agent: pool }, (answer) => {
      answer.resume()
      settle(answer.statusCode === 200 || answer.statusCode === 404)
    })
    probe.setTimeout(readyTimeout, () => {
      settle(false)
      probe.destroy()
    })
    probe.once("error", () => settle(false))
    probe.end()
  }
  const checks = readyEvery > 0
    ? setInterval(() => {
      for (const backend of backends) check(backend)
    }, readyEvery)
    : undefined
  checks?.unref()

  /** Sends the request to the instance at `order[i]`, moving on while instances refuse. */
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, order: ReadonlyArray<Backend>, i: number) => {
    const backend = order[i]
    if (backend === undefined) {
      return refuse(res, 502, `No instance answered: all ${order.length} refused the connection`, body, internalErrorCode)
    }
    const target = new URL(backend.url)
    const headers = passedHeaders(req.headers)
    const client = req.socket.remoteAddress ?? ""
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"] === undefined ? client : `${String(req.headers["x-forwarded-for"])}, ${client}`
    headers["x-forwarded-proto"] = "http"
    if (req.headers.host !== undefined) headers["x-forwarded-host"] = req.headers.host
    if (body.length > 0 || req.headers["content-length"] !== undefined) headers["content-length"] = String(body.length)
    let answered = false
    const upstream = httpRequest({
      host: target.hostname,
      port: Number(target.port),
      method: req.method,
      path: req.url,
      headers,
      agent: pool
    }, (answer) => {
      answered = true
      const out = passedHeaders(answer.headers)
      out[instanceHeader] = backend.name
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out)
      // Headers go out now, before the first event of a stream that may take a while.
      res.flushHeaders()
      answer.on("data", (chunk: Buffer) => {
        // No buffering, but no unbounded queue either: a slow client pauses the instance's answer.
        if (!res.write(chunk)) {
          answer.pause()
          res.once("drain", () => answer.resume())
        }
      })
      answer.once("end", () => res.end())
      // The instance went away mid-answer: the client must see a broken response, not a complete one.
      answer.once("error", () => res.destroy())
      answer.once("close", () => {
        if (!answer.complete) res.destroy()
      })
    })
    upstream.once("error", (error: NodeJS.ErrnoException) => {
      if (answered) return void res.destroy()
      if (res.destroyed) return
      if (neverReached(error)) return forward(req, res, body, order, i + 1)
      refuse(res, 502, `Instance ${backend.name} failed before answering (${error.code ?? error.message})`, body, internalErrorCode)
    })
    // The client went away: so does the request to the instance (a stream reader leaves, say).
    const leave = () => {
      if (!res.writableFinished) upstream.destroy()
    }
    res.once("close", leave)
    upstream.end(body)
  }

  const server = createServer({ requestTimeout, headersTimeout, connectionsCheckingInterval: 1_000 }, (req, res) => {
    const declared = req.headers["content-length"]
    if (declared !== undefined && Number(declared) > maxBody) {
      res.setHeader("connection", "close")
      return refuse(res, 413, `Request body exceeds the ${maxBody}-byte limit`, undefined, invalidRequestCode)
    }
    const parts: Array<Buffer> = []
    let size = 0
    let refused = false
    req.on("data", (chunk: Buffer) => {
      if (refused) return
      size += chunk.length
      if (size > maxBody) {
        refused = true
        parts.length = 0
        res.setHeader("connection", "close")
        refuse(res, 413, `Request body exceeds the ${maxBody}-byte limit`, undefined, invalidRequestCode)
        return
      }
      parts.push(chunk)
    })
    req.once("end", () => {
      if (refused) return
      // Round robin over the ready instances as they are now (all, when none is); a refusing one passes
      // the turn to the next.
      const ready = backends.filter((b) => !notReady.has(b.url))
      const current = ready.length > 0 ? ready : backends
      const start = current.length === 0 ? 0 : next++ % current.length
      const order = current.map((_, k) => current[(start + k) % current.length]!)
      forward(req, res, Buffer.concat(parts, size), order, 0)
    })
    req.once("error", () => res.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    backends: () => backends,
    ready: () => backends.filter((b) => !notReady.has(b.url)).map((b) => b.name),
    setBackends: (list) => {
      backends = [...list]
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (checks !== undefined) clearInterval(checks)
        server.close(() => resolve())
        server.closeAllConnections()
        pool.destroy()
      })
  }
}
