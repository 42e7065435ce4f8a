/**
 * A PostgreSQL store in traces and metrics: its operations are client spans with their duration counted, and a
 * task taken over from another instance (here: one that stopped and handed it over) is a `takeOver` span marked
 * `a2a.lease.taken` and one `a2a.lease.takeovers`.
 */
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { demoAgent } from "../../examples/agents/demo.ts"
import { serveNode } from "../adapters/node.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { makePostgresTaskStore } from "../store/postgres/pg-task-store.ts"
import { databaseUrl, dropSchema, randomSchema, requirePostgres } from "../../testing/store/postgres.ts"
import { startOtlpReceiver } from "../../testing/telemetry/otlp-receiver.ts"
import { histogramSeries, parsePrometheus, sample } from "../../testing/telemetry/prometheus-text.ts"

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close()
})

describe("a PostgreSQL store observed", () => {
  requirePostgres()

  it("traces store operations and counts the lease this instance takes over", async () => {
    const schema = randomSchema()
    cleanup.push(() => Effect.runPromise(dropSchema(schema)))
    const otlp = await startOtlpReceiver()
    cleanup.push(() => otlp.close())
    const store = (instanceId: string) => makePostgresTaskStore({ url: databaseUrl(), schema, lease: 1_000, instanceId })
    const observed = await A2AServer.make(demoAgent, {
      runtime: { store: store("B") },
      telemetry: { otlp: { endpoint: otlp.url, protocol: "http/json", serviceName: "B", exportIntervalMs: 100, logs: false } }
    })
    const b = await serveNode(observed, { port: 0, host: "127.0.0.1" })
    cleanup.push(() => b.close({ graceMs: 0 }))
    const a = await serveNode(await A2AServer.make(demoAgent, { runtime: { store: store("A") } }), { port: 0, host: "127.0.0.1" })

    // A runs a long count, then stops: it hands the task over, and B takes it.
    const sent = await (await fetch(a.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: {
          message: { kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text: "count 1000" }] },
          configuration: { blocking: false }
        }
      })
    })).json()
    const taskId: string = sent.result.id
    await a.close({ graceMs: 0 })

    const takeOver = await otlp.until(() =>
      otlp.spans().find((s) => s.name === "a2a.store.takeOver" && s.attributes["a2a.lease.taken"] === true), 15_000)
    expect(takeOver).toMatchObject({ service: "B", kind: 3, attributes: { "db.operation.name": "takeOver", "a2a.task.id": taskId } })
    const text = observed.metrics!()
    const families = parsePrometheus(text)
    expect(sample(families, "a2a_lease_takeovers_total")).toBe(1)
    expect(histogramSeries(text, "a2a_store_operation_duration_seconds", { db_operation_name: "takeOver" })?.count).toBeGreaterThanOrEqual(1)
    expect(sample(families, "a2a_store_failures_total")).toBeUndefined()
    // The task goes on here, in a task span of B's.
    await otlp.until(() => otlp.spans().find((s) => s.name === "a2a.store.put" && s.service === "B"), 15_000)
  }, 30_000)
})
