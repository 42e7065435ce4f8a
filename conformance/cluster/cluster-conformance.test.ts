/**
 * The conformance scenarios, JSON-RPC and REST, through the front of `start:cluster`: three
 * instances (Node, Bun, Deno) on one PostgreSQL database, each request going to the next instance,
 * so a task is created on one instance and read, streamed, canceled and configured through others.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startCluster, type Cluster } from "../../examples/cluster/start-cluster.ts"
import { allRestScenarios } from "../scenarios-rest/all.ts"
import { runRestScenarios } from "../scenarios-rest/run.ts"
import { runScenarios, type ScenarioReport } from "../scenarios/run.ts"
import { clusterDatabase, databaseSkipReason } from "./cluster-database.ts"

const database = clusterDatabase()

describe.skipIf(database === undefined)(`conformance scenarios through the cluster's front${databaseSkipReason}`, () => {
  let cluster: Cluster | undefined
  let rpc: ScenarioReport
  let rest: ScenarioReport
  const output: Array<string> = []

  beforeAll(async () => {
    const env = await database!.create()
    // Webhooks go to a closed loopback port, allowlisted for the test: configs are accepted and
    // deliveries fail quietly in the background, so nothing leaves the machine.
    cluster = await startCluster({ env: { ...env, AGENT: "conformance", PUSH_ALLOW: "127.0.0.1" }, output: (l) => output.push(l) })
    const options = { url: `${cluster.url}/`, timeoutMs: 10_000, webhookUrl: "http://127.0.0.1:9/a2a/webhook" }
    rpc = await runScenarios(options)
    rest = await runRestScenarios(options)
  }, 600_000)

  afterAll(async () => {
    await cluster?.stop()
    await database?.drop()
  }, 60_000)

  it("passes every JSON-RPC scenario", () => {
    const failed = rpc.results.filter((r) => r.status === "failed").map((r) => `${r.name}: ${r.reason}`)
    expect(failed, output.slice(-40).join("\n")).toEqual([])
    expect(rpc.passed).toBeGreaterThanOrEqual(80)
  })

  it("passes every REST scenario, none skipped", () => {
    const failed = rest.results.filter((r) => r.status === "failed").map((r) => `${r.name}: ${r.reason}`)
    expect(failed, output.slice(-40).join("\n")).toEqual([])
    expect(rest.passed).toBe(allRestScenarios.length)
  })

  it("logged no error on any instance", () => {
    const errors = output.filter((line) => /^\[\w+\] \[[\d:.]+\] ERROR\b/.test(line))
    expect(errors, errors.length === 0 ? "" : output.join("\n").slice(-6_000)).toEqual([])
  })

  it("spread the requests over all three instances, whose cards name the front", async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${cluster!.url}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(10_000) })
      const card = await response.json() as { url: string }
      expect(card.url).toBe(`${cluster!.url}/`)
      seen.add(response.headers.get("x-a2a-instance") ?? "")
    }
    expect(seen).toEqual(new Set(["node", "bun", "deno"]))
  })
})
