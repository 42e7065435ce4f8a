/**
 * Two instances, each a real HTTP server on loopback with a store of its own, sharing one PostgreSQL
 * schema: whichever instance a request reaches, the task's agent runs on exactly one of them, a cancel or
 * a follow-up message reaches it, a terminal state is final, and streams read on either instance carry
 * the same numbered events.
 */
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveNode } from "../../adapters/node.ts"
import { Agent } from "../../agent/agent.ts"
import { messageText } from "../../agent/messages.ts"
import { A2AServer } from "../../server/a2a-server.ts"
import type { A2AServerHandle } from "../../server/a2a-server.ts"
import { eventually, textMessage, wireCall } from "../../../testing/server/wire-call.ts"
import type { WireCallOptions } from "../../../testing/server/wire-call.ts"
import { databaseUrl, dropSchema, randomSchema, requirePostgres, testDatabaseUrl, testQuery } from "../../../testing/store/postgres.ts"
import { makePostgresTaskStore } from "./pg-task-store.ts"
import { sampleTask } from "../../../testing/runtime/task-store-suite.ts"

const leaseMs = 1_000

/** What the agents of both instances did, by instance: which tasks they ran and which were interrupted. */
const ran: Array<string> = []
const interrupted: Array<string> = []

const agentOf = (instance: string, retrySafe = false) =>
  Agent.make({
    retrySafe,
    card: {
      name: `instance ${instance}`,
      description: "Holds, counts, races and asks, naming the instance it runs on.",
      version: "1.0.0",
      capabilities: { streaming: true, pushNotifications: true },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [{ id: "test", name: "test", description: "test", tags: ["test"] }]
    },
    execute: (ctx) =>
      Effect.gen(function*() {
        const text = messageText(ctx.message).trim()
        ran.push(`${instance}:${ctx.taskId}:${text}`)
        if (text === "hold") {
          yield* ctx.working()
          return yield* Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => interrupted.push(`${instance}:${ctx.taskId}`))))
        }
        if (text.startsWith("count ")) {
          const n = Number(text.slice(6))
          yield* ctx.working(`counting to ${n}`)
          for (let i = 1; i <= n; i++) {
            if (i > 1) yield* Effect.sleep(20)
            yield* ctx.artifact(`${i}\n`, { artifactId: "count", append: i > 1, lastChunk: i === n })
          }
          return yield* ctx.complete(`counted on ${instance}`)
        }
        if (text === "race") {
          yield* ctx.working()
          yield* Effect.sleep(Math.floor(Math.random() * 21))
          return yield* ctx.complete(`completed on ${instance}`)
        }
        if (text === "slow") {
          yield* ctx.working()
          yield* Effect.sleep(300)
          return yield* ctx.complete(`slow done on ${instance}`)
        }
        if (text === "ask") {
          const answer = yield* ctx.requestInput("your name?")
          return yield* ctx.complete(`hello ${messageText(answer)} from ${instance}`)
        }
        return yield* ctx.complete(`done on ${instance}`)
      })
  })

interface Instance {
  readonly name: string
  readonly server: A2AServerHandle
  readonly call: (method: string, params: unknown, options?: WireCallOptions) => ReturnType<typeof wireCall>
  readonly close: () => Promise<void>
}

const schema = randomSchema()
const instances: Array<Instance> = []

