/**
 * A trace crosses agents: the client's call carries `traceparent`, so a task on one server that calls another
 * agent through `A2AClient` shows up in one trace (client → agent → agent); a push delivery's span is linked to
 * its task's span, and the webhook request carries the attempt's `traceparent`.
 */
import { Effect, Tracer } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { A2AClient } from "../client/index.ts"
import { A2AServer } from "../server/a2a-server.ts"
import type { TelemetryOptions } from "./telemetry-options.ts"
import { serveNode } from "../adapters/node.ts"
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../../testing/telemetry/otlp-receiver.ts"
import { testCard } from "../../testing/server/test-agent.ts"
import { pushTestCard, quickAgent } from "../../testing/server/push-agents.ts"
import { pushTestOptions, sendParams, waitUntil } from "../../testing/server/push-harness.ts"
import { startWebhookStub } from "../../testing/push/webhook-stub.ts"

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close()
})

const otlpTo = (otlp: OtlpReceiver, serviceName: string): TelemetryOptions => ({
  otlp: { endpoint: otlp.url, protocol: "http/json", serviceName, exportIntervalMs: 50 }
})

const serve = async (agent: Agent, telemetry: TelemetryOptions, extra: Parameters<typeof A2AServer.make>[1] = {}) => {
  const server = await A2AServer.make(agent, { ...extra, telemetry })
  const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
  cleanup.push(() => listening.close({ graceMs: 0 }))
  return listening.url
}

/** The outermost caller's tracer: Effect's own spans, kept to read their ids. */
const recordingTracer = (() => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span(options) {
      const span = Tracer.nativeTracer.span(options)
      spans.push(span)
      return span
    }
  })
  return { spans, tracer }
})()

const userText = (text: string) => ({ kind: "message" as const, role: "user" as const, messageId: crypto.randomUUID(), parts: [{ kind: "text" as const, text }] })

/** The client speaks 1.0 to our servers, where `message/send` is `SendMessage`. */
const isSend = (method: unknown) => method === "SendMessage" || method === "message/send"

const byName = (spans: ReadonlyArray<ReceivedSpan>, service: string, name: string) =>
  spans.filter((s) => s.service === service && s.name === name)

