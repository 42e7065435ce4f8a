/**
 * Client checks for SSE streams, resumption and cancellation, written against Web APIs and the
 * client's public API only, so they run unchanged on Node, Bun and Deno. Every stream comes from the
 * host runtime's own server, so a mid-body cut is a real connection reset seen by that runtime's fetch.
 *
 * @module
 */
import { Effect, Stream } from "effect"
import { A2AClient, createA2AClient, userText } from "../../src/client/index.ts"
import { hostileAgent, scriptedEvents } from "../../testing/client/hostile-agent.ts"
import { assert, assertEqual, assertFields, type Check, check, eventually, rejection } from "./check-kit.ts"
import { type ClientCheckContext, countingFetch, drain, quick, reasonOf, withServer } from "./check-context.ts"
import { splitEvents, splitStreamAgent } from "./split-stream-agent.ts"

/** Streams, resumption, aborts. */
export const streamChecks: ReadonlyArray<Check<ClientCheckContext>> = [
  check("stream: a complete stream delivers every event in order", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/complete-stream` }, quick)
    const { seen, error } = await drain(client.resubscribe({ id: "task-1" }))
    assertEqual(error, undefined, "stream failure")
    assertEqual(seen, scriptedEvents, "events")
  }),

  check("stream: events split across reads (inside UTF-8 characters, CRLF and CR endings) are reassembled", async ({ serve }) => {
    await withServer(serve, splitStreamAgent(3), async (site) => {
      const counter = { chunks: 0 }
      const client = await createA2AClient({ endpoint: site }, { ...quick, fetch: countingFetch(counter) })
      const { seen, error } = await drain(client.streamMessage(userText("go")))
      assertEqual(error, undefined, "stream failure")
      assertEqual(seen, splitEvents, "events")
      assert(counter.chunks >= 20, `the body arrived in only ${counter.chunks} reads, too few to split events`)
    })
  }),

  check("stream: a stream silent past the idle timeout fails IdleTimeout within the bound", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/never-ends` }, { ...quick, idleTimeoutMs: 300 })
    const started = Date.now()
    const { seen, error } = await drain(client.resubscribe({ id: "task-1" }))
    const elapsed = Date.now() - started
    assertEqual(seen, [scriptedEvents[0]], "events before the silence")
    assertEqual(reasonOf(error), "IdleTimeout", `reason (error ${String(error)})`)
    assert(elapsed < 3_000, `gave up after ${elapsed} ms, idle bound 300 ms`)
  }),

  check("stream: an event above maxEventBytes fails TooLarge", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/giant` }, { ...quick, maxEventBytes: 16 * 1024 })
    const { seen, error } = await drain(client.streamMessage(userText("go")))
    assertEqual(seen, [], "events")
    assertEqual(reasonOf(error), "TooLarge", `reason (error ${String(error)})`)
  }),

  check("stream: a JSON reply to a stream request fails NotSse", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/json-to-stream` }, quick)
    const { error } = await drain(client.streamMessage(userText("go")))
    assertEqual(reasonOf(error), "NotSse", `reason (error ${String(error)})`)
  }),

  check("resume: a stream cut mid-way resumes with Last-Event-ID, nothing lost or repeated", async ({ serve }) => {
    const agent = hostileAgent()
    await withServer(serve, agent.handler, async (site) => {
      const client = await createA2AClient({ endpoint: `${site}/rpc` }, quick)
      const { seen, error } = await drain(client.streamMessage(userText("go")))
      assertEqual(error, undefined, "stream failure")
      assertEqual(seen, scriptedEvents, "events")
      assertEqual(agent.resubscribes, ["3"], "Last-Event-ID of each resubscribe")
    })
  }),

  check("resume: a stream without ids resumes from a snapshot, nothing lost or repeated", async ({ serve }) => {
    const agent = hostileAgent()
    await withServer(serve, agent.handler, async (site) => {
      const client = await createA2AClient({ endpoint: `${site}/rpc-noids` }, quick)
      const { seen, error } = await drain(client.streamMessage(userText("go")))
      assertEqual(error, undefined, "stream failure")
      assertEqual(seen, scriptedEvents, "events")
      assertEqual(agent.resubscribes, [null], "Last-Event-ID of each resubscribe")
    })
  }),

  check("resume: with resumption off, a cut is read as a broken connection (Dropped) after the delivered events", async ({ serve }) => {
    const agent = hostileAgent()
    await withServer(serve, agent.handler, async (site) => {
      const client = await createA2AClient({ endpoint: `${site}/rpc` }, { ...quick, resume: false })
      const { seen, error } = await drain(client.streamMessage(userText("go")))
      assertEqual(seen, scriptedEvents.slice(0, 3), "events before the cut")
      assertFields(error, { _tag: "A2AClientTransportError", reason: "Dropped" }, "error")
      // The reader's own failure, not a clean end of body: proves the runtime surfaced the reset.
      assert(String((error as Error).message).includes("broke off"), `not a read failure: ${(error as Error).message}`)
    })
  }),

  check("stream: leaving a finished stream early never hangs (20 rounds)", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/complete-stream` }, quick)
    for (let round = 0; round < 20; round++) {
      let last: unknown
      for await (const event of client.resubscribe({ id: "task-1" })) {
        last = event
        if (event.kind === "status-update" && event.final) break
      }
      assertEqual(last, scriptedEvents[5], `last event of round ${round}`)
    }
  }),

  check("abort: an AbortSignal rejects a pending call promptly with the signal's reason", async ({ url }) => {
    const client = await createA2AClient({ endpoint: `${url}/silent` }, quick)
    const controller = new AbortController()
    const started = Date.now()
    setTimeout(() => controller.abort(), 50)
    const e = await rejection(client.getTask({ id: "task-1" }, { signal: controller.signal }), "aborted tasks/get")
    const elapsed = Date.now() - started
    assertFields(e, { name: "AbortError" }, "rejection")
    assert(elapsed < 1_500, `settled ${elapsed} ms after the call, abort at 50 ms`)
  }),

  check("abort: an AbortSignal ends a stream promptly and the server sees the body cancelled", async ({ url, agent }) => {
    const client = await createA2AClient({ endpoint: `${url}/never-ends` }, quick)
    const controller = new AbortController()
    const before = agent.cancelled.length
    const started = Date.now()
    const seen: Array<unknown> = []
    const e = await rejection(
      (async () => {
        for await (const event of client.resubscribe({ id: "task-1" }, { signal: controller.signal })) {
          seen.push(event)
          controller.abort()
        }
      })(),
      "aborted stream"
    )
    const elapsed = Date.now() - started
    assertFields(e, { name: "AbortError" }, "rejection")
    assertEqual(seen, [scriptedEvents[0]], "events before the abort")
    assert(elapsed < 1_500, `settled after ${elapsed} ms`)
    await eventually(() => agent.cancelled.length > before, "the server cancelling the response body")
  }),

  check("abort: interrupting the consuming fiber ends the stream and releases the connection", async ({ url, agent }) => {
    const client = await Effect.runPromise(A2AClient.make({ endpoint: `${url}/never-ends` }, quick))
    const before = agent.cancelled.length
    const started = Date.now()
    const result = await Effect.runPromise(
      Stream.runCollect(client.resubscribe({ id: "task-1" })).pipe(Effect.timeout(150), Effect.option)
    )
    const elapsed = Date.now() - started
    assertEqual(result._tag, "None", "outcome of the timed-out collection")
    assert(elapsed < 1_500, `interrupted after ${elapsed} ms, timeout 150 ms`)
    await eventually(() => agent.cancelled.length > before, "the server cancelling the response body")
  })
]
