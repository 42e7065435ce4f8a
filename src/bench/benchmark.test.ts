import { Duration, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HostedServer, hosts, startHost } from "../../conformance/hosts.ts"
import { serveWebHandler, type TestServer } from "../../testing/client/node-server.ts"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { testCard } from "../../testing/runtime/fixtures.ts"
import { benchmark, BenchOptionError, BenchRefusedError, type BenchmarkOptions } from "./benchmark.ts"
import { isLoopbackAddress } from "./loopback.ts"

const { url: _url, ...card } = testCard()

/** The demo agent served by each host (Node, Bun, Deno) in its own process. */
const served = new Map<string, HostedServer>()
const onHosts = hosts.filter((h) => h !== "node-web")

/** An agent of our own runtime, in this process: "count <n>" chunks; "skip" leaves out chunk 3; "slow" takes 150 ms. */
let local: Listening
const arrivals: Array<number> = []

/** A server that is not a correct agent: its stream never sends a final event, its send answers a working task. */
let faulty: TestServer
const faultyHeaders: Array<Headers> = []

beforeAll(async () => {
  const starting = onHosts.map(async (host) => served.set(host, await startHost(host, "demo")))
  const agent = Agent.make({
    card,
    execute: (ctx) =>
      Effect.gen(function*() {
        arrivals.push(performance.now())
        const text = messageText(ctx.message)
        if (text === "brief") return yield* ctx.complete("done")
        if (text === "slow") yield* Effect.sleep(Duration.millis(150))
        const numbers = text === "skip" ? [1, 2, 4, 5] : [1, 2, 3]
        for (const [i, n] of numbers.entries()) {
          yield* ctx.artifact(`${n}\n`, { artifactId: "n", append: i > 0, lastChunk: i === numbers.length - 1 })
        }
        yield* ctx.complete("done")
      })
  })
  local = await serveNode(await A2AServer.make(agent))
  faulty = await serveWebHandler(async (request) => {
    faultyHeaders.push(request.headers)
    const origin = new URL(request.url).origin
    if (request.method === "GET") return Response.json({ ...card, url: `${origin}/` })
    const body = await request.json() as { method: string }
    const task = { kind: "task", id: "t1", contextId: "c1", status: { state: "working" } }
    if (body.method === "message/send") return Response.json({ jsonrpc: "2.0", id: 1, result: task })
    const frame = (result: unknown) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result })}\n\n`
    const chunk = { kind: "artifact-update", taskId: "t1", contextId: "c1", artifact: { artifactId: "a", parts: [{ kind: "text", text: "x" }] } }
    return new Response(frame(task) + frame(chunk), { headers: { "content-type": "text/event-stream" } })
  })
  await Promise.all(starting)
}, 120_000)

afterAll(async () => {
  await Promise.all([...served.values()].map((s) => s.close()))
  await local?.close({ graceMs: 0 })
  await faulty?.close()
})

describe.each(onHosts)("benchmark against the demo agent on %s", (host) => {
  const url = () => served.get(host)!.url
  const small: BenchmarkOptions = { requests: 6, concurrency: 3, timeoutMs: 10_000 }

  it.each([
    ["JSONRPC", "1.0"],
    ["HTTP+JSON", "1.0"],
    ["JSONRPC", "0.3"],
    ["HTTP+JSON", "0.3"]
  ] as const)("runs every workload over %s in A2A %s, every answer accepted", async (transport, protocolVersion) => {
    const small: BenchmarkOptions = { requests: 6, concurrency: 3, timeoutMs: 10_000, protocolVersion }
    const send = await benchmark(url(), { ...small, transport, workload: "send" })
    expect(send).toMatchObject({ transport, protocolVersion, workload: "send", requests: { started: 6, ok: 6, failed: 0 }, errors: [] })
    expect(send.throughputPerS).toBeGreaterThan(0)
    expect(send.latencyMs?.count).toBe(6)

    // count 3: Task, working, three numbered chunks, the final status-update.
    const stream = await benchmark(url(), { ...small, transport, workload: "stream", message: "count 3", numberedChunks: true })
    expect(stream).toMatchObject({ requests: { ok: 6, failed: 0 }, errors: [], events: { total: 36, chunks: 18 } })
    expect(stream.firstEventMs?.count).toBe(6)

    // Cut after the first chunk, resumed after its id: every event once, none missing.
    const resumed = await benchmark(url(), { ...small, transport, workload: "resubscribe", message: "count 3", numberedChunks: true, dropAfter: 3 })
    expect(resumed).toMatchObject({ requests: { ok: 6, failed: 0 }, errors: [], events: { total: 36, chunks: 18 } })
  }, 30_000)

  // Node's server is measured where requests arrive below ("holds an offered rate"); here the other runtimes'.
  it.skipIf(host === "node")("holds an offered rate of 50/s for 2 s: 100 requests, all accepted, at 50/s", async () => {
    const result = await benchmark(url(), { rate: 50, durationMs: 2_000, concurrency: 10, timeoutMs: 10_000 })
    expect(result).toMatchObject({ requests: { started: 100, ok: 100, failed: 0 }, errors: [], offeredRate: { targetPerS: 50 } })
    expect(Math.abs(result.offeredRate!.actualPerS - 50)).toBeLessThan(5)
    expect(result.elapsedMs).toBeGreaterThanOrEqual(1_980)
  })
})

describe("benchmark's choice of version", () => {
  it("speaks 1.0 to our card by default, as the client would, and asks for the card in the version pinned", async () => {
    expect(await benchmark(local.url, { requests: 1 })).toMatchObject({ protocolVersion: "1.0", transport: "JSONRPC", requests: { ok: 1 } })
    expect(await benchmark(local.url, { requests: 1, transport: "HTTP+JSON" })).toMatchObject({ protocolVersion: "1.0", endpoint: `${local.url}/` })
    faultyHeaders.length = 0
    // A 0.3 card (no supportedInterfaces) is spoken to in 0.3; a 1.0 pin finds no interface.
    expect(await benchmark(faulty.url, { requests: 1, workload: "send" })).toMatchObject({ protocolVersion: "0.3" })
    expect(faultyHeaders[0]?.get("a2a-version")).toBe("1.0")
    expect(faultyHeaders.slice(1).map((h) => h.get("a2a-version"))).toEqual([null])
    await expect(benchmark(faulty.url, { requests: 1, protocolVersion: "1.0" })).rejects.toThrow(/offers no JSON-RPC or REST interface of A2A 1\.0 \(it offers JSONRPC 0\.3\.0\)/)
    await benchmark(faulty.url, { requests: 1, protocolVersion: "0.3" })
    expect(faultyHeaders.at(-2)?.get("a2a-version")).toBe("0.3")
  })

  it("judges a 1.0 answer as strictly as a 0.3 one: a stream that closes before its end, a blocking send answered too early", async () => {
    const early = await serveWebHandler(async (request) => {
      const origin = new URL(request.url).origin
      if (request.method === "GET") {
        const { url: _u, protocolVersion: _p, ...rest } = { ...card, url: "", protocolVersion: "" }
        return Response.json({ ...rest, supportedInterfaces: [{ url: `${origin}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }] })
      }
      const body = await request.json() as { method: string }
      const task = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } }
      if (body.method === "SendMessage") return Response.json({ jsonrpc: "2.0", id: 1, result: { task } })
      const frame = (result: unknown) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result })}\n\n`
      const chunk = { artifactUpdate: { taskId: "t1", contextId: "c1", artifact: { artifactId: "a", parts: [{ text: "x" }] } } }
      return new Response(frame({ task }) + frame(chunk), { headers: { "content-type": "text/event-stream" } })
    })
    try {
      const stream = await benchmark(early.url, { workload: "stream", requests: 2, concurrency: 1 })
      expect(stream).toMatchObject({ protocolVersion: "1.0", requests: { ok: 0, failed: 2 } })
      expect(stream.errors).toMatchObject([{ kind: "validation: missing final event", count: 2 }])
      const send = await benchmark(early.url, { workload: "send", requests: 2, concurrency: 1 })
      expect(send.errors).toMatchObject([{ kind: "validation: not finished", count: 2, example: "the blocking send answered with the task still working" }])
    } finally {
      await early.close()
    }
  })
})

describe("benchmark's verdicts", () => {
  it("counts a stream with a skipped chunk as an error, not as throughput", async () => {
    const result = await benchmark(local.url, { workload: "stream", message: "skip", numberedChunks: true, requests: 4, concurrency: 2 })
    expect(result.requests).toEqual({ started: 4, ok: 0, failed: 4 })
    expect(result.throughputPerS).toBe(0)
    expect(result.errors).toEqual([{ kind: "validation: chunk out of order", count: 4, example: "chunk 3 expected, got 4 (artifact n)" }])
    expect(result.latencyMs).toBeUndefined()
  })

  it("counts a stream without a final event, and a blocking send answered too early, as errors", async () => {
    const stream = await benchmark(faulty.url, { workload: "stream", requests: 3, concurrency: 1 })
    expect(stream.requests.ok).toBe(0)
    expect(stream.errors).toMatchObject([{ kind: "validation: missing final event", count: 3 }])
    const send = await benchmark(faulty.url, { workload: "send", requests: 3, concurrency: 1 })
    expect(send.errors).toMatchObject([{ kind: "validation: not finished", count: 3 }])
  })

  it("sends the headers and the bearer token with every request", async () => {
    faultyHeaders.length = 0
    await benchmark(faulty.url, { requests: 2, concurrency: 1, headers: { "X-API-Key": "k1" }, token: "t0k" })
    expect(faultyHeaders.length).toBeGreaterThanOrEqual(3)
    for (const h of faultyHeaders) {
      expect(h.get("x-api-key")).toBe("k1")
      expect(h.get("authorization")).toBe("Bearer t0k")
    }
  })

  it("holds an offered rate within 10%, measured where requests arrive", async () => {
    arrivals.length = 0
    const result = await benchmark(local.url, { rate: 50, durationMs: 2_000, concurrency: 10 })
    expect(result.requests.failed).toBe(0)
    expect(arrivals.length).toBeGreaterThanOrEqual(90)
    expect(arrivals.length).toBeLessThanOrEqual(110)
    const rate = ((arrivals.length - 1) * 1000) / (arrivals.at(-1)! - arrivals[0]!)
    expect(rate).toBeGreaterThan(45)
    expect(rate).toBeLessThan(55)
    expect(result.offeredRate?.targetPerS).toBe(50)
    expect(Math.abs(result.offeredRate!.actualPerS - 50)).toBeLessThan(5)
  })

  it("measures latency from the scheduled time in the open model, so queueing shows", async () => {
    // 10 requests due 100 ms apart, each taking 150 ms, one at a time: the queue grows, and so does latency.
    const result = await benchmark(local.url, { rate: 10, requests: 10, concurrency: 1, message: "slow" })
    expect(result.requests.ok).toBe(10)
    expect(result.latencyMs!.min).toBeGreaterThanOrEqual(140)
    expect(result.latencyMs!.max).toBeGreaterThan(450)
  })
})

describe("benchmark's refusals", () => {
  const resolver = (answers: Record<string, ReadonlyArray<string>>) => async (host: string) => answers[host] ?? []

  it("refuses a non-loopback target before any connection", async () => {
    const before = faultyHeaders.length
    const port = new URL(faulty.url).port
    // The name resolves (says the injected resolver) to a private address: nothing is sent, not even to the real host.
    await expect(benchmark(`http://localhost:${port}`, { requests: 1, resolveHost: resolver({ localhost: ["10.1.2.3"] }) }))
      .rejects.toThrow(BenchRefusedError)
    await expect(benchmark(`http://localhost:${port}`, { requests: 1, resolveHost: resolver({ localhost: ["127.0.0.1", "10.1.2.3"] }) }))
      .rejects.toThrow(/not this machine/)
    // A literal address is judged without resolving.
    await expect(benchmark("http://192.0.2.1:9/", { requests: 1, resolveHost: () => Promise.reject(new Error("not asked")) }))
      .rejects.toThrow(/refusing to load-test 192\.0\.2\.1.*--allow-remote/)
    expect(faultyHeaders.length).toBe(before)
    // A name resolving only to loopback addresses is this machine.
    const ok = await benchmark(`http://localhost:${port}`, { requests: 1, resolveHost: resolver({ localhost: ["127.0.0.1", "::1"] }) })
    expect(ok.requests.started).toBe(1)
  })

  it("refuses a card whose endpoint is not this machine", async () => {
    const elsewhere = await serveWebHandler(async () => Response.json({ ...card, url: "http://192.0.2.7:8080/" }))
    try {
      await expect(benchmark(elsewhere.url, { requests: 1 })).rejects.toThrow(/the card's endpoint 192\.0\.2\.7/)
    } finally {
      await elsewhere.close()
    }
  })

  it("refuses options out of bounds", async () => {
    const cases: ReadonlyArray<[BenchmarkOptions, RegExp]> = [
      [{ concurrency: 0 }, /concurrency must be a whole number from 1 to 1,000/],
      [{ concurrency: 1_001 }, /concurrency/],
      [{ durationMs: 600_001 }, /duration/],
      [{ requests: 1_000_001 }, /requests/],
      [{ rate: 20_000 }, /rate/],
      [{ message: { kind: "message", role: "robot", parts: [] } as never }, /not an A2A Message/]
    ]
    for (const [options, message] of cases) {
      await expect(benchmark(local.url, options)).rejects.toThrow(BenchOptionError)
      await expect(benchmark(local.url, options)).rejects.toThrow(message)
    }
  })

  it("knows loopback addresses in every spelling", () => {
    for (const a of ["127.0.0.1", "127.255.3.4", "::1", "0:0:0:0:0:0:0:1", "[::1]", "::ffff:127.0.0.1"]) expect(isLoopbackAddress(a), a).toBe(true)
    for (const a of ["10.0.0.1", "128.0.0.1", "::2", "::ffff:10.0.0.1", "0.0.0.0", "localhost", "fe80::1"]) expect(isLoopbackAddress(a), a).toBe(false)
  })
})

describe("benchmark: resubscribe against streams that end by the cut", () => {
  it("refuses before any load, saying how many events a stream has and what to change", async () => {
    const before = arrivals.length
    // "brief" completes at once: a Task, then the final status, two events; the default cut is after two.
    const error: unknown = await benchmark(local.url, { workload: "resubscribe", requests: 5, message: "brief" }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BenchOptionError)
    expect((error as BenchOptionError).message).toBe(
      "the agent's stream for this message has 2 events, the last one final, so cutting it after 2 leaves nothing to resume: " +
        "cut it earlier (--drop-after 1 or less; dropAfter), or send a message whose stream is longer"
    )
    // Only the one stream that found it out.
    expect(arrivals.length - before).toBe(1)
    const cutEarlier = await benchmark(local.url, { workload: "resubscribe", requests: 5, message: "brief", dropAfter: 1 })
    expect(cutEarlier.requests).toMatchObject({ ok: 5, failed: 0 })
  })
})