describe("a trace across agents", () => {
  it("follows a call from a client through one agent into another", async () => {
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    const downstream = await serve(
      Agent.make({ card: testCard({ name: "spell checker" }), execute: (ctx) => ctx.complete(`checked: ${messageText(ctx.message)}`) }),
      otlpTo(otlp, "spell checker")
    )
    const upstream = await serve(
      Agent.make({
        card: testCard({ name: "writer" }),
        execute: (ctx) =>
          Effect.gen(function*() {
            const checker = yield* A2AClient.make({ url: downstream })
            const answer = yield* checker.sendMessage({ message: userText("helo") })
            yield* ctx.complete(answer.kind === "task" ? `the checker said ${answer.status.state}` : "the checker answered")
          }).pipe(Effect.scoped, Effect.orDie)
      }),
      otlpTo(otlp, "writer")
    )
    // The outermost caller traces too: its span is the root of the whole trace.
    const callerOtlp = await Effect.runPromise(
      Effect.scoped(Effect.gen(function*() {
        const client = yield* A2AClient.make({ url: upstream })
        return yield* client.sendMessage({ message: userText("write me a poem") })
      })).pipe(Effect.withSpan("caller"), Effect.withTracer(recordingTracer.tracer))
    )
    expect(callerOtlp.kind === "task" && callerOtlp.status.state).toBe("completed")

    const spans = await otlp.until(() => {
      const all = otlp.spans()
      return byName(all, "spell checker", "a2a.agent.run").length === 1 && byName(all, "writer", "a2a.task").length === 1 ? all : undefined
    })
    const caller = recordingTracer.spans.find((s) => s.name === "a2a.client.request" && isSend(s.attributes.get("a2a.method")))!
    const writerRequest = byName(spans, "writer", "a2a.request").find((s) => isSend(s.attributes["a2a.method"]))!
    expect(writerRequest.traceId).toBe(caller.traceId)
    expect(writerRequest.parentSpanId).toBe(caller.spanId)
    const writerTask = byName(spans, "writer", "a2a.task")[0]!
    const writerRun = byName(spans, "writer", "a2a.agent.run")[0]!
    expect(writerTask.parentSpanId).toBe(writerRequest.spanId)
    expect(writerRun.parentSpanId).toBe(writerTask.spanId)
    // The writer's agent called the checker: card fetch and message/send are client spans under its run.
    const writerCalls = byName(spans, "writer", "a2a.client.request")
    const send = writerCalls.find((s) => isSend(s.attributes["a2a.method"]))!
    expect(send.kind).toBe(3)
    expect(send.parentSpanId).toBe(writerRun.spanId)
    expect(send.attributes["http.response.status_code"]).toBe(200)
    const checkerRequest = byName(spans, "spell checker", "a2a.request").find((s) => isSend(s.attributes["a2a.method"]))!
    expect(checkerRequest.parentSpanId).toBe(send.spanId)
    const checkerTask = byName(spans, "spell checker", "a2a.task")[0]!
    expect(checkerTask.parentSpanId).toBe(checkerRequest.spanId)
    // One trace, end to end.
    const traceIds = new Set(spans.filter((s) => s.name !== "a2a.push.delivery").map((s) => s.traceId))
    expect([...traceIds]).toEqual([caller.traceId])
  })

  it("links a push delivery's span to its task and sends the attempt's traceparent to the webhook", async () => {
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    let fail = 1
    const webhook = await startWebhookStub(() => (fail-- > 0 ? 503 : 200))
    cleanup.push(() => webhook.close())
    const url = await serve(quickAgent(pushTestCard()).agent, otlpTo(otlp, "pusher"), { push: pushTestOptions() })
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: sendParams("go", { push: { url: `${webhook.url}/hook`, token: "push-secret" } })
      })
    })
    const task = (await response.json()).result
    expect(task.status.state).toBe("completed")
    await waitUntil(() => webhook.accepted.some((c) => JSON.parse(c.body).status.state === "completed"), "the completed snapshot")

    const spans = await otlp.until(() => {
      const all = otlp.spans()
      const done = all.filter((s) => s.name === "a2a.push.delivery" && s.attributes["a2a.task.state"] === "completed")
      return done.length === 1 && all.some((s) => s.name === "a2a.task") ? all : undefined
    })
    const taskSpan = spans.find((s) => s.name === "a2a.task")!
    const deliveries = spans.filter((s) => s.name === "a2a.push.delivery")
    for (const delivery of deliveries) {
      expect(delivery.links).toEqual([{ traceId: taskSpan.traceId, spanId: taskSpan.spanId }])
      expect(delivery.attributes["a2a.task.id"]).toBe(task.id)
      expect(delivery.attributes["url.full"]).toBe(`${webhook.url}/hook`)
    }
    // The first delivery's first attempt got 503 and was retried: two attempt spans under it.
    const attempts = spans.filter((s) => s.name === "a2a.push.attempt")
    const first = deliveries.find((d) => attempts.filter((a) => a.parentSpanId === d.spanId).length === 2)!
    const tries = attempts.filter((a) => a.parentSpanId === first.spanId).sort((a, b) => Number(a.attributes["a2a.push.attempt"]) - Number(b.attributes["a2a.push.attempt"]))
    expect(tries.map((a) => [a.attributes["a2a.push.outcome"], a.attributes["http.response.status_code"]])).toEqual([["retry", 503], ["delivered", 200]])
    // Each webhook call carried the traceparent of its attempt.
    const sent = webhook.calls.map((c) => c.headers.traceparent)
    for (const attempt of attempts) expect(sent).toContain(`00-${attempt.traceId}-${attempt.spanId}-01`)
    expect(JSON.stringify(spans)).not.toContain("push-secret")
  })

  it("passes the caller's tracestate on, unchanged, with the calls its task makes to another agent", async () => {
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    const downstream = await serve(Agent.make({ card: testCard({ name: "downstream" }), execute: (ctx) => ctx.complete("ok") }), otlpTo(otlp, "downstream"))
    const sent: Array<{ operation: string; traceparent: string | null; tracestate: string | null }> = []
    const upstream = await serve(
      Agent.make({
        card: testCard({ name: "upstream" }),
        execute: (ctx) =>
          Effect.gen(function*() {
            const next = yield* A2AClient.make({ url: downstream }, {
              interceptors: [{
                onRequest: (request) =>
                  void sent.push({ operation: request.operation, traceparent: request.headers.get("traceparent"), tracestate: request.headers.get("tracestate") })
              }]
            })
            yield* next.sendMessage({ message: userText("pass it on") })
            yield* ctx.complete("done")
          }).pipe(Effect.scoped, Effect.orDie)
      }),
      otlpTo(otlp, "upstream")
    )
    const traceId = "a3ce929d0e0e47364bf92f3577b34da6"
    const answer = await (await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${traceId}-a902b700f067aa0b-01`, tracestate: "vendor=opaque-1,other=2" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: userText("go") } })
    })).json()
    expect(answer.result.status.state).toBe("completed")
    const call = sent.find((s) => isSend(s.operation))!
    expect(call.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`))
    expect(call.tracestate).toBe("vendor=opaque-1,other=2")
  })
})
