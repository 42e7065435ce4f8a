/**
 * Streams over a real socket: many at once, a client that goes away mid-way, and shutdown.
 */
import { Deferred, Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { serveNode } from "../adapters/node.ts"
import type { Listening } from "../adapters/listening.ts"
import { A2AServer } from "./a2a-server.ts"
import { openStream, rpc, userMessage } from "../../testing/server/rpc.ts"

const card = {
  name: "stream test agent",
  description: "Emits numbered artifact chunks.",
  version: "1.0.0",
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: []
}

/** Emits `count` chunks (count from the message text), then completes. */
const chunkAgent = Agent.make({
  card,
  execute: (ctx) =>
    Effect.gen(function* () {
      const count = Number(messageText(ctx.message))
      for (let i = 0; i < count; i++) {
        yield* ctx.artifact(`chunk-${i}`, { artifactId: "a", append: i > 0, lastChunk: i === count - 1 })
      }
      yield* ctx.complete()
    })
})

let listening: Listening | undefined
afterEach(async () => {
  await listening?.close({ graceMs: 0 })
  listening = undefined
})

const results = (events: ReadonlyArray<{ json: unknown }>) => events.map((e) => (e.json as { result: any }).result)

describe("streaming over a real socket", () => {
  it("serves 1,000 concurrent streams, each receiving every event in order", async () => {
    listening = await serveNode(await A2AServer.make(chunkAgent, { heartbeatMs: 0 }))
    const url = `${listening.url}/`
    const chunks = 10
    const outcomes = await Promise.all(Array.from({ length: 1_000 }, async () => {
      const stream = await openStream(url, "message/stream", { message: userMessage(String(chunks)) }, {}, 60_000)
      await stream.waitForEnd(60_000)
      const events = results(stream.received)
      const ids = stream.received.map((e) => Number(e.id))
      return { events, ids }
    }))
    for (const { events, ids } of outcomes) {
      expect(events[0].kind).toBe("task")
      const texts = events.filter((e) => e.kind === "artifact-update").map((e) => e.artifact.parts[0].text)
      expect(texts).toEqual(Array.from({ length: chunks }, (_, i) => `chunk-${i}`))
      expect(events.at(-1)).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } })
      expect(ids).toEqual(ids.map((_, i) => i + 1))
    }
  }, 120_000)

  it("keeps the task running when the client disconnects, and resumes exactly after Last-Event-ID", async () => {
    const gate = Effect.runSync(Deferred.make<void>())
    const agent = Agent.make({
      card,
      execute: (ctx) =>
        Effect.gen(function* () {
          for (let i = 0; i < 4; i++) yield* ctx.artifact(`early-${i}`, { artifactId: "a", append: i > 0 })
          yield* Deferred.await(gate)
          for (let i = 0; i < 4; i++) yield* ctx.artifact(`late-${i}`, { artifactId: "a", append: true, lastChunk: i === 3 })
          yield* ctx.complete("finished")
        })
    })
    const server = await A2AServer.make(agent, { heartbeatMs: 0 })
    listening = await serveNode(server)
    const url = `${listening.url}/`

    const first = await openStream(url, "message/stream", { message: userMessage("go") })
    const seen = await first.until((e) => (e.json as any).result?.artifact?.parts?.[0]?.text === "early-1")
    const taskId = (seen[0]!.json as any).result.id as string
    const lastSeen = Number(seen.at(-1)!.id)
    await first.close()

    Effect.runSync(Deferred.succeed(gate, undefined))
    const deadline = Date.now() + 10_000
    let state = ""
    while (state !== "completed" && Date.now() < deadline) {
      state = (await rpc(url, "tasks/get", { id: taskId })).body.result.status.state
    }
    expect(state).toBe("completed")

    const resumed = await openStream(url, "tasks/resubscribe", { id: taskId }, { "last-event-id": String(lastSeen) })
    expect(await resumed.waitForEnd()).toBe(true)
    const ids = resumed.received.map((e) => Number(e.id))
    expect(ids[0]).toBe(lastSeen + 1)
    expect(ids).toEqual(ids.map((_, i) => lastSeen + 1 + i))
    const texts = results(resumed.received).filter((e) => e.kind === "artifact-update").map((e) => e.artifact.parts[0].text)
    expect(texts).toEqual(["early-2", "early-3", "late-0", "late-1", "late-2", "late-3"])
    expect(results(resumed.received).at(-1)).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } })
  })

  it("ends open streams cleanly on shutdown and cancels tasks still running after the grace period", async () => {
    const never = Agent.make({ card, execute: (ctx) => Effect.andThen(ctx.working("waiting"), Effect.never) })
    const server = await A2AServer.make(never, { heartbeatMs: 0 })
    listening = await serveNode(server)
    const url = `${listening.url}/`
    const stream = await openStream(url, "message/stream", { message: userMessage("hold") })
    const [task] = await stream.until((e) => (e.json as any).result?.kind === "status-update")
    const taskId = (task!.json as any).result.id as string
    const closing = listening.close({ graceMs: 50 })
    listening = undefined
    expect(await stream.waitForEnd(10_000)).toBe(true)
    await closing
    const stored = await Effect.runPromise(server.runtime.store.get(taskId))
    expect(stored._tag === "Some" ? stored.value.task.status.state : "missing").toBe("canceled")
  })

  it("refuses a body over the limit before parsing it, and keeps serving", async () => {
    listening = await serveNode(await A2AServer.make(chunkAgent, { maxBodyBytes: 1024 }))
    const url = `${listening.url}/`
    const big = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pad: "x".repeat(4096) }) })
    expect(big.status).toBe(413)
    expect(await big.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } })
    const ok = await rpc(url, "message/send", { message: userMessage("1") })
    expect(ok.body.result.status.state).toBe("completed")
  })
})
