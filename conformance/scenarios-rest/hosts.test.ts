/**
 * The REST scenario suite against our own server, hosted by Node (fast path and Web handler), Bun and
 * Deno. Every scenario must pass on every host.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hosts, startHost, type HostedServer } from "../hosts.ts"
import { allRestScenarios } from "./all.ts"
import { runRestScenarios, type ScenarioReport } from "./run.ts"

describe.each(hosts)("REST scenarios on %s", (host) => {
  let server: HostedServer
  let report: ScenarioReport

  beforeAll(async () => {
    // Webhooks go to a closed loopback port, allowlisted for the test: configs are accepted and
    // deliveries fail quietly in the background, so nothing leaves the machine.
    server = await startHost(host, "conformance", { env: { PUSH_ALLOW: "127.0.0.1" } })
    report = await runRestScenarios({ url: `${server.url}/`, timeoutMs: 10_000, webhookUrl: "http://127.0.0.1:9/a2a/webhook" })
  }, 240_000)

  afterAll(async () => {
    await server?.close()
  })

  it("passes every scenario, none skipped", () => {
    const failed = report.results.filter((r) => r.status === "failed").map((r) => `${r.name}: ${r.reason}`)
    expect(failed).toEqual([])
    expect(report.results.filter((r) => r.status === "skipped").map((r) => `${r.name}: ${r.reason}`)).toEqual([])
    expect(report.passed).toBe(allRestScenarios.length)
    expect(report.passed).toBeGreaterThanOrEqual(30)
  })
})
