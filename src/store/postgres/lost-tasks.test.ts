/**
 * Tasks whose instance lost them, served by the demo agent on two in-process instances (real HTTP servers
 * on loopback) sharing one PostgreSQL schema. An instance "loses" a task the way a stalled instance does:
 * its lease is taken from it in the database (as if it had been paused past the lease), and the other
 * instance's sweep takes the task over. Every answer must then be what the store holds.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { demoAgent } from "../../../examples/agents/demo.ts"
import { serveNode } from "../../adapters/node.ts"
import { A2AServer } from "../../server/a2a-server.ts"
import type { A2AServerHandle } from "../../server/a2a-server.ts"
import { eventually, textMessage, wireCall } from "../../../testing/server/wire-call.ts"
import type { WireCallOptions } from "../../../testing/server/wire-call.ts"
import { databaseUrl, dropSchema, randomSchema, requirePostgres, testDatabaseUrl, testQuery } from "../../../testing/store/postgres.ts"
import { makePostgresTaskStore } from "./pg-task-store.ts"

const leaseMs = 1_000
const schema = randomSchema()

interface Instance {
  readonly name: string
  readonly server: A2AServerHandle
  readonly call: (method: string, params: unknown, options?: WireCallOptions) => ReturnType<typeof wireCall>
  readonly close: () => Promise<void>
}

const instances: Array<Instance> = []
const start = async (name: string): Promise<Instance> => {
  const store = makePostgresTaskStore({ url: databaseUrl(), schema, lease: leaseMs, instanceId: name })
  const server = await A2AServer.make(demoAgent, { runtime: { store } })
  const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
  const instance: Instance = {
    name,
    server,
    call: (method, params, options = {}) => wireCall(fetch, method, params, { url: `${listening.url}/`, timeoutMs: 15_000, ...options }),
    close: () => listening.close({ graceMs: 0 })
  }
  instances.push(instance)
  return instance
}

let a: Instance
let b: Instance

beforeAll(async () => {
  if (testDatabaseUrl === undefined) return
  a = await start("A")
  b = await start("B")
}, 30_000)

afterAll(async () => {
  for (const instance of instances) await instance.close()
  if (testDatabaseUrl !== undefined) await Effect.runPromise(dropSchema(schema))
})

interface Row {
  readonly state: string
  readonly lease_instance: string | null
  readonly lease_epoch: number
  readonly task: any
}

const stored = (taskId: string): Promise<Row | undefined> =>
  testQuery<Row>(`SELECT state, lease_instance, lease_epoch, task FROM ${schema}.tasks WHERE id = $1`, [taskId]).pipe(
    Effect.map((rows) => {
      const row = rows[0]
      return row === undefined ? undefined : { ...row, task: typeof row.task === "string" ? JSON.parse(row.task) : row.task }
    }),
    Effect.runPromise
  )

/**
 * Takes the task's lease from the instance running it, as another instance does once it stalled past the
 * lease: the lease now names a stopped instance, one epoch on, and has expired. A live instance's sweep then
 * takes the task over (ending a running task failed, leaving a waiting one waiting without a lease).
 */
const loseLease = async (taskId: string) => {
  await Effect.runPromise(testQuery(
    `UPDATE ${schema}.tasks SET lease_instance = 'stopped', lease_epoch = lease_epoch + 1, lease_until = 0 WHERE id = $1`,
    [taskId]
  ))
}

/** A `greet` task waiting for a name, which its instance then lost; the other instance took it over. */
const lostGreeting = async (on: Instance) => {
  const asked = (await on.call("message/send", textMessage("greet"))).body.result
  expect(asked.status.state).toBe("input-required")
  await loseLease(asked.id)
  // Taken over: waiting for input still, and no instance holds it.
  await eventually(async () => ((await stored(asked.id))?.lease_instance === null ? true : undefined), 5 * leaseMs)
  return asked.id as string
}

const finalStates = (events: ReadonlyArray<any>) =>
  events.filter((e) => e.kind === "status-update" && e.final === true).map((e) => e.status.state)

