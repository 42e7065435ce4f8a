/**
 * Failures across the instances of `start:cluster` on one PostgreSQL database: an instance killed
 * while it runs a streamed task, and cancels racing completions on other instances.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startCluster, type Cluster, type ClusterInstance } from "../../examples/cluster/start-cluster.ts"
import { instanceHeader } from "../../examples/cluster/front.ts"
import { openStream, rpc, userMessage } from "../../testing/server/rpc.ts"
import type { StreamEvent } from "../scenarios/sse-session.ts"
import { clusterDatabase, databaseSkipReason, leaseEnv, testLeaseMs } from "./cluster-database.ts"

const database = clusterDatabase()
const terminal = new Set(["completed", "canceled", "failed", "rejected"])

const resultOf = (e: StreamEvent): any => (e.json as { result?: unknown } | undefined)?.result

/** The task's state on `instance` once terminal there (polled for at most 5 s), else the last state seen. */
const settledState = async (instance: ClusterInstance, taskId: string): Promise<string | undefined> => {
  const deadline = Date.now() + 5_000
  for (;;) {
    const state = (await rpc(`${instance.url}/`, "tasks/get", { id: taskId })).body.result?.status?.state as string | undefined
    if ((state !== undefined && terminal.has(state)) || Date.now() > deadline) return state
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe.skipIf(database === undefined)(`the cluster under failure${databaseSkipReason}`, () => {
  let cluster: Cluster | undefined
  const output: Array<string> = []
  const instanceNamed = (name: string | null): ClusterInstance => {
    const found = cluster!.instances.find((i) => i.name === name)
    if (found === undefined) throw new Error(`no instance named ${name}`)
    return found
  }

  beforeAll(async () => {
    const env = await database!.create()
    cluster = await startCluster({ env: { ...env, ...leaseEnv, AGENT: "demo" }, output: (l) => output.push(l) })
  }, 120_000)

  afterAll(async () => {
    await cluster?.stop()
    await database?.drop()
  }, 60_000)

  it("each of 100 cancels racing a completion on another instance ends the task in exactly one terminal state", async () => {
    const instances = cluster!.instances
    const race = async (i: number) => {
      const runner = instances[i % instances.length]!
      const canceler = instances[(i + 1) % instances.length]!
      const sent = await rpc(`${runner.url}/`, "message/send", { message: userMessage("count 1"), configuration: { blocking: false } })
      const taskId = sent.body.result?.id as string
      expect(taskId, JSON.stringify(sent.body)).toBeTypeOf("string")
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20))
      const cancel = await rpc(`${canceler.url}/`, "tasks/cancel", { id: taskId })
      // Either the cancel won (the answer is the canceled task) or the task had already ended (-32002).
      const canceled = cancel.body.result?.status?.state === "canceled"
      if (!canceled) expect(cancel.body.error?.code, JSON.stringify(cancel.body)).toBe(-32002)
      // Every instance tells the same story once the task has settled, and it is the one the cancel answer told.
      const states = await Promise.all(instances.map((inst) => settledState(inst, taskId)))
      const story = `race ${i}: ran on ${runner.name}, canceled on ${canceler.name} -> ${JSON.stringify(cancel.body).slice(0, 300)}; ` +
        `states ${instances.map((inst, k) => `${inst.name}=${states[k]}`).join(" ")}`
      expect(new Set(states), story).toEqual(new Set([canceled ? "canceled" : "completed"]))
      // The task's event log holds exactly one final event, read on the third instance.
      const reader = instances[(i + 2) % instances.length]!
      const log = await openStream(`${reader.url}/`, "tasks/resubscribe", { id: taskId }, { "last-event-id": "0" }, 10_000)
      expect(await log.waitForEnd(10_000)).toBe(true)
      const finals = log.received.map(resultOf).filter((r) => r?.final === true)
      expect(finals.map((r) => r.status.state), `race ${i}`).toEqual([canceled ? "canceled" : "completed"])
      return canceled
    }
    const outcomes: Array<boolean> = []
    for (let batch = 0; batch < 10; batch++) {
      outcomes.push(...await Promise.all(Array.from({ length: 10 }, (_, k) => race(batch * 10 + k))))
    }
    expect(outcomes).toHaveLength(100)
  }, 240_000)

  it("resumes a stream cut by SIGKILL of the instance running its task: later events once each, in order, then a terminal state", async () => {
    const stream = await openStream(`${cluster!.url}/`, "message/stream", { message: userMessage("count 60") }, {}, 10_000)
    const victim = instanceNamed(stream.response.headers.get(instanceHeader))
    const first: Array<StreamEvent> = []
    for (let i = 0; i < 15; i++) {
      const e = await stream.next()
      if (e === undefined) throw new Error(`stream ended after ${first.length} events`)
      first.push(e)
    }
    const taskId = resultOf(first[0]!).id as string
    const lastId = Number(first.at(-1)!.id)
    expect(first.map((e) => Number(e.id))).toEqual(first.map((_, i) => i + 1))
    await stream.close()
    await victim.stop("SIGKILL")

    const started = Date.now()
    const resumed = await openStream(`${cluster!.url}/`, "tasks/resubscribe", { id: taskId }, { "last-event-id": String(lastId) }, 30_000)
    expect(resumed.status).toBe(200)
    expect(instanceNamed(resumed.response.headers.get(instanceHeader)).name).not.toBe(victim.name)
    // The task's lease expires with no one to renew it; a live instance then ends it: within a few leases.
    const bound = testLeaseMs * 3 + 2_000
    expect(await resumed.waitForEnd(bound)).toBe(true)
    const later = resumed.received
    const ids = later.map((e) => Number(e.id))
    expect(ids).toEqual(ids.map((_, i) => lastId + 1 + i))
    const results = later.map(resultOf)
    expect(results.every((r) => r?.taskId === taskId)).toBe(true)
    // The chunks continue where the first stream stopped, each once.
    const seenTexts = first.map(resultOf).filter((r) => r.kind === "artifact-update").map((r) => r.artifact.parts[0].text as string)
    const laterTexts = results.filter((r) => r.kind === "artifact-update").map((r) => r.artifact.parts[0].text as string)
    const all = [...seenTexts, ...laterTexts].map((t) => Number(t.trim()))
    expect(all).toEqual(all.map((_, i) => i + 1))
    // The demo agent is not safe to run twice, so the task ends failed, saying why.
    const last = results.at(-1)
    expect(last).toMatchObject({ kind: "status-update", final: true, status: { state: "failed" } })
    expect(last.status.message.parts[0].text).toMatch(/instance/i)
    expect(results.filter((r) => r.final === true)).toHaveLength(1)
    expect(Date.now() - started).toBeLessThan(bound)

    // Thirty sends afterwards, through the front: all answered, none by the dead instance.
    const answers = await Promise.all(Array.from({ length: 30 }, async () => {
      const r = await rpc(`${cluster!.url}/`, "message/send", { message: userMessage("hello after the crash"), configuration: { blocking: true } })
      return { state: r.body.result?.status?.state as string | undefined, instance: r.headers.get(instanceHeader) }
    }))
    expect(answers.map((a) => a.state)).toEqual(answers.map(() => "completed"))
    expect(answers.some((a) => a.instance === victim.name)).toBe(false)
  }, 120_000)
})
