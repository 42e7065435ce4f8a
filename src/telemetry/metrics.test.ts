/**
 * Metrics after a known workload: the Prometheus endpoint (behind the server's authentication), read by an
 * independent text-format parser, and the same metrics exported over OTLP/HTTP to a real receiver.
 */
import { afterEach, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { serveMetrics, serveNode } from "../adapters/node.ts"
import { memoryAuditSink } from "../audit/audit-sink.ts"
import { A2AServer, type A2AServerConfig } from "../server/a2a-server.ts"
import { testAgent } from "../../testing/server/test-agent.ts"
import { family, histogramSeries, parsePrometheus, sample } from "../../testing/telemetry/prometheus-text.ts"
import { startOtlpReceiver, type ReceivedPoint } from "../../testing/telemetry/otlp-receiver.ts"

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close()
})

const key = { "x-api-key": "scraper-key" }
const securedAgent = () =>
  testAgent({ securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } }, security: [{ key: [] }] })
const authentication = { authenticators: { key: apiKeyAuthenticator({ keys: { "scraper-key": { id: "ops" } } }) } }

const message = (text: string) => ({ message: { kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text }] } })

/** The workload: three sends (one held open), an unknown task, a stream, and a resubscribe read to its first event. */
const workload = async (url: string, headers: Record<string, string> = {}) => {
  let id = 0
  const post = (method: string, params: unknown, signal?: AbortSignal) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
      ...(signal !== undefined ? { signal } : {})
    })
  for (const text of ["one", "two"]) expect((await (await post("message/send", message(text))).json()).result.status.state).toBe("completed")
  const held = (await (await post("message/send", message("hold"))).json()).result
  expect(held.status.state).toBe("working")
  expect((await (await post("tasks/get", { id: "no-such-task" })).json()).error.code).toBe(-32001)
  const streamed = await (await post("message/stream", message("three"))).text()
  expect(streamed.match(/^data: /gm)?.length).toBe(2)
  const abort = new AbortController()
  const resubscribed = await post("tasks/resubscribe", { id: held.id }, abort.signal)
  const reader = resubscribed.body!.getReader()
  const first = new TextDecoder().decode((await reader.read()).value)
  expect(first).toContain("data: ")
  abort.abort()
  await reader.cancel().catch(() => undefined)
}