const start = async (name: string, inSchema = schema, retrySafe = false): Promise<Instance> => {
  const store = makePostgresTaskStore({ url: databaseUrl(), schema: inSchema, lease: leaseMs, instanceId: name })
  const server = await A2AServer.make(agentOf(name, retrySafe), {
    runtime: { store },
    push: { allow: ["127.0.0.1"], transport: async () => ({ status: 200 }) }
  })
  const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
  const instance: Instance = {
    name,
    server,
    call: (method, params, options = {}) => wireCall(fetch, method, params, { url: `${listening.url}/`, ...options }),
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

const retrySchema = randomSchema()

afterAll(async () => {
  for (const instance of instances) await instance.close()
  if (testDatabaseUrl !== undefined) {
    await Effect.runPromise(dropSchema(schema))
    await Effect.runPromise(dropSchema(retrySchema))
  }
})

/** A task started on `on` that is `working` when this returns. */
const startTask = async (on: Instance, text: string) => {
  const sent = await on.call("message/send", { ...textMessage(text), configuration: { blocking: false } })
  const task = sent.body.result
  expect(task).toMatchObject({ kind: "task" })
  return task.id as string
}

const stored = (taskId: string, inSchema = schema) =>
  testQuery<{ readonly state: string; readonly lease_instance: string | null; readonly last_seq: number }>(
    `SELECT state, lease_instance, last_seq FROM ${inSchema}.tasks WHERE id = $1`,
    [taskId]
  ).pipe(Effect.map((rows) => rows[0]), Effect.runPromise)

/** Every stored event of a task, read through `on` with Last-Event-ID 0 (up to and with the final one). */
const allEvents = async (on: Instance, taskId: string) => {
  const answer = await on.call("tasks/resubscribe", { id: taskId }, { headers: { "last-event-id": "0" } })
  return answer.events.map((e) => e.result)
}

const finalStates = (events: ReadonlyArray<any>) =>
  events.filter((e) => e.kind === "status-update" && e.final === true).map((e) => e.status.state)

describe("two instances on one PostgreSQL schema", () => {
  requirePostgres()

  it("a cancel through B stops the agent on A; the task ends canceled once", async () => {
    const id = await startTask(a, "hold")
    expect(ran).toContain(`A:${id}:hold`)
    const canceled = await b.call("tasks/cancel", { id })
    expect(canceled.body.result?.status.state).toBe("canceled")
    await eventually(() => (interrupted.includes(`A:${id}`) ? true : undefined))
    expect((await stored(id))?.state).toBe("canceled")
    expect(finalStates(await allEvents(b, id))).toEqual(["canceled"])
    // canceled is final everywhere: again through either instance, -32002
    expect((await a.call("tasks/cancel", { id })).body.error?.code).toBe(-32002)
    expect((await b.call("tasks/cancel", { id })).body.error?.code).toBe(-32002)
    expect(ran.filter((r) => r.includes(id))).toEqual([`A:${id}:hold`])
  })

  it("100 races of complete on A against cancel through B each end in exactly one terminal state", async () => {
    const races = Array.from({ length: 100 }, (_, i) => i)
    const outcomes: Array<string> = []
    for (let batch = 0; batch < races.length; batch += 10) {
      await Promise.all(races.slice(batch, batch + 10).map(async () => {
        const id = await startTask(a, "race")
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 21)))
        const cancel = await b.call("tasks/cancel", { id })
        const final = await eventually(async () => {
          const row = await stored(id)
          return row !== undefined && ["completed", "canceled"].includes(row.state) ? row.state : undefined
        }, 5_000)
        if (cancel.body.error !== undefined) {
          expect(cancel.body.error.code).toBe(-32002)
          expect(final).toBe("completed")
        } else {
          expect(cancel.body.result.status.state).toBe("canceled")
          expect(final).toBe("canceled")
        }
        const events = await allEvents(b, id)
        expect(finalStates(events)).toEqual([final])
        expect(events.map((_, i) => i)).toHaveLength(events.length)
        outcomes.push(final)
      }))
    }
    expect(outcomes).toHaveLength(100)
  }, 60_000)

  it("a stream read through B carries A's events with the same ids, and Last-Event-ID resumes there", async () => {
    const first = await a.call("message/stream", textMessage("count 12"), { maxEvents: 5 })
    const head = first.events.map((e) => e.result)
    const id = head[0].id as string
    expect(head[0]).toMatchObject({ kind: "task", status: { state: "submitted" } })
    // the rest through B, after the 5th event
    const rest = await b.call("tasks/resubscribe", { id }, { headers: { "last-event-id": "5" } })
    const whole = await allEvents(a, id)
    // read through B as well: the same bytes
    expect(JSON.stringify(await allEvents(b, id))).toBe(JSON.stringify(whole))
    // byte for byte: a replayed event is the event as it was streamed, keys in the same order
    expect(JSON.stringify([...head, ...rest.events.map((e) => e.result)])).toBe(JSON.stringify(whole))
    expect(finalStates(whole)).toEqual(["completed"])
    const chunks = whole.filter((e) => e.kind === "artifact-update").map((e) => e.artifact.parts[0].text)
    expect(chunks).toEqual(Array.from({ length: 12 }, (_, i) => `${i + 1}\n`))
    expect((await stored(id))?.last_seq).toBe(whole.length)
  })

  it("a stream read through B survives B losing its database connections", async () => {
    const started = await a.call("message/stream", textMessage("count 15"), { maxEvents: 2 })
    const id = started.events[0].result.id as string
    const reading = b.call("tasks/resubscribe", { id }, { headers: { "last-event-id": "2" }, timeoutMs: 10_000 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    // every connection of B (its pool and its LISTEN) is cut by the server
    const cut = await Effect.runPromise(testQuery<{ readonly cut: boolean }>(
      `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = 'a2a-actors B'`
    ))
    expect(cut.length).toBeGreaterThan(0)
    const rest = (await reading).events.map((e) => e.result)
    expect(JSON.stringify([...started.events.map((e) => e.result), ...rest])).toBe(JSON.stringify(await allEvents(a, id)))
    expect(finalStates(rest)).toEqual(["completed"])
  })

  it("a follow-up message through B reaches the agent waiting on A", async () => {
    const asked = await a.call("message/send", textMessage("ask"))
    const task = asked.body.result
    expect(task.status.state).toBe("input-required")
    const answered = await b.call("message/send", textMessage("Ada", { taskId: task.id }))
    expect(answered.body.result.status.state).toBe("completed")
    // the Task as the instance running it has it
    expect(answered.body.result).toEqual((await a.call("tasks/get", { id: task.id })).body.result)
    expect(answered.body.result.status.message.parts[0].text).toBe("hello Ada from A")
    expect(ran.filter((r) => r.includes(task.id))).toEqual([`A:${task.id}:ask`])
  })

  it("a follow-up message streamed through B streams A's events", async () => {
    const asked = await a.call("message/send", textMessage("ask"))
    const task = asked.body.result
    const streamed = await b.call("message/stream", textMessage("Grace", { taskId: task.id }))
    const events = streamed.events.map((e) => e.result)
    expect(events[0]).toMatchObject({ kind: "task", id: task.id, status: { state: "input-required" } })
    expect(finalStates(events)).toEqual(["completed"])
    expect(events.at(-1).status.message.parts[0].text).toBe("hello Grace from A")
  })

  it("push configs set and deleted through B are those of the task running on A", async () => {
    const id = await startTask(a, "hold")
    const config = { id: "cfg-b", url: "http://127.0.0.1:9/hook" }
    const set = await b.call("tasks/pushNotificationConfig/set", { taskId: id, pushNotificationConfig: config })
    expect(set.body.result?.pushNotificationConfig.id).toBe("cfg-b")
    expect(a.server.runtime.hosted()).toBeGreaterThan(0)
    const listed = await a.call("tasks/pushNotificationConfig/list", { id })
    expect(listed.body.result.map((c: any) => c.pushNotificationConfig.id)).toEqual(["cfg-b"])
    await b.call("tasks/pushNotificationConfig/delete", { id, pushNotificationConfigId: "cfg-b" })
    expect((await a.call("tasks/pushNotificationConfig/list", { id })).body.result).toEqual([])
    await a.call("tasks/cancel", { id })
  })
})

describe("fencing by lease epoch", () => {
  requirePostgres()

  it("refuses the writes of an instance whose lease another took over", async () => {
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const options = { url: databaseUrl(), schema, lease: leaseMs }
      const first = yield* makePostgresTaskStore({ ...options, instanceId: "stale" })
      const second = yield* makePostgresTaskStore({ ...options, instanceId: "fresh" })
      const id = `fenced-${crypto.randomUUID()}`
      const created = yield* first.put({ task: sampleTask(id), owner: "a", pushConfigs: [] }, 0)
      expect(created.lease).toMatchObject({ instance: "stale", epoch: 1, live: true })
      // the first instance stalls past its lease: nobody renews it
      yield* testQuery(`UPDATE ${schema}.tasks SET lease_until = 0 WHERE id = $1`, [id])
      const taken = Option.getOrThrow(yield* second.shared.takeOver(id, 1))
      expect(taken.lease).toMatchObject({ instance: "fresh", epoch: 2, live: true })
      const stale = yield* Effect.flip(
        first.put({ task: sampleTask(id, "completed"), owner: "a", pushConfigs: [], leaseEpoch: 1 }, taken.version)
      )
      expect(stale).toMatchObject({ _tag: "WriteRefused", reason: "lease" })
      const failed = yield* second.put({ task: sampleTask(id, "failed"), owner: "a", pushConfigs: [], leaseEpoch: 2 }, taken.version)
      expect(failed.task.status.state).toBe("failed")
      expect(failed.lease).toBeUndefined()
      expect(Option.getOrThrow(yield* first.get(id)).task.status.state).toBe("failed")
      // nobody takes a terminal task over
      expect(Option.isNone(yield* first.shared.takeOver(id, 2))).toBe(true)
      expect(Option.isNone(yield* first.shared.takeOver(id, 3))).toBe(true)
      // The fence is the writer's, not the process's: a stale writer is refused beside a fresh one in the same instance.
      const other = `fenced-${crypto.randomUUID()}`
      yield* first.put({ task: sampleTask(other), owner: "a", pushConfigs: [] }, 0)
      yield* testQuery(`UPDATE ${schema}.tasks SET lease_until = 0 WHERE id = $1`, [other])
      const again = Option.getOrThrow(yield* first.shared.takeOver(other, 1))
      expect(again.lease).toMatchObject({ instance: "stale", epoch: 2 })
      const older = yield* Effect.flip(
        first.put({ task: sampleTask(other, "completed"), owner: "a", pushConfigs: [], leaseEpoch: 1 }, again.version)
      )
      expect(older).toMatchObject({ _tag: "WriteRefused", reason: "lease" })
      const newer = yield* first.put({ task: sampleTask(other, "completed"), owner: "a", pushConfigs: [], leaseEpoch: 2 }, again.version)
      expect(newer.task.status.state).toBe("completed")
    })))
  })

  it("ends failed, on a live instance, a task whose instance stopped renewing its lease", async () => {
    const id = await startTask(a, "hold")
    // A stops renewing this lease as if it had stopped: its lease row is taken from it
    await Effect.runPromise(testQuery(`UPDATE ${schema}.tasks SET lease_instance = 'gone', lease_until = 0 WHERE id = $1`, [id]))
    const final = await eventually(async () => {
      const row = await stored(id)
      return row?.state === "failed" ? row : undefined
    }, 4 * leaseMs)
    expect(final.lease_instance).toBeNull()
    const task = (await b.call("tasks/get", { id })).body.result
    expect(task.status.message.parts[0].text).toMatch(/instance that stopped/)
    // A's agent is stopped once A finds its writes refused (here: on its next write, the cancel at shutdown)
    expect(finalStates(await allEvents(b, id))).toEqual(["failed"])
  })
})

