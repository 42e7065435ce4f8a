/**
 * The Node adapter against slow clients, over real sockets (node:net) on 127.0.0.1: a client that
 * sends its headers or its body too slowly is cut, an SSE stream that stays quiet for longer than
 * those timeouts is not, the work of a request whose client goes away is interrupted, and the connection
 * cap turns away the connection beyond it. The timeouts
 * are a few hundred milliseconds here so the tests stay short; bounds on waits are generous.
 */
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { gate, waitUntil } from "../../testing/server/push-harness.ts"
import { openStream, userMessage } from "../../testing/server/rpc.ts"
import type { Listening } from "./listening.ts"
import { type NodeServeOptions, serveNode } from "./node.ts"
import { type RawClient, rawClient, trickle } from "../../testing/adapters/raw-client.ts"

const card = {
  name: "slow client test agent",
  description: "Works, then waits for the test before it completes.",
  version: "1.0.0",
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: []
}

let release = gate()
const waitingAgent = Agent.make({
  card,
  execute: (ctx) =>
    Effect.gen(function*() {
      yield* ctx.working("waiting")
      yield* Effect.promise(() => release.opened)
      yield* ctx.complete("done")
    })
})

let listening: Listening | undefined
const clients: Array<RawClient> = []
afterEach(async () => {
  release.open()
  for (const client of clients.splice(0)) client.socket.destroy()
  await listening?.close({ graceMs: 0 })
  listening = undefined
})

const serveOn = (web: boolean) => async (options: NodeServeOptions): Promise<Listening> => {
  release = gate()
  // No heartbeats: an idle stream sends nothing at all while it waits.
  listening = await serveNode(await A2AServer.make(waitingAgent, { heartbeatMs: 0 }), { ...options, web })
  return listening
}

const rpcBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "none" } })

describe.each([["fast path", false], ["Web handler", true]] as const)("Node adapter (%s): slow clients", (_, web) => {
  const serve = serveOn(web)

  it("answers 408 and closes a connection whose headers take longer than headersTimeoutMs", async () => {
    const { port } = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 2_000 })
    const client = await rawClient(port, clients)
    client.socket.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    // A header line every 50 ms: never idle, never done.
    const sent = trickle(client, "X-Slow: 1\r\n", 50, 400)
    const answer = await client.closed(5_000)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(sent()).toBeLessThan(400)
  })

  it("closes a connection whose body takes longer than requestTimeoutMs, before any answer", async () => {
    const { port } = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 400 })
    const client = await rawClient(port, clients)
    const body = rpcBody.padEnd(2_000, " ")
    client.socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)
    const sent = trickle(client, " ", 50, body.length)
    const answer = await client.closed(5_000)
    expect(answer).not.toMatch(/^HTTP\/1\.1 200 /)
    expect(sent()).toBeLessThan(body.length)
  })

  it("keeps an SSE stream open while it stays quiet for much longer than both timeouts", async () => {
    const { url } = await serve({ headersTimeoutMs: 100, requestTimeoutMs: 200 })
    const stream = await openStream(`${url}/`, "message/stream", { message: userMessage("wait") }, {}, 10_000)
    const first = await stream.until((e) => (e.json as { result?: { status?: { state?: string } } }).result?.status?.state === "working")
    expect(first.length).toBeGreaterThan(0)
    // Quiet for five times the request timeout: no event, no heartbeat.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(stream.done).toBe(false)
    release.open()
    expect(await stream.waitForEnd()).toBe(true)
    const last = stream.received.at(-1)?.json as { result: { final?: boolean; status: { state: string } } }
    expect(last.result).toMatchObject({ final: true, status: { state: "completed" } })
  })

  it("sends a JSON answer whole, with its Content-Length (not chunked), and keeps the connection for the next request", async () => {
    const { port } = await serve({})
    const client = await rawClient(port, clients)
    const request = `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${rpcBody.length}\r\n\r\n${rpcBody}`
    const answers = async (n: number) => {
      const deadline = Date.now() + 5_000
      while (client.received().split("HTTP/1.1 200 ").length - 1 < n || !client.received().trimEnd().endsWith("}")) {
        if (Date.now() > deadline) throw new Error(`no answer ${n}: ${client.received()}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    client.socket.write(request)
    await answers(1)
    client.socket.write(request)
    await answers(2)
    const [head, body] = client.received().split("HTTP/1.1 200 ")[2]!.split("\r\n\r\n") as [string, string]
    expect(head.toLowerCase()).not.toContain("transfer-encoding")
    const length = /content-length: (\d+)/i.exec(head)
    expect(length).not.toBeNull()
    expect(Buffer.byteLength(body)).toBe(Number(length![1]))
    expect(JSON.parse(body)).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32001 } })
  })

  it("interrupts the work of a request whose client goes away before its answer", async () => {
    // The caller's key is checked by a lookup that never answers: the request waits there until it is interrupted.
    let checking = false
    let interrupted = false
    const server = await A2AServer.make(Agent.make({
      card: {
        ...card,
        securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
        security: [{ key: [] }]
      },
      execute: (ctx) => ctx.complete("done")
    }), {
      authentication: {
        authenticators: {
          key: apiKeyAuthenticator({
            verify: () => Effect.suspend(() => {
              checking = true
              return Effect.never
            }).pipe(Effect.onInterrupt(() => Effect.sync(() => void (interrupted = true))))
          })
        }
      }
    })
    listening = await serveNode(server, { web })
    const client = await rawClient(listening.port, clients)
    client.socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-API-Key: k\r\nContent-Length: ${rpcBody.length}\r\n\r\n${rpcBody}`)
    await waitUntil(() => checking, "the key being checked", 5_000)
    expect(interrupted).toBe(false)
    client.socket.destroy()
    await waitUntil(() => interrupted, "the check interrupted", 5_000)
  })

  it("maxConnections turns away a connection beyond the cap, and takes new ones once a place is free", async () => {
    const { port } = await serve({ maxConnections: 2 })
    const request = `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${rpcBody.length}\r\n\r\n${rpcBody}`
    const answered = (client: RawClient) =>
      new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          if (client.received().includes("\r\n\r\n{")) (clearInterval(check), resolve())
          if (client.socket.destroyed) (clearInterval(check), reject(new Error("closed without an answer")))
        }, 10)
      })
    // Two keep-alive connections, each answered once, stay open and hold both places.
    const held = [await rawClient(port, clients), await rawClient(port, clients)]
    for (const client of held) {
      client.socket.write(request)
      await answered(client)
    }
    const extra = await rawClient(port, clients)
    extra.socket.write(request)
    expect(await extra.closed(5_000)).toBe("")

    held[0]!.socket.destroy()
    // The server learns of the close asynchronously: try until a new connection is served.
    const deadline = Date.now() + 5_000
    for (;;) {
      const next = await rawClient(port, clients)
      next.socket.write(request)
      const ok = await answered(next).then(() => true, () => false)
      if (ok) break
      if (Date.now() > deadline) throw new Error("no connection was taken after a place became free")
    }
  })
})
