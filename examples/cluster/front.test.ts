/**
 * The cluster's front on real loopback sockets: plain `node:http` servers stand in for the
 * instances, each naming itself, so what the front does with requests and answers is visible.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { connect, type AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { instanceHeader, startFront, type Backend, type Front } from "./front.ts"

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A stand-in instance: answers with `handler`, or with its name. */
const backend = async (name: string, handler?: Handler): Promise<Backend & { readonly server: Server; readonly seen: () => number }> => {
  let seen = 0
  const server = createServer((req, res) => {
    seen++
    const parts: Array<Buffer> = []
    req.on("data", (b: Buffer) => parts.push(b))
    req.on("end", () => {
      const body = Buffer.concat(parts).toString("utf8")
      if (handler !== undefined) return handler(req, res, body)
      res.writeHead(200, { "content-type": "text/plain" })
      res.end(name)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  cleanups.push(() => new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  }))
  return { name, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen: () => seen }
}

/** A loopback port nothing listens on: connections to it are refused. */
const refusingPort = async (): Promise<Backend> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return { name: "down", url: `http://127.0.0.1:${port}` }
}

// Readiness checks off, unless a test is about them: every other test sees every instance as ready.
const front = async (backends: ReadonlyArray<Backend>, maxBodyBytes?: number, readyEveryMs = 0): Promise<Front> => {
  const f = await startFront({ backends, readyEveryMs, readyTimeoutMs: 300, ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }) })
  cleanups.push(() => f.close())
  return f
}

const get = async (url: string) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
  return { status: response.status, instance: response.headers.get(instanceHeader), text: await response.text() }
}

