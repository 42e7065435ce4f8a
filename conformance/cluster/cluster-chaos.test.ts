/**
 * Failures across the instances of `start:cluster` on one PostgreSQL database: cancels racing
 * completions on other instances, mixed load while an instance loses its database connections, an
 * instance stopped (SIGSTOP) past its lease and resumed, and an instance killed while it runs a
 * streamed task. Every answer is checked against what the database holds. `npm run chaos` runs this
 * file (with the restart tests) round after round beside a CPU hog.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startCluster, type Cluster, type ClusterInstance } from "../../examples/cluster/start-cluster.ts"
import { instanceHeader } from "../../examples/cluster/front.ts"
import { openStream, rpc, userMessage } from "../../testing/server/rpc.ts"
import type { StreamEvent } from "../scenarios/sse-session.ts"
import { clusterDatabase, databaseSkipReason, leaseEnv, testLeaseMs } from "./cluster-database.ts"

const database = clusterDatabase("cluster-chaos")
const terminal = new Set(["completed", "canceled", "failed", "rejected"])

const resultOf = (e: StreamEvent): any => (e.json as { result?: unknown } | undefined)?.result
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The task's state on `instance` once terminal there (polled for at most 5 s), else the last state seen. */
const settledState = async (instance: ClusterInstance, taskId: string): Promise<string | undefined> => {
  const deadline = Date.now() + 5_000
  for (;;) {
    const state = (await rpc(`${instance.url}/`, "tasks/get", { id: taskId })).body.result?.status?.state as string | undefined
    if ((state !== undefined && terminal.has(state)) || Date.now() > deadline) return state
    await sleep(50)
  }
}

/** The task as stored. */
const stored = async (taskId: string): Promise<any> => {
  const rows = await database!.query<{ readonly task: any }>(`SELECT task FROM ${database!.schema}.tasks WHERE id = $1`, [taskId])
  const task = rows[0]?.task
  return typeof task === "string" ? JSON.parse(task) : task
}

/** The task's stored events, in order. */
const storedEvents = async (taskId: string): Promise<Array<{ readonly seq: number; readonly event: any }>> =>
  (await database!.query<{ readonly seq: number; readonly event: any }>(
    `SELECT seq, event FROM ${database!.schema}.events WHERE task_id = $1 ORDER BY seq`,
    [taskId]
  )).map((r) => ({ seq: Number(r.seq), event: typeof r.event === "string" ? JSON.parse(r.event) : r.event }))