describe("a task its instance lost", () => {
  requirePostgres()

  it("two answers at once and a cancel on an instance that does not host it: each answer is what the store holds", async () => {
    for (let round = 0; round < 5; round++) {
      const id = await lostGreeting(a)
      const answers = [textMessage("Ada", { taskId: id }), textMessage("Bob", { taskId: id })]
      const sends = answers.map((m) => b.call("message/send", m))
      await new Promise((resolve) => setTimeout(resolve, 70))
      const cancel = await b.call("tasks/cancel", { id })
      const sent = await Promise.all(sends)
      const row = await eventually(async () => {
        const r = await stored(id)
        return r !== undefined && ["completed", "canceled"].includes(r.state) ? r : undefined
      }, 5 * leaseMs)
      const storedIds = (row.task.history as Array<any>).map((m) => m.messageId)
      const story = `round ${round}: stored ${JSON.stringify(row.task).slice(0, 600)}; sends ${JSON.stringify(sent.map((s) => s.body)).slice(0, 600)}; cancel ${JSON.stringify(cancel.body)}`
      for (const [i, answer] of sent.entries()) {
        const result = answer.body.result
        if (result === undefined) {
          // Refused: the task was no longer open for it, and its message is not in the task.
          expect(answer.body.error?.code, story).toBe(-32602)
          expect(storedIds, story).not.toContain(answers[i]!.message.messageId)
          continue
        }
        // Taken: its message is in the stored task, and the answer is the task as it was stored.
        expect(storedIds, story).toContain(answers[i]!.message.messageId)
        expect(result.history.map((m: any) => m.messageId), story).toEqual(storedIds.slice(0, result.history.length))
        expect(["completed", "canceled"], story).toContain(result.status.state)
        expect(result.status.state, story).toBe(row.state)
      }
      if (cancel.body.result !== undefined) expect(row.state, story).toBe("canceled")
      else {
        expect(cancel.body.error.code, story).toBe(-32002)
        expect(row.state, story).toBe("completed")
      }
      // The stored stream holds exactly one terminal event, the stored end, and no gap or repeat.
      const events = (await Effect.runPromise(testQuery<{ readonly seq: number; readonly event: any }>(
        `SELECT seq, event FROM ${schema}.events WHERE task_id = $1 ORDER BY seq`, [id]
      ))).map((r) => ({ seq: Number(r.seq), event: typeof r.event === "string" ? JSON.parse(r.event) : r.event }))
      expect(events.map((e) => e.seq), story).toEqual(events.map((_, i) => i + 1))
      const ends = events.filter((e) => e.event.kind === "status-update" && ["completed", "canceled", "failed"].includes(e.event.status.state))
      expect(ends.map((e) => e.event.status.state), story).toEqual([row.state])
      await eventually(() => (b.server.runtime.hosted() === 0 ? true : undefined), 5 * leaseMs)
    }
  }, 60_000)

  it("an answer through the other instance runs the agent on: the demo greets, not echoes", async () => {
    const id = await lostGreeting(a)
    const answered = (await b.call("message/send", textMessage("Ada", { taskId: id }))).body.result
    expect(answered.status.state).toBe("completed")
    expect(answered.status.message.parts[0].text).toBe("Hello, Ada!")
    expect(answered).toEqual((await b.call("tasks/get", { id })).body.result)
  })

  it("a workflow waiting for review continues on the other instance from the machine it saved", async () => {
    const drafted = (await a.call("message/send", textMessage("draft a launch note"))).body.result
    expect(drafted.status.state).toBe("input-required")
    await loseLease(drafted.id)
    await eventually(async () => ((await stored(drafted.id))?.lease_instance === null ? true : undefined), 5 * leaseMs)
    const approved = (await b.call("message/send", textMessage("approve", { taskId: drafted.id }))).body.result
    expect(approved.status.state).toBe("completed")
    expect(approved.artifacts.map((x: any) => x.name)).toContain("document")
  })

  it("the instance that lost a waiting task answers a follow-up with what the store holds, not from memory", async () => {
    const id = await lostGreeting(a)
    const answered = await a.call("message/send", textMessage("Ada", { taskId: id }))
    const row = await eventually(async () => {
      const r = await stored(id)
      return r !== undefined && r.state === "completed" ? r : undefined
    }, 5 * leaseMs).catch(async () => stored(id))
    expect(answered.body.result, JSON.stringify(row?.task)).toEqual(row?.task)
    expect(answered.body.result.status.message.parts[0].text).toBe("Hello, Ada!")
  })

  it("the instance that lost a waiting task lets it go from memory, not at shutdown", async () => {
    const before = a.server.runtime.hosted()
    const asked = (await a.call("message/send", textMessage("greet"))).body.result
    expect(a.server.runtime.hosted()).toBe(before + 1)
    await loseLease(asked.id)
    await eventually(() => (a.server.runtime.hosted() === before ? true : undefined), 5 * leaseMs)
  })

  it("a stream on the instance that lost its task goes on from the stored events to the final one", async () => {
    const stream = a.call("message/stream", textMessage("count 30"), { timeoutMs: 15_000 })
    const id = await eventually(async () => {
      const rows = await Effect.runPromise(testQuery<{ readonly id: string }>(
        `SELECT id FROM ${schema}.tasks WHERE state = 'working' AND last_seq >= 5 AND lease_instance = 'A'`
      ))
      return rows[0]?.id
    }, 5_000)
    await loseLease(id)
    const events = (await stream).events.map((e) => e.result)
    expect(finalStates(events)).toEqual(["failed"])
    expect(events.at(-1).status.message.parts[0].text).toMatch(/instance/)
    // The same events, with no gap, as every instance has them.
    const whole = (await b.call("tasks/resubscribe", { id }, { headers: { "last-event-id": "0" } })).events.map((e) => e.result)
    expect(events).toEqual(whole)
  })
})
