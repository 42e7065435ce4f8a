/**
 * Telemetry checks: the server exports over OTLP/HTTP with the host runtime's `fetch`, to a loopback
 * receiver, so the exporters of `effect/observability` are proven on Node, Bun and Deno alike.
 *
 * @module
 */
import { Effect } from "effect"
import { Agent } from "../../src/agent/agent.ts"
import { A2AServer } from "../../src/server/a2a-server.ts"
import { startOtlpReceiver } from "../../testing/telemetry/otlp-receiver.ts"
import { testCard } from "../../testing/server/test-agent.ts"
import { assert, assertEqual, type Check, check } from "./check-kit.ts"
import type { ClientCheckContext } from "./check-context.ts"

/** OTLP export of traces, metrics and logs. */
export const telemetryChecks: ReadonlyArray<Check<ClientCheckContext>> = [
  check("telemetry: exports a request's span (parented on traceparent), its metrics and its logs over OTLP/HTTP", async ({ serve }) => {
    const otlp = await startOtlpReceiver()
    const agent = Agent.make({ card: testCard(), execute: (ctx) => Effect.andThen(Effect.logInfo("answering"), ctx.complete("done")) })
    const server = await A2AServer.make(agent, {
      publicUrl: "http://127.0.0.1",
      telemetry: { otlp: { endpoint: otlp.url, protocol: "http/json", serviceName: "runtime check", exportIntervalMs: 60_000 } }
    })
    const served = await serve(server.handler)
    try {
      const traceId = "5b8efff798038103d269b633813fc60c"
      const response = await fetch(served.url, {
        method: "POST",
        headers: { "content-type": "application/json", traceparent: `00-${traceId}-eee19b7ec3c1b174-01` },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "message/send",
          params: { message: { kind: "message", role: "user", messageId: "m-1", parts: [{ kind: "text", text: "hi" }] } }
        })
      })
      assertEqual(((await response.json()) as { result: { status: { state: string } } }).result.status.state, "completed", "task state")
      // Disposing sends everything buffered.
      await server.dispose({ graceMs: 0 })
      const request = otlp.spans().find((s) => s.name === "a2a.request")
      assertEqual(request?.traceId, traceId, "the request span's trace")
      assertEqual(request?.parentSpanId, "eee19b7ec3c1b174", "the request span's parent")
      const counted = otlp.points().filter((p) => p.name === "a2a.server.requests" && p.attributes["a2a.method"] === "message/send").at(-1)
      assertEqual(counted?.value, 1, "requests counted")
      const log = otlp.logs().find((l) => l.body === "answering")
      assertEqual(log?.traceId, traceId, "the log line's trace")
      assert(otlp.requests().every((r) => r.headers["content-type"]?.startsWith("application/json") === true), "every export is OTLP JSON")
    } finally {
      await served.close()
      await otlp.close()
    }
  })
]