/** Polls `check` until it gives a value, for at most `ms`. */
const eventually = async <A>(check: () => Promise<A | undefined>, ms: number, what: string): Promise<A> => {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
    await sleep(50)
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
  const front = () => `${cluster!.url}/`

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
      await sleep(Math.random() * 20)
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

  it("a cancel of a task running on another instance is answered canceled, every time", async () => {
    const [runner, canceler] = cluster!.instances
    const answers = await Promise.all(Array.from({ length: 60 }, async () => {
      const sent = await rpc(`${runner!.url}/`, "message/send", { message: userMessage("count 200"), configuration: { blocking: false } })
      const taskId = sent.body.result.id as string
      await sleep(Math.random() * 50)
      const cancel = await rpc(`${canceler!.url}/`, "tasks/cancel", { id: taskId })
      return { taskId, cancel: cancel.body }
    }))
    for (const { cancel, taskId } of answers) {
      expect(cancel.result?.status?.state, JSON.stringify(cancel)).toBe("canceled")
      expect((await stored(taskId)).status.state).toBe("canceled")
    }
  }, 120_000)

  it("mixed load through the front while an instance loses its database connections: every answer is what is stored", async () => {
    const url = front()
    const checks: Array<() => Promise<void>> = []
    const op = async (k: number) => {
      switch (k % 4) {
        case 0: {
          const done = (await rpc(url, "message/send", { message: userMessage("count 3") })).body
          expect(done.result?.status?.state, JSON.stringify(done)).toBe("completed")
          checks.push(async () => expect(await stored(done.result.id)).toEqual(done.result))
          return
        }
        case 1: {
          const started = (await rpc(url, "message/send", { message: userMessage("count 30"), configuration: { blocking: false } })).body
          expect(started.result?.id, JSON.stringify(started)).toBeTypeOf("string")
          await sleep(50 + Math.random() * 300)
          const cancel = (await rpc(url, "tasks/cancel", { id: started.result.id })).body
          expect(cancel.result?.status?.state, JSON.stringify(cancel)).toBe("canceled")
          checks.push(async () => expect(await stored(started.result.id)).toEqual(cancel.result))
          return
        }
        case 2: {
          const asked = (await rpc(url, "message/send", { message: userMessage("greet") })).body
          expect(asked.result?.status?.state, JSON.stringify(asked)).toBe("input-required")
          const greeted = (await rpc(url, "message/send", { message: userMessage("Ada", { taskId: asked.result.id }) })).body
          expect(greeted.result?.status?.message?.parts?.[0]?.text, JSON.stringify(greeted)).toBe("Hello, Ada!")
          checks.push(async () => expect(await stored(asked.result.id)).toEqual(greeted.result))
          return
        }
        default: {
          const stream = await openStream(url, "message/stream", { message: userMessage("count 8") }, {}, 15_000)
          expect(await stream.waitForEnd(30_000)).toBe(true)
          const got = stream.received.map((e) => ({ seq: Number(e.id), event: resultOf(e) }))
          expect(got.at(-1)?.event, JSON.stringify(got.at(-1))).toMatchObject({ final: true, status: { state: "completed" } })
          checks.push(async () => expect(await storedEvents(got[0]!.event.id)).toEqual(got))
        }
      }
    }
    const cut = async () => {
      const [victim] = await database!.query<{ readonly id: string }>(`SELECT id FROM ${database!.schema}.instances ORDER BY id LIMIT 1`)
      const killed = await database!.query<{ readonly cut: boolean }>(
        `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = $1`,
        [`a2a-actors ${victim!.id}`]
      )
      expect(killed.length).toBeGreaterThan(0)
    }
    const load = Promise.all(Array.from({ length: 48 }, async (_, k) => {
      await sleep(k * 40)
      await op(k)
    }))
    await sleep(300)
    await cut()
    await sleep(700)
    await cut()
    await load
    for (const check of checks) await check()
  }, 180_000)

  it("an instance stopped past its lease answers, once resumed, only what is stored, and its stream ends as stored", async () => {
    const victim = cluster!.instances[0]!
    const on = `${victim.url}/`
    const asked = (await rpc(on, "message/send", { message: userMessage("greet") })).body.result
    expect(asked.status.state).toBe("input-required")
    const stream = await openStream(on, "message/stream", { message: userMessage("count 40") }, {}, 30_000)
    const head: Array<StreamEvent> = []
    for (let i = 0; i < 4; i++) head.push((await stream.next())!)
    const counting = resultOf(head[0]!).id as string

    process.kill(victim.pid, "SIGSTOP")
    try {
      // Taken over meanwhile: the count ends failed elsewhere; the greeting waits, with no lease.
      await eventually(async () => (terminal.has((await stored(counting))?.status.state) ? true : undefined), 6 * testLeaseMs, "the count taken over")
      // Requests through the front meanwhile are all answered (the stalled instance is not ready: no new ones go to it).
      const during = await Promise.all(Array.from({ length: 12 }, () => rpc(front(), "message/send", { message: userMessage("hello") })))
      for (const answer of during) expect(answer.body.result?.status?.state, JSON.stringify(answer.body)).toBe("completed")
    } finally {
      process.kill(victim.pid, "SIGCONT")
    }
    expect((await stored(counting)).status.state).toBe("failed")

    // Resumed: an answer through it to the greeting it no longer holds is what the store then holds.
    const greeted = (await rpc(on, "message/send", { message: userMessage("Ada", { taskId: asked.id }) })).body
    expect(greeted.result?.status?.message?.parts?.[0]?.text, JSON.stringify(greeted)).toBe("Hello, Ada!")
    expect(await stored(asked.id)).toEqual(greeted.result)
    // Its open stream goes on from the stored events, to the stored end, with no gap.
    expect(await stream.waitForEnd(6 * testLeaseMs)).toBe(true)
    const got = stream.received.map((e) => ({ seq: Number(e.id), event: resultOf(e) }))
    expect(got).toEqual(await storedEvents(counting))
    expect(got.at(-1)!.event).toMatchObject({ final: true, status: { state: "failed" } })
    // And it is ready again.
    await eventually(async () => (cluster!.front.ready().includes(victim.name) ? true : undefined), 10_000, "ready again")
  }, 120_000)

  it("resumes a stream cut by SIGKILL of the instance running its task: later events once each, in order, then a terminal state", async () => {
    const stream = await openStream(front(), "message/stream", { message: userMessage("count 60") }, {}, 10_000)
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
    const resumed = await openStream(front(), "tasks/resubscribe", { id: taskId }, { "last-event-id": String(lastId) }, 30_000)
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
      const r = await rpc(front(), "message/send", { message: userMessage("hello after the crash"), configuration: { blocking: true } })
      return { state: r.body.result?.status?.state as string | undefined, instance: r.headers.get(instanceHeader) }
    }))
    expect(answers.map((a) => a.state)).toEqual(answers.map(() => "completed"))
    expect(answers.some((a) => a.instance === victim.name)).toBe(false)
  }, 120_000)

  it("leaves no task running without an instance, no message in two tasks, and every stored stream whole", async () => {
    const s = database!.schema
    // Whatever the faults left running is taken over within a few leases.
    await eventually(async () => {
      const [row] = await database!.query<{ readonly n: string }>(`SELECT count(*)::text AS n FROM ${s}.tasks WHERE state IN ('submitted', 'working')`)
      return Number(row!.n) === 0 ? true : undefined
    }, 5 * testLeaseMs, "no task left running")
    const twice = await database!.query<{ readonly message: string }>(
      `SELECT m->>'messageId' AS message FROM ${s}.tasks t, json_array_elements(t.task->'history') m
        WHERE m->>'role' = 'user' GROUP BY 1 HAVING count(DISTINCT t.id) > 1`
    )
    expect(twice).toEqual([])
    const broken = await database!.query<{ readonly id: string }>(
      `SELECT task_id AS id FROM ${s}.events GROUP BY task_id HAVING max(seq) - min(seq) + 1 <> count(*)
        OR count(*) FILTER (WHERE event->>'kind' = 'status-update' AND event->'status'->>'state' IN ('completed', 'canceled', 'failed', 'rejected')) > 1`
    )
    expect(broken).toEqual([])
    const logged = output.filter((line) => /\] \[[\d:.]+\] ERROR\b/.test(line))
    // Errors are about something: each names its task, or is the store's own (a connection cut on purpose).
    for (const line of logged) expect(line, line).toMatch(/task [0-9a-f-]{36}|PostgreSQL|connection/i)
  }, 60_000)
})
