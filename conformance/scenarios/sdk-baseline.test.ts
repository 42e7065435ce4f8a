import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { allScenarios } from "./all.ts"
import { runScenarios, summaryLine, type ScenarioReport } from "./run.ts"
import { startSdkConformanceAgent, type SdkConformanceAgent } from "./sdk-conformance-agent.ts"
import { sdkExpectedSkips, sdkKnownFailures } from "./sdk-deviations.ts"

/**
 * The kit scenarios (kit.ts) test an agent made for conformance runs as much as the server; the SDK's agent
 * here holds every task until it is canceled, so they say nothing about the SDK and are left out.
 */
const protocolScenarios = allScenarios.filter((s) => !s.name.startsWith("kit:"))

describe("scenarios against the official JS SDK server", () => {
  let agent: SdkConformanceAgent
  let report: ScenarioReport

  beforeAll(async () => {
    // The SDK logs every refused request with console.error/warn; keep the test output readable.
    vi.spyOn(console, "error").mockImplementation(() => undefined)
    vi.spyOn(console, "warn").mockImplementation(() => undefined)
    agent = await startSdkConformanceAgent()
    report = await runScenarios({ url: agent.url, timeoutMs: 5000, scenarios: protocolScenarios })
  }, 120_000)

  afterAll(async () => {
    await agent?.close()
    vi.restoreAllMocks()
  })

  it("runs every scenario (at least 45)", () => {
    expect(allScenarios.length).toBeGreaterThanOrEqual(45)
    expect(new Set(allScenarios.map((s) => s.name)).size).toBe(allScenarios.length)
    expect(report.results.length).toBe(protocolScenarios.length)
    expect(allScenarios.length - protocolScenarios.length).toBeGreaterThanOrEqual(4)
    expect(summaryLine(report)).toBe(`${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`)
  })

  it("passes every scenario the SDK is expected to pass", () => {
    const unexpected = report.results
      .filter((r) => r.status === "failed" && !(r.name in sdkKnownFailures))
      .map((r) => `${r.name}: ${r.reason}`)
    expect(unexpected).toEqual([])
  })

  it("detects each documented SDK deviation (the list stays accurate)", () => {
    const names = Object.keys(sdkKnownFailures)
    for (const name of names) expect(protocolScenarios.some((s) => s.name === name), name).toBe(true)
    const notFailing = report.results.filter((r) => r.name in sdkKnownFailures && r.status !== "failed").map((r) => r.name)
    expect(notFailing).toEqual([])
  })

  it("skips only the scenarios that do not apply to the SDK, with their reasons", () => {
    const skipped = report.results.filter((r) => r.status === "skipped")
    expect(skipped.map((r) => r.name).sort()).toEqual(Object.keys(sdkExpectedSkips).sort())
    for (const r of skipped) expect(r.reason).toMatch(sdkExpectedSkips[r.name]!)
  })

  it("leaves the server answering valid requests after the hostile scenarios", async () => {
    const response = await fetch(agent.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "nope" } }),
      signal: AbortSignal.timeout(5000)
    })
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32001 } })
  })
})