/** A raw HTTP exchange: writes `request`, resolves with everything the front answered until it closed. */
const raw = (port: number, request: string | Buffer, timeoutMs = 5_000) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    let answer = ""
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close within ${timeoutMs} ms; got ${answer.slice(0, 200)}`))
    }, timeoutMs)
    socket.setEncoding("utf8")
    socket.on("data", (d: string) => { answer += d })
    socket.on("error", () => {})
    socket.on("close", () => {
      clearTimeout(timer)
      resolve(answer)
    })
    socket.write(request)
  })

describe("cluster front", () => {
  it("sends requests to the instances in turn, naming the one that answered", async () => {
    const f = await front([await backend("a"), await backend("b"), await backend("c")])
    const answers = []
    for (let i = 0; i < 6; i++) answers.push(await get(`${f.url}/`))
    expect(answers.map((a) => a.text)).toEqual(["a", "b", "c", "a", "b", "c"])
    expect(answers.map((a) => a.instance)).toEqual(["a", "b", "c", "a", "b", "c"])
  })

  it("routes around an instance that refuses connections, losing no request", async () => {
    const f = await front([await backend("a"), await refusingPort(), await backend("c")])
    const answers = await Promise.all(Array.from({ length: 12 }, () => get(`${f.url}/`)))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    expect(new Set(answers.map((a) => a.text))).toEqual(new Set(["a", "c"]))
    // The refused turn passes to the next instance: c answers twice as often as a.
    expect(answers.filter((a) => a.text === "c")).toHaveLength(8)
  })

  it("passes request bodies and headers, Last-Event-ID included, and drops hop-by-hop headers", async () => {
    const echo = await backend("echo", (req, res, body) => {
      res.writeHead(200, { "content-type": "application/json", "x-from-instance": "yes", "keep-alive": "timeout=1" })
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }))
    })
    const f = await front([echo])
    const response = await fetch(`${f.url}/v1/tasks/t1:subscribe?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json", "last-event-id": "42", "x-custom": "kept" },
      body: JSON.stringify({ hello: "world" }),
      signal: AbortSignal.timeout(5_000)
    })
    const seen = await response.json() as { method: string; url: string; body: string; headers: Record<string, string> }
    expect(seen.method).toBe("POST")
    expect(seen.url).toBe("/v1/tasks/t1:subscribe?x=1")
    expect(JSON.parse(seen.body)).toEqual({ hello: "world" })
    expect(seen.headers["last-event-id"]).toBe("42")
    expect(seen.headers["x-custom"]).toBe("kept")
    expect(seen.headers["x-forwarded-for"]).toBe("127.0.0.1")
    expect(seen.headers["x-forwarded-host"]).toBe(new URL(f.url).host)
    expect(response.headers.get("x-from-instance")).toBe("yes")
    expect(response.headers.get("keep-alive")).not.toBe("timeout=1")
    expect(response.headers.get(instanceHeader)).toBe("echo")
    // Headers the client's Connection header names describe its connection only: not passed on.
    const named = await raw(f.port, "GET / HTTP/1.1\r\nHost: x\r\nX-Drop: gone\r\nX-Keep: kept\r\nConnection: X-Drop, close\r\n\r\n")
    expect(named).toContain(`"x-keep":"kept"`)
    expect(named).not.toContain("x-drop")
  })

  it("passes an SSE stream through event by event, without waiting for the end", async () => {
    let sendSecond: () => void = () => {}
    const secondAllowed = new Promise<void>((resolve) => { sendSecond = resolve })
    const sse = await backend("sse", (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
      res.write("id: 1\ndata: first\n\n")
      // The second event is written only once the client has read the first through the front.
      void secondAllowed.then(() => res.end("id: 2\ndata: second\n\n"))
    })
    const f = await front([sse])
    const response = await fetch(`${f.url}/`, { method: "POST", body: "{}", signal: AbortSignal.timeout(5_000) })
    expect(response.headers.get("content-type")).toBe("text/event-stream")
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ""
    while (!text.includes("data: first\n\n")) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`stream ended early: ${text}`)
      text += value
    }
    expect(text).not.toContain("second")
    sendSecond()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += value
    }
    expect(text).toBe("id: 1\ndata: first\n\nid: 2\ndata: second\n\n")
  })

  it("drops the request to the instance when the client leaves a stream", async () => {
    let closed: () => void = () => {}
    const instanceSawClose = new Promise<void>((resolve) => { closed = resolve })
    const sse = await backend("sse", (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" })
      res.write("data: open\n\n")
      res.once("close", () => closed())
    })
    const f = await front([sse])
    const controller = new AbortController()
    const response = await fetch(`${f.url}/`, { method: "POST", body: "{}", signal: controller.signal })
    const reader = response.body!.getReader()
    await reader.read()
    controller.abort()
    await expect(Promise.race([
      instanceSawClose.then(() => "closed"),
      new Promise((resolve) => setTimeout(() => resolve("still open"), 3_000))
    ])).resolves.toBe("closed")
  })

  it("cuts the client's stream when the instance dies mid-answer, so the client can tell and resume", async () => {
    const dying = await backend("dying", (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" })
      res.write("data: one\n\n")
      setTimeout(() => res.socket?.destroy(), 50)
    })
    const f = await front([dying])
    const response = await fetch(`${f.url}/`, { method: "POST", body: "{}", signal: AbortSignal.timeout(5_000) })
    await expect(response.text()).rejects.toThrow()
  })

  it("sends no new request to an instance whose /readyz says 503 or does not answer, until it is ready again", async () => {
    let stopping = false
    let stalled = false
    const held: Array<ServerResponse> = []
    const instance = (name: string, state: () => "ready" | "stopping" | "stalled") =>
      backend(name, (req, res) => {
        if (req.url === "/readyz") {
          const now = state()
          if (now === "stalled") return void held.push(res)
          res.writeHead(now === "ready" ? 200 : 503, { "content-type": "application/json" })
          return void res.end(JSON.stringify({ status: now }))
        }
        res.end(name)
      })
    const a = await instance("a", () => (stopping ? "stopping" : "ready"))
    const b = await instance("b", () => (stalled ? "stalled" : "ready"))
    const c = await instance("c", () => "ready")
    const f = await front([a, b, c], undefined, 50)
    const served = async (n: number) => {
      const names = new Set<string>()
      for (let i = 0; i < n; i++) names.add((await get(`${f.url}/`)).text)
      return names
    }
    expect(await served(6)).toEqual(new Set(["a", "b", "c"]))
    stopping = true
    stalled = true
    const waitFor = async (ready: ReadonlyArray<string>) => {
      const until = Date.now() + 5_000
      while (JSON.stringify(f.ready()) !== JSON.stringify(ready)) {
        if (Date.now() > until) throw new Error(`ready: ${JSON.stringify(f.ready())}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    await waitFor(["c"])
    expect(await served(6)).toEqual(new Set(["c"]))
    stopping = false
    stalled = false
    for (const res of held.splice(0)) res.destroy()
    await waitFor(["a", "b", "c"])
    expect(await served(6)).toEqual(new Set(["a", "b", "c"]))
  })

  it("never sends a request on to another instance once it reached one, even on a reused connection", async () => {
    // The instance takes the request in on a kept-alive connection and dies before answering (the
    // connection is reset): it may have acted on it, so the request must not run again elsewhere.
    let requests = 0
    const dying = await backend("dying", (_req, res) => {
      requests++
      if (requests === 1) return void res.end("first")
      res.socket?.resetAndDestroy()
    })
    const other = await backend("other")
    const f = await front([dying, other])
    const post = (body: string) =>
      fetch(`${f.url}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(5_000)
      })
    expect(await (await post("{}")).text()).toBe("first")
    expect(await (await post("{}")).text()).toBe("other")
    // The third request goes to `dying` on the connection its first answer left open.
    const third = await post(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "message/send", params: {} }))
    expect(third.status).toBe(502)
    expect(third.headers.get(instanceHeader)).toBeNull()
    const body = await third.json() as { id: unknown; error: { code: number; message: string } }
    expect(body.id).toBe(3)
    expect(body.error.message).toMatch(/dying/)
    expect(requests).toBe(2)
    expect(other.seen()).toBe(1)
  })

  it("answers 502 with a JSON-RPC error for a JSON-RPC call when every instance is down", async () => {
    const f = await front([await refusingPort(), await refusingPort()])
    const response = await fetch(`${f.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "req-7", method: "tasks/get", params: { id: "x" } }),
      signal: AbortSignal.timeout(5_000)
    })
    expect(response.status).toBe(502)
    const body = await response.json() as { jsonrpc: string; id: unknown; error: { code: number; message: string } }
    expect(body.jsonrpc).toBe("2.0")
    expect(body.id).toBe("req-7")
    expect(body.error.code).toBe(-32603)
    expect(body.error.message).toMatch(/No instance answered: all 2 refused/)
  })

  it("answers 502 in plain text to other requests when every instance is down, and when there is none", async () => {
    const down = await front([await refusingPort()])
    const answer = await get(`${down.url}/.well-known/agent-card.json`)
    expect(answer.status).toBe(502)
    expect(answer.text).toMatch(/^No instance answered/)
    const empty = await front([])
    expect((await get(`${empty.url}/`)).status).toBe(502)
  })

  it("refuses an oversized body with 413 before any instance sees it, declared or chunked", async () => {
    const instance = await backend("a")
    const f = await front([instance], 1024)
    const declared = await fetch(`${f.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(2048),
      signal: AbortSignal.timeout(5_000)
    })
    expect(declared.status).toBe(413)
    expect(await declared.text()).toMatch(/exceeds the 1024-byte limit/)
    const port = f.port
    const chunk = "x".repeat(600)
    const chunked = await raw(port, `POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n` +
      `258\r\n${chunk}\r\n258\r\n${chunk}\r\n258\r\n${chunk}\r\n0\r\n\r\n`)
    expect(chunked).toMatch(/^HTTP\/1\.1 413/)
    expect(instance.seen()).toBe(0)
    // A body within the limit still goes through.
    const fine = await fetch(`${f.url}/`, { method: "POST", body: "x".repeat(1000), signal: AbortSignal.timeout(5_000) })
    expect(await fine.text()).toBe("a")
  })

  it("answers malformed and oversized-header requests itself and stays up", async () => {
    const instance = await backend("a")
    const f = await front([instance])
    expect(await raw(f.port, "NOT HTTP AT ALL\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/)
    expect(await raw(f.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"y".repeat(64 * 1024)}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431/)
    expect(instance.seen()).toBe(0)
    expect((await get(`${f.url}/`)).text).toBe("a")
  })
})