describe("an agent that is safe to run again", () => {
  requirePostgres()

  it("runs again on a live instance when its instance lost the lease, and the stale run's writes are refused", async () => {
    const c = await start("C", retrySchema, true)
    const d = await start("D", retrySchema, true)
    const id = await startTask(c, "slow")
    // C stalls past its lease (as if paused): the lease is no longer C's
    await Effect.runPromise(testQuery(`UPDATE ${retrySchema}.tasks SET lease_instance = 'gone', lease_until = 0 WHERE id = $1`, [id]))
    const done = await eventually(async () => {
      const row = await stored(id, retrySchema)
      return row?.state === "completed" ? row : undefined
    }, 5 * leaseMs)
    expect(done.lease_instance).toBeNull()
    const task = (await d.call("tasks/get", { id })).body.result
    // C's own completion came while it no longer held the lease: refused, so the run that stored its end is the second one
    const runs = ran.filter((r) => r.includes(id))
    expect(runs).toHaveLength(2)
    expect(task.status.message.parts[0].text).toMatch(/^slow done on [CD]$/)
    expect(runs[1]!.startsWith(task.status.message.parts[0].text.slice(-1))).toBe(true)
    expect(finalStates(await allEvents(c, id))).toEqual(["completed"])
  })
})

describe("events on the instance that runs the task", () => {
  requirePostgres()

  it("reach its readers only once stored, so the id a reader holds is one every instance has", async () => {
    // A slow store: every write takes 80 ms more, so an event shown before it is stored would be seen.
    const slow = Effect.map(
      makePostgresTaskStore({ url: databaseUrl(), schema, lease: leaseMs, instanceId: "slow" }),
      (store) => ({ ...store, put: (...args: Parameters<typeof store.put>) => Effect.delay(store.put(...args), 80) })
    )
    const server = await A2AServer.make(agentOf("S"), { runtime: { store: slow } })
    const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
    try {
      const response = await fetch(`${listening.url}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/stream", params: textMessage("count 4") })
      })
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ""
      const checked: Array<number> = []
      let taskId: string | undefined
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        buffer += value
        let end: number
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const idLine = /^id: ?(\d+)$/m.exec(frame)
          if (idLine === null) continue
          const id = Number(idLine[1])
          const event = JSON.parse(/^data: ?(.*)$/m.exec(frame)![1]!).result
          taskId ??= event.id
          const rows = await Effect.runPromise(
            testQuery<{ readonly seq: number }>(`SELECT seq FROM ${schema}.events WHERE task_id = $1 AND seq = $2`, [taskId, id])
          )
          expect(rows, `event ${id} is stored when it arrives`).toHaveLength(1)
          checked.push(id)
        }
      }
      expect(checked).toEqual(Array.from({ length: checked.length }, (_, i) => i + 1))
      expect(checked.length).toBeGreaterThanOrEqual(7)
    } finally {
      await listening.close({ graceMs: 0 })
    }
  })
})
