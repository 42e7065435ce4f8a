/**
 * The A2A 1.0 scenarios on both bindings against our conformance server, hosted by Node (fast path and Web
 * handler), Bun and Deno. Every scenario must pass on every host and binding.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hosts, startHost, type HostedServer } from "../hosts.ts"
import { allV1Scenarios } from "./scenarios.ts"
import { runV1Scenarios, type ScenarioReport } from "./run.ts"

describe.each(hosts)("A2A 1.0 scenarios on %s", (host) => {
  let server: HostedServer
  const reports: Partial<Record<"jsonrpc" | "rest", ScenarioReport>> = {}

  beforeAll(async () => {
    server = await startHost(host, "conformance", { env: { PUSH_ALLOW: "127.0.0.1" } })
    for (const binding of ["jsonrpc", "rest"] as const) {
      reports[binding] = await runV1Scenarios({ binding, origin: server.url, timeoutMs: 10_000, webhookUrl: "http://127.0.0.1:9/a2a/webhook" })
    }
  }, 240_000)

  afterAll(async () => {
    await server?.close()
  })

  it.each(["jsonrpc", "rest"] as const)("passes every scenario over %s, none skipped", (binding) => {
    const report = reports[binding]!
    expect(report.results.filter((r) => r.status !== "passed").map((r) => `${r.name}: ${r.reason}`)).toEqual([])
    expect(report.passed).toBe(allV1Scenarios.length)
    expect(report.passed).toBeGreaterThanOrEqual(30)
  })
})
