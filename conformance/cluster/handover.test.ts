/**
 * A graceful stop (SIGTERM) hands an instance's work over instead of canceling it: its running task is
 * taken over by another instance at once (not a lease later) and ended `failed` saying why (the demo agent
 * is not safe to run twice), its task waiting for input waits on for an answer through any instance, and
 * its stream resumes on another instance up to that end. Real processes (Node and Bun) on one database,
 * with a lease far longer than the stop takes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startCluster, type Cluster } from "../../examples/cluster/start-cluster.ts"
import { openStream, rpc, userMessage } from "../../testing/server/rpc.ts"
import type { StreamEvent } from "../scenarios/sse-session.ts"
import { clusterDatabase, databaseSkipReason } from "./cluster-database.ts"

const database = clusterDatabase("handover")
const leaseMs = 20_000
const resultOf = (e: StreamEvent): any => (e.json as { result?: unknown } | undefined)?.result

describe.skipIf(database === undefined)(`a graceful stop of an instance${databaseSkipReason}`, () => {
  let cluster: Cluster | undefined
  const output: Array<string> = []

  beforeAll(async () => {
    const env = await database!.create()
    cluster = await startCluster({ runtimes: ["node", "bun"], env: { ...env, A2A_LEASE_MS: String(leaseMs), AGENT: "demo" }, output: (l) => output.push(l) })
  }, 120_000)

  afterAll(async () => {
    await cluster?.stop()
    await database?.drop()
  }, 60_000)

  it("hands its running and waiting tasks to the other instance, at once", async () => {
    const [stopping, staying] = cluster!.instances
    const on = (i: { readonly url: string }) => `${i.url}/`
    const stream = await openStream(on(stopping!), "message/stream", { message: userMessage("count 300") }, {}, 10_000)
    const seen: Array<StreamEvent> = []
    for (let i = 0; i < 5; i++) seen.push((await stream.next())!)
    const counting = resultOf(seen[0]!).id as string
    const waiting = (await rpc(on(stopping!), "message/send", { message: userMessage("greet") })).body.result
    expect(waiting.status.state).toBe("input-required")

    const stoppedAt = Date.now()
    await stopping!.stop("SIGTERM")
    // The stop waits out its grace (5 s) for the count, then hands it over: taken over and ended at once.
    const ended = await (async () => {
      for (;;) {
        const task = (await rpc(on(staying!), "tasks/get", { id: counting })).body.result
        if (["completed", "canceled", "failed"].includes(task.status.state)) return task
        if (Date.now() - stoppedAt > leaseMs) throw new Error(`still ${task.status.state} ${leaseMs} ms after the stop:\n${output.join("\n").slice(-5000)}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    expect(Date.now() - stoppedAt).toBeLessThan(leaseMs / 2)
    expect(ended.status.state).toBe("failed")
    expect(ended.status.message.parts[0].text).toMatch(/instance that stopped \(it shut down/)
    expect(output.some((l) => l.startsWith(`[${staying!.name}]`) && l.includes(`task ${counting}: its instance stopped while it was working`))).toBe(true)

    // Its stream, cut by the stop, resumes on the other instance up to that end, with no gap.
    const lastId = Number(seen.at(-1)!.id)
    const resumed = await openStream(on(staying!), "tasks/resubscribe", { id: counting }, { "last-event-id": String(lastId) }, 10_000)
    expect(await resumed.waitForEnd(10_000)).toBe(true)
    const ids = resumed.received.map((e) => Number(e.id))
    expect(ids).toEqual(ids.map((_, i) => lastId + 1 + i))
    expect(resultOf(resumed.received.at(-1)!)).toMatchObject({ kind: "status-update", final: true, status: { state: "failed" } })

    // The waiting task was not canceled: it waits for its answer, which the other instance takes.
    expect((await rpc(on(staying!), "tasks/get", { id: waiting.id })).body.result.status.state).toBe("input-required")
    const answered = (await rpc(on(staying!), "message/send", { message: userMessage("Ada", { taskId: waiting.id }) })).body.result
    expect(answered.status.state).toBe("completed")
    expect(answered.status.message.parts[0].text).toBe("Hello, Ada!")
    // Only the instance that was stopped logged its stop; it exited cleanly.
    expect(output).toContain(`[${stopping!.name}] exited (0)`)
  }, 90_000)
})
