import { Effect, Exit, Result, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { A2AClient, type A2AClientOptions, userText } from "./client.ts"
import { invalidAnswerReason } from "./errors.ts"
import { authHeader, extensionsHeader } from "./interceptors.ts"
import { createA2AClient } from "./promise-client.ts"
import { type HostileAgent, hostileAgent, scriptedEvents } from "../../testing/client/hostile-agent.ts"
import { serveWebHandler, type TestServer } from "../../testing/client/node-server.ts"

let agent: HostileAgent
let server: TestServer

beforeAll(async () => {
  agent = hostileAgent({ giantBytes: 256 * 1024 })
  server = await serveWebHandler(agent.handler)
})
afterAll(() => server.close())

const quick: A2AClientOptions = { timeoutMs: 2_000, idleTimeoutMs: 2_000, retries: 0, resume: { backoffMs: 10 } }

const at = (path: string, options: A2AClientOptions = quick) => A2AClient.make({ endpoint: `${server.url}${path}` }, options)

const failure = <A, E>(effect: Effect.Effect<A, E>): Promise<E> =>
  Effect.runPromise(Effect.flip(effect))

/** Waits for a condition that a peer fulfils asynchronously, with a deadline. */
const eventually = async (check: () => boolean, ms = 2_000) => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe("card discovery", () => {
  it("finds the card at the well-known path and calls the endpoint it names", async () => {
    const client = await Effect.runPromise(A2AClient.make({ url: server.url }, quick))
    expect(client.card?.name).toBe("Scripted agent")
    expect(client.endpoint).toBe(`${server.url}/rpc`)
    const result = await Effect.runPromise(client.sendMessage(userText("hi")))
    expect(result.kind).toBe("task")
  })

  it("falls back to the legacy agent.json path", async () => {
    const seen: Array<string> = []
    const legacyOnly: typeof fetch = (input, init) => {
      const url = String(input)
      seen.push(new URL(url).pathname)
      if (url.endsWith("/agent-card.json")) return Promise.resolve(new Response("gone", { status: 404 }))
      return fetch(url.replace("/agent.json", "/agent-card.json"), init)
    }
    const found = await Effect.runPromise(A2AClient.discover(server.url, { ...quick, fetch: legacyOnly }))
    expect(found.cardUrl).toBe(`${server.url}/.well-known/agent.json`)
    expect(seen).toEqual(["/.well-known/agent-card.json", "/.well-known/agent.json"])
  })

  it("reports a site without a card as not an A2A agent", async () => {
    const site = await serveWebHandler(async () => new Response("Not Found", { status: 404 }))
    try {
      const e = await failure(A2AClient.make({ url: `${site.url}/some/page` }, quick))
      expect(e._tag).toBe("InvalidAgentResponse")
      if (e._tag === "InvalidAgentResponse") expect(invalidAnswerReason(e)).toBe("NoAgentCard")
    } finally {
      await site.close()
    }
  })

  it("reports a site answering HTML everywhere as a non-JSON answer", async () => {
    const site = await serveWebHandler(async () => new Response("<html></html>", { headers: { "content-type": "text/html" } }))
    try {
      const e = await failure(A2AClient.make({ url: site.url }, quick))
      expect(e._tag === "InvalidAgentResponse" && invalidAnswerReason(e)).toBe("NotJson")
    } finally {
      await site.close()
    }
  })

  it("reports an unreachable host as a transport error", async () => {
    const dead = await serveWebHandler(async () => new Response(null))
    await dead.close()
    const e = await failure(A2AClient.make({ url: dead.url }, quick))
    expect(e).toMatchObject({ _tag: "A2AClientTransportError", reason: "Unreachable" })
  })
})

describe("calls", () => {
  it("decodes JSON-RPC errors into the tagged protocol errors", async () => {
    const client = await Effect.runPromise(at("/rpc"))
    expect(await failure(client.getTask({ id: "nope" }))).toMatchObject({ _tag: "TaskNotFound", code: -32001 })
    expect(await failure(client.cancelTask({ id: "task-1" }))).toMatchObject({ _tag: "TaskNotCancelable" })
    const viaTable = await Effect.runPromise(client.call("tasks/get", { id: "task-1" }))
    expect(viaTable.status.state).toBe("completed")
  })

  it.each([
    ["/not-json", "NotJson"],
    ["/wrong-id", "WrongId"],
    ["/wrong-shape", "WrongShape"]
  ] as const)("refuses %s as InvalidAgentResponse %s", async (path, reason) => {
    const client = await Effect.runPromise(at(path))
    const e = await failure(client.getTask({ id: "task-1" }))
    expect(e._tag).toBe("InvalidAgentResponse")
    if (e._tag === "InvalidAgentResponse") expect(invalidAnswerReason(e)).toBe(reason)
  })

  it("reports an HTTP error status without a JSON-RPC body as a transport error", async () => {
    const client = await Effect.runPromise(at("/http-503"))
    expect(await failure(client.getTask({ id: "task-1" }))).toMatchObject({
      _tag: "A2AClientTransportError",
      reason: "HttpStatus",
      status: 503
    })
  })

  it("times out a request that is never answered", async () => {
    const client = await Effect.runPromise(at("/silent", { ...quick, timeoutMs: 200 }))
    const started = Date.now()
    expect(await failure(client.getTask({ id: "task-1" }))).toMatchObject({ reason: "Timeout" })
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it("runs interceptors on every request", async () => {
    const client = await Effect.runPromise(
      A2AClient.make({ endpoint: `${server.url}/rpc` }, {
        ...quick,
        interceptors: [authHeader({ token: async () => "s3cret" }), extensionsHeader(["urn:ext:a", "urn:ext:b"])]
      })
    )
    const before = agent.requestHeaders.length
    await Effect.runPromise(client.getTask({ id: "task-1" }))
    const headers = agent.requestHeaders[before]!
    expect(headers.get("authorization")).toBe("Bearer s3cret")
    expect(headers.get("x-a2a-extensions")).toBe("urn:ext:a, urn:ext:b")
  })

  it("refuses a credential that would split the header", async () => {
    const client = await Effect.runPromise(
      A2AClient.make({ endpoint: `${server.url}/rpc` }, { ...quick, interceptors: [authHeader({ token: "x\r\nX-Evil: 1" })] })
    )
    expect(await failure(client.getTask({ id: "task-1" }))).toMatchObject({ reason: "Request" })
  })
})

describe("streams", () => {
  it("resumes a cut stream with Last-Event-ID: no event lost, none repeated", async () => {
    const client = await Effect.runPromise(at("/rpc"))
    const before = agent.resubscribes.length
    const events = await Effect.runPromise(Stream.runCollect(client.streamMessage(userText("go"))))
    expect(events).toEqual(scriptedEvents)
    expect(agent.resubscribes.slice(before)).toEqual(["3"])
  })

  it("resumes a cut stream without ids: redundant snapshot and replayed event are dropped", async () => {
    const noIds = hostileAgent()
    const own = await serveWebHandler(noIds.handler)
    try {
      const client = await Effect.runPromise(A2AClient.make({ endpoint: `${own.url}/rpc-noids` }, quick))
      const events = await Effect.runPromise(Stream.runCollect(client.streamMessage(userText("go"))))
      expect(events).toEqual(scriptedEvents)
      expect(noIds.resubscribes).toEqual([null])
    } finally {
      await own.close()
    }
  })

  it("without resumption a cut stream fails as Dropped after the delivered events", async () => {
    const fresh = hostileAgent()
    const own = await serveWebHandler(fresh.handler)
    try {
      const client = await Effect.runPromise(A2AClient.make({ endpoint: `${own.url}/rpc` }, { ...quick, resume: false }))
      const seen: Array<unknown> = []
      const exit = await Effect.runPromiseExit(Stream.runForEach(client.streamMessage(userText("go")), (e) => Effect.sync(() => seen.push(e))))
      expect(seen).toEqual(scriptedEvents.slice(0, 3))
      expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("Dropped")
    } finally {
      await own.close()
    }
  })

  it("refuses a JSON reply to a stream request", async () => {
    const client = await Effect.runPromise(at("/json-to-stream"))
    const e = await failure(Stream.runCollect(client.streamMessage(userText("go"))))
    expect(e._tag === "InvalidAgentResponse" && invalidAnswerReason(e)).toBe("NotSse")
  })

  it("fails a stream that stays silent past the idle timeout, after delivering what came", async () => {
    const client = await Effect.runPromise(at("/never-ends", { ...quick, idleTimeoutMs: 300 }))
    const seen: Array<unknown> = []
    const result = await Effect.runPromise(
      Stream.runForEach(client.resubscribe({ id: "task-1" }), (e) => Effect.sync(() => seen.push(e))).pipe(Effect.result)
    )
    expect(seen).toEqual([scriptedEvents[0]])
    expect(Result.isFailure(result) && result.failure._tag === "InvalidAgentResponse" && invalidAnswerReason(result.failure)).toBe("IdleTimeout")
  })

  it("refuses an event larger than maxEventBytes without buffering it whole", async () => {
    const client = await Effect.runPromise(at("/giant", { ...quick, maxEventBytes: 16 * 1024 }))
    const e = await failure(Stream.runCollect(client.streamMessage(userText("go"))))
    expect(e._tag === "InvalidAgentResponse" && invalidAnswerReason(e)).toBe("TooLarge")
  })

  it("interrupting the consuming fiber ends the stream and releases the connection", async () => {
    const client = await Effect.runPromise(at("/never-ends"))
    const before = agent.cancelled.length
    const started = Date.now()
    const result = await Effect.runPromise(
      Stream.runCollect(client.resubscribe({ id: "task-1" })).pipe(Effect.timeout(150), Effect.option)
    )
    expect(result._tag).toBe("None")
    expect(Date.now() - started).toBeLessThan(2_000)
    await eventually(() => agent.cancelled.length > before)
  })

  it("leaving a finished stream early never hangs (Node 20 fetch pitfall)", async () => {
    const client = await createA2AClient({ endpoint: `${server.url}/complete-stream` }, quick)
    for (let round = 0; round < 20; round++) {
      let last: unknown
      for await (const event of client.resubscribe({ id: "task-1" })) {
        last = event
        if (event.kind === "status-update" && event.final) break
      }
      expect(last).toEqual(scriptedEvents[5])
    }
  })
})

describe("Promise API", () => {
  it("rejects with the tagged error itself", async () => {
    const client = await createA2AClient({ url: server.url }, quick)
    await expect(client.getTask({ id: "nope" })).rejects.toMatchObject({ _tag: "TaskNotFound", message: "Task nope not found" })
    const events: Array<string> = []
    for await (const event of client.streamMessage(userText("go"))) events.push(event.kind)
    expect(events).toEqual(["task", "status-update", "artifact-update", "artifact-update", "artifact-update", "status-update"])
  })

  it("an AbortSignal ends a pending call promptly with the signal's reason", async () => {
    const client = await createA2AClient({ endpoint: `${server.url}/silent` }, quick)
    const controller = new AbortController()
    const started = Date.now()
    setTimeout(() => controller.abort(), 50)
    await expect(client.getTask({ id: "task-1" }, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" })
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it("an AbortSignal ends a stream promptly and cancels its body", async () => {
    const client = await createA2AClient({ endpoint: `${server.url}/never-ends` }, quick)
    const controller = new AbortController()
    const before = agent.cancelled.length
    const seen: Array<unknown> = []
    const consume = async () => {
      for await (const event of client.resubscribe({ id: "task-1" }, { signal: controller.signal })) {
        seen.push(event)
        controller.abort()
      }
    }
    const started = Date.now()
    await expect(consume()).rejects.toMatchObject({ name: "AbortError" })
    expect(seen).toHaveLength(1)
    expect(Date.now() - started).toBeLessThan(1_000)
    await eventually(() => agent.cancelled.length > before)
  })
})
