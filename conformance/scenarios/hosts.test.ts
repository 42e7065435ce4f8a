/**
 * The scenario suite and the fuzzer against our own server, hosted by Node (fast path and Web
 * handler), Bun and Deno. Every scenario must pass on every host.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fuzzServer } from "../fuzz/fuzz-server.ts"
import { hosts, startHost, type HostedServer } from "../hosts.ts"
import { runScenarios, type ScenarioReport } from "./run.ts"

describe.each(hosts)("conformance scenarios on %s", (host) => {
  let server: HostedServer
  let report: ScenarioReport

  beforeAll(async () => {
    // Webhooks go to a closed loopback port, allowlisted for the test: configs are accepted and
    // deliveries fail quietly in the background, so nothing leaves the machine.
    server = await startHost(host, "conformance", { env: { PUSH_ALLOW: "127.0.0.1" } })
    report = await runScenarios({ url: `${server.url}/`, timeoutMs: 10_000, webhookUrl: "http://127.0.0.1:9/a2a/webhook" })
  }, 240_000)

  afterAll(async () => {
    await server?.close()
  })

  it("passes every scenario", () => {
    const failed = report.results.filter((r) => r.status === "failed").map((r) => `${r.name}: ${r.reason}`)
    expect(failed).toEqual([])
    expect(report.passed).toBeGreaterThanOrEqual(80)
  })

  it("skips only scenarios that do not apply to an agent with streaming and push on", () => {
    const skipped = report.results.filter((r) => r.status === "skipped").map((r) => r.name)
    for (const name of skipped) expect(name).toMatch(/streaming off|push off|push is off|capability/i)
  })

  it("answers every fuzzed body with a well-formed JSON-RPC response and stays up", async () => {
    const fuzz = await fuzzServer(`${server.url}/`, { count: host === "node" ? 2_000 : 600, concurrency: 8, seed: 7 })
    expect(fuzz.failures.slice(0, 5)).toEqual([])
    expect(fuzz.aliveAfter).toBe(true)
  }, 180_000)
})
