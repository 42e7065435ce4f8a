/**
 * Traces exported over OTLP/HTTP to a real receiver on loopback: a request's span takes its parent from the
 * caller's `traceparent`, the task's span is its child with every transition as an event, and the agent's run
 * is the task span's child.
 */
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { A2AServer, type A2AServerHandle } from "../server/a2a-server.ts"
import { serveWebHandler, type TestServer } from "../../testing/client/node-server.ts"
import { startOtlpReceiver, type OtlpReceiver } from "../../testing/telemetry/otlp-receiver.ts"
import { testCard } from "../../testing/server/test-agent.ts"

const rpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params })
const message = (text: string) => ({ message: { kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text }] } })

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close()
})

const start = async (agent: Agent, otlp: OtlpReceiver): Promise<{ server: A2AServerHandle; http: TestServer }> => {
  const server = await A2AServer.make(agent, {
    telemetry: { otlp: { endpoint: otlp.url, protocol: "http/json", serviceName: "traced agent", exportIntervalMs: 50 } }
  })
  const http = await serveWebHandler(server.handler)
  cleanup.push(() => server.dispose({ graceMs: 0 }), () => http.close())
  return { server, http }
}

describe("traces over OTLP", () => {
  it("parents a request's span on its traceparent, and the task and the agent's run below it", async () => {
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    const agent = Agent.make({
      card: testCard(),
      execute: (ctx) => Effect.andThen(ctx.working("thinking"), ctx.complete("done"))
    })
    const { http } = await start(agent, otlp)
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    const callerSpan = "00f067aa0ba902b7"
    const response = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${traceId}-${callerSpan}-01`, authorization: "Bearer secret-token" },
      body: rpc(1, "message/send", message("a secret question"))
    })
    const task = (await response.json()).result
    expect(task.status.state).toBe("completed")

    const spans = await otlp.until(() => {
      const all = otlp.spans()
      return ["a2a.request", "a2a.task", "a2a.agent.run"].every((n) => all.some((s) => s.name === n)) ? all : undefined
    })
    const request = spans.find((s) => s.name === "a2a.request")!
    expect(request.traceId).toBe(traceId)
    expect(request.parentSpanId).toBe(callerSpan)
    expect(request.kind).toBe(2)
    expect(request.service).toBe("traced agent")
    expect(request.attributes).toMatchObject({
      "a2a.method": "message/send",
      "a2a.binding": "jsonrpc",
      "a2a.version": "0.3",
      "a2a.principal": "anonymous",
      "a2a.task.id": task.id,
      "a2a.result.code": 0
    })
    const taskSpan = spans.find((s) => s.name === "a2a.task")!
    expect(taskSpan.traceId).toBe(traceId)
    expect(taskSpan.parentSpanId).toBe(request.spanId)
    expect(taskSpan.attributes).toMatchObject({ "a2a.task.id": task.id, "a2a.task.state": "completed" })
    expect(taskSpan.events.map((e) => e.attributes["a2a.task.state"])).toEqual(["submitted", "working", "completed"])
    const run = spans.find((s) => s.name === "a2a.agent.run")!
    expect(run.parentSpanId).toBe(taskSpan.spanId)
    expect(run.attributes).toMatchObject({ "a2a.task.id": task.id })
    // Nothing secret: no token and no message text in any attribute or event.
    const exported = JSON.stringify(spans)
    expect(exported).not.toContain("secret-token")
    expect(exported).not.toContain("a secret question")
  })

  it("answers a failed request with its error code on the span, and starts a trace of its own without traceparent", async () => {
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    const { http } = await start(Agent.make({ card: testCard(), execute: (ctx) => ctx.complete("done") }), otlp)
    const response = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: rpc(2, "tasks/get", { id: "no-such-task" })
    })
    expect((await response.json()).error.code).toBe(-32001)
    const request = await otlp.until(() => otlp.spans().find((s) => s.name === "a2a.request"))
    expect(request.parentSpanId).toBeUndefined()
    expect(request.attributes).toMatchObject({ "a2a.method": "tasks/get", "a2a.result.code": -32001, "a2a.task.id": "no-such-task" })
  })

  it("exports the server's log lines over OTLP with the trace and span they were written in", async () => {
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    const agent = Agent.make({
      card: testCard(),
      execute: (ctx) => Effect.andThen(Effect.logInfo("looking the order up"), ctx.complete("done"))
    })
    const { http } = await start(agent, otlp)
    const traceId = "0af7651916cd43dd8448eb211c80319c"
    await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${traceId}-b7ad6b7169203331-01` },
      body: rpc(3, "message/send", message("where is my order?"))
    })
    const log = await otlp.until(() => otlp.logs().find((l) => l.body === "looking the order up"))
    const run = await otlp.until(() => otlp.spans().find((s) => s.name === "a2a.agent.run"))
    expect(log).toMatchObject({ severityText: "Info", traceId, spanId: run.spanId, service: "traced agent" })
  })

  it("takes the endpoint, headers, protocol and service name from the OTEL_* environment with otlp: true", async () => {
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=k%3D1,x-tenant=ops",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "from the environment"
    }
    Object.assign(process.env, env)
    cleanup.push(async () => {
      for (const name of Object.keys(env)) delete process.env[name]
    })
    const server = await A2AServer.make(Agent.make({ card: testCard(), execute: (ctx) => ctx.complete("done") }), { telemetry: { otlp: true } })
    const http = await serveWebHandler(server.handler)
    cleanup.push(() => http.close())
    await fetch(http.url, { method: "POST", headers: { "content-type": "application/json" }, body: rpc(4, "message/send", message("hi")) })
    await server.dispose({ graceMs: 0 })
    const request = await otlp.until(() => otlp.spans().find((s) => s.name === "a2a.request"))
    expect(request.service).toBe("from the environment")
    const traces = otlp.requests().find((r) => r.path === "/v1/traces")!
    expect(traces.headers["x-collector-key"]).toBe("k=1")
    expect(traces.headers["x-tenant"]).toBe("ops")
  })

  it("refuses to start OTLP export with no endpoint, naming the variable to set", async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
    await expect(A2AServer.make(Agent.make({ card: testCard(), execute: (ctx) => ctx.complete("done") }), { telemetry: { otlp: true } }))
      .rejects.toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/)
  })
})
