/**
 * The demo agent as real processes on one PostgreSQL schema: killed with SIGKILL mid-task and started
 * again (on another runtime), its finished tasks are all there, and the task it was running ends `failed`
 * with a clear message once its lease expires, its stream resumable by Last-Event-ID on any instance.
 * Node, Bun and Deno each run the store here.
 */
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { startHost, type HostedServer } from "../../../conformance/hosts.ts"
import { textMessage, wireCall } from "../../../testing/server/wire-call.ts"
import type { WireCallOptions } from "../../../testing/server/wire-call.ts"
import { databaseUrl, dropSchema, randomSchema, requirePostgres, testDatabaseUrl } from "../../../testing/store/postgres.ts"

const schema = randomSchema()
const leaseMs = 1_500
const started: Array<HostedServer> = []

const start = async (host: "node" | "bun" | "deno") => {
  const server = await startHost(host, "demo", {
    env: { A2A_DATABASE_URL: databaseUrl(), A2A_DATABASE_SCHEMA: schema, A2A_LEASE_MS: String(leaseMs) }
  })
  started.push(server)
  return server
}

const call = (server: HostedServer, method: string, params: unknown, options: WireCallOptions = {}) =>
  wireCall(fetch, method, params, { url: `${server.url}/`, timeoutMs: 15_000, ...options })

afterAll(async () => {
  for (const server of started) await server.close()
  if (testDatabaseUrl !== undefined) await Effect.runPromise(dropSchema(schema))
})

describe("the demo agent on PostgreSQL, killed and started again", () => {
  requirePostgres()

  it("keeps finished tasks and ends the running one failed after the lease, on Node, Bun and Deno", async () => {
    const node = await start("node")
    const finished = (await call(node, "message/send", textMessage("count 3"))).body.result
    expect(finished.status.state).toBe("completed")
    expect(finished.artifacts[0].parts.map((p: any) => p.text).join("")).toBe("1\n2\n3\n")
    // A long count, streamed until its 4th event, then the process is killed under it.
    const head = (await call(node, "message/stream", textMessage("count 300"), { maxEvents: 4 })).events
    const runningId = head[0].result.id as string
    expect(head.at(-1).result.kind).toBe("artifact-update")
    await node.kill()

    const bun = await start("bun")
    const again = (await call(bun, "tasks/get", { id: finished.id })).body.result
    expect(again).toEqual(finished)
    // Resumed on Bun after the 4th event: the events it stored, then the end the lease expiry brings.
    const startedAt = Date.now()
    const rest = (await call(bun, "tasks/resubscribe", { id: runningId }, { headers: { "last-event-id": "4" } })).events
    const last = rest.at(-1).result
    expect(last).toMatchObject({ kind: "status-update", final: true, status: { state: "failed" } })
    expect(last.status.message.parts[0].text).toMatch(/instance that stopped .*lease.*expired/)
    expect(Date.now() - startedAt).toBeLessThan(4 * leaseMs)
    expect(rest.filter((e) => e.result.kind === "task")).toEqual([])

    // On Deno, the whole stream by Last-Event-ID 0: the same events, numbered the same, with no gap.
    const deno = await start("deno")
    const whole = (await call(deno, "tasks/resubscribe", { id: runningId }, { headers: { "last-event-id": "0" } })).events
    expect([...head, ...rest].map((e) => e.result)).toEqual(whole.map((e) => e.result))
    const failed = (await call(deno, "tasks/get", { id: runningId })).body.result
    expect(failed.status.state).toBe("failed")
    expect(failed.history.map((m: any) => m.parts[0].text)).toEqual(["count 300", "Counting to 300", last.status.message.parts[0].text])
    // And each instance takes new work.
    for (const server of [bun, deno]) {
      expect((await call(server, "message/send", textMessage("count 2"))).body.result.status.state).toBe("completed")
    }
  }, 120_000)
})
