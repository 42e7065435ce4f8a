/**
 * `PORT=<n> npm start`: the demo agent on Node (default port 41241). With `A2A_DATABASE_URL` its tasks live
 * in PostgreSQL (see store-from-env.ts) and survive a restart; without it, in memory. With
 * `OTEL_EXPORTER_OTLP_ENDPOINT` it exports its traces, metrics and logs over OTLP/HTTP (the other `OTEL_*`
 * variables apply too); with `A2A_METRICS_PORT=<n>` it serves `/metrics` (Prometheus) on that loopback port.
 */
import { serveMetrics, serveNode } from "../src/adapters/node.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { demoAgent } from "./agents/demo.ts"
import { runtimeFromEnv } from "./store-from-env.ts"

const otlp = (process.env["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? "") !== ""
const metricsPort = process.env["A2A_METRICS_PORT"]
const server = await A2AServer.make(demoAgent, {
  runtime: runtimeFromEnv(),
  telemetry: { otlp, metrics: metricsPort !== undefined }
})
const listening = await serveNode(server, {
  port: Number(process.env["PORT"] ?? 41241),
  host: process.env["HOST"] ?? "127.0.0.1"
})
const metrics = metricsPort === undefined ? undefined : await serveMetrics(server, { port: Number(metricsPort) })
if (metrics !== undefined) process.stdout.write(`Metrics: ${metrics.url}\n`)
process.stdout.write(`Demo agent card: ${listening.url}/.well-known/agent-card.json\n`)
const stop = () => void Promise.all([listening.close({ graceMs: 1_000 }), metrics?.close()]).then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