describe("metrics", () => {
  it("serves /metrics in Prometheus' text format, behind the server's authentication, with the workload's numbers", async () => {
    const audit = await Effect.runPromise(memoryAuditSink())
    const config: A2AServerConfig = { authentication, audit, telemetry: { prometheus: true } }
    const server = await A2AServer.make(securedAgent(), config)
    const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
    cleanup.push(() => listening.close({ graceMs: 0 }))
    expect((await fetch(`${listening.url}/metrics`)).status).toBe(401)

    await workload(listening.url, key)
    let text = ""
    const scrape = async () => {
      const response = await fetch(`${listening.url}/metrics`, { headers: key })
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
      text = await response.text()
      return parsePrometheus(text)
    }
    // The resubscribed stream closes once the server sees the client gone.
    let families = await scrape()
    for (let i = 0; i < 100 && sample(families, "a2a_server_streams") !== 0; i++) {
      await new Promise((r) => setTimeout(r, 20))
      families = await scrape()
    }
    const send = { a2a_method: "message/send", a2a_binding: "jsonrpc", a2a_version: "0.3", a2a_outcome: "ok" }
    expect(family(families, "a2a_server_requests_total")?.type).toBe("COUNTER")
    expect(sample(families, "a2a_server_requests_total", send)).toBe(3)
    expect(sample(families, "a2a_server_requests_total", { a2a_method: "tasks/get", a2a_outcome: "-32001" })).toBe(1)
    expect(sample(families, "a2a_server_requests_total", { a2a_method: "message/stream", a2a_outcome: "ok" })).toBe(1)
    expect(sample(families, "a2a_server_requests_total", { a2a_method: "tasks/resubscribe", a2a_outcome: "ok" })).toBe(1)
    const duration = family(families, "http_server_request_duration_seconds")
    expect(duration?.type).toBe("HISTOGRAM")
    const sends = histogramSeries(text, "http_server_request_duration_seconds", send)!
    expect(sends.count).toBe(3)
    expect(Number(sends.buckets["+Inf"])).toBe(3)
    expect(sends.sum).toBeGreaterThan(0)
    expect(histogramSeries(text, "http_server_request_duration_seconds", { a2a_method: "tasks/get" })?.count).toBe(1)
    expect(sample(families, "a2a_tasks_created_total")).toBe(4)
    expect(sample(families, "a2a_tasks", { a2a_task_state: "working" })).toBe(1)
    expect(sample(families, "a2a_task_transitions_total", { a2a_task_state: "completed" })).toBe(3)
    expect(sample(families, "a2a_server_stream_events_total")).toBe(3)
    expect(sample(families, "a2a_server_stream_replays_total")).toBe(1)
    expect(sample(families, "a2a_server_streams")).toBe(0)
    const recorded = (await Effect.runPromise(audit.snapshot)).length
    expect(recorded).toBeGreaterThan(0)
    expect(sample(families, "a2a_audit_records_total")).toBe(recorded)
    expect(sample(families, "a2a_audit_drops_total")).toBeUndefined()
  })

  it("exports the same metrics over OTLP/HTTP", async () => {
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    const server = await A2AServer.make(testAgent(), {
      telemetry: { otlp: { endpoint: otlp.url, protocol: "http/json", serviceName: "metered", exportIntervalMs: 60_000, traces: false, logs: false } }
    })
    const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
    await workload(listening.url)
    // Closing sends what is left: one export with every series.
    await listening.close({ graceMs: 0 })
    const points = await otlp.until(() => (otlp.points().length > 0 ? otlp.points() : undefined))
    expect(otlp.spans()).toEqual([])
    const last = (name: string, attributes: Record<string, string> = {}): ReceivedPoint | undefined =>
      points.filter((p) => p.name === name && Object.entries(attributes).every(([k, v]) => p.attributes[k] === v)).at(-1)
    expect(last("a2a.server.requests", { "a2a.method": "message/send", "a2a.outcome": "ok" })).toMatchObject({ type: "sum", value: 3, service: "metered" })
    expect(last("a2a.server.requests", { "a2a.method": "tasks/get", "a2a.outcome": "-32001" })?.value).toBe(1)
    expect(last("http.server.request.duration", { "a2a.method": "message/send" })).toMatchObject({ type: "histogram", value: 3 })
    expect(last("a2a.tasks.created")?.value).toBe(4)
    // Closing with no grace canceled the task held open: it left the gauge, and counts as a transition.
    expect(last("a2a.tasks", { "a2a.task.state": "working" })).toMatchObject({ type: "gauge", value: 0 })
    expect(last("a2a.task.transitions", { "a2a.task.state": "canceled" })?.value).toBe(1)
    expect(last("a2a.task.transitions", { "a2a.task.state": "completed" })?.value).toBe(3)
    expect(last("a2a.server.stream.events")?.value).toBe(3)
    expect(last("a2a.server.stream.replays")?.value).toBe(1)
  })

  it("serves the metrics on a loopback port of their own with serveMetrics, and nothing else there", async () => {
    const server = await A2AServer.make(testAgent(), { telemetry: { metrics: true } })
    const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
    const metrics = await serveMetrics(server, { port: 0 })
    cleanup.push(() => listening.close({ graceMs: 0 }), () => metrics.close())
    expect(metrics.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    // Not on the server's own port: only `prometheus` puts it there.
    expect((await fetch(`${listening.url}/metrics`)).status).toBe(404)
    await workload(listening.url)
    const families = parsePrometheus(await (await fetch(metrics.url)).text())
    expect(sample(families, "a2a_server_requests_total", { a2a_method: "message/send", a2a_outcome: "ok" })).toBe(3)
    expect((await fetch(metrics.url.replace("/metrics", "/other"))).status).toBe(404)
  })

  it("keeps no metrics and serves no endpoint with telemetry off", async () => {
    const server = await A2AServer.make(testAgent())
    expect(server.metrics).toBeUndefined()
    await expect(serveMetrics(server)).rejects.toThrow(/telemetry: \{ metrics: true \}/)
    await server.dispose({ graceMs: 0 })
  })
})
