/**
 * What keeps the PostgreSQL store bounded: a window of events per running task (a resume from before it
 * starts with the Task), a finished task's events dropped once resuming it no longer needs them, `list`
 * with a limit, housekeeping in batches, commands kept for as long as a live instance may answer them,
 * and tasks waiting for input bounded per principal and in time across instances.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Stream } from "effect"
import { afterAll, beforeAll, describe as describeServers, expect as expectServers, it as itServers } from "vitest"
import { serveNode } from "../../adapters/node.ts"
import { Agent } from "../../agent/agent.ts"
import { messageText } from "../../agent/messages.ts"
import { A2AServer } from "../../server/a2a-server.ts"
import { sampleTask } from "../../../testing/runtime/task-store-suite.ts"
import { eventually, textMessage, wireCall } from "../../../testing/server/wire-call.ts"
import { databaseUrl, dropSchema, randomSchema, requirePostgres, testDatabaseUrl, testQuery, testStore } from "../../../testing/store/postgres.ts"
import { batchSize } from "./housekeeping.ts"
import { makePostgresTaskStore } from "./pg-task-store.ts"

const count = (schema: string, table: string, where = "true") =>
  Effect.map(testQuery<{ readonly n: string }>(`SELECT count(*)::text AS n FROM ${schema}.${table} WHERE ${where}`), (rows) => Number(rows[0]!.n))

const events = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ seq: from + i, event: { kind: "status-update", n: from + i } as never }))

describe("PostgreSQL store bounds", () => {
  requirePostgres()

  it.live("keeps a window of events per running task; a resume from before it starts with the Task", () =>
    Effect.gen(function*() {
      const store = yield* testStore({ eventWindow: 64 })
      let version = 0
      for (let from = 1; from <= 1_000; from += 50) {
        const record = yield* store.put({ task: sampleTask("long"), owner: "a", pushConfigs: [], events: events(from, from + 49) }, version)
        version = record.version
      }
      const kept = yield* count(store.schema, "events", "task_id = 'long'")
      expect(kept).toBeGreaterThanOrEqual(64)
      expect(kept).toBeLessThanOrEqual(64 + 256)
      // From the start: the Task first, numbered with the last event it reflects, then nothing is missing.
      const read = yield* Stream.runCollect(Stream.take(store.shared.events("long", 0), 1))
      expect(read[0]).toMatchObject({ seq: 1_000, event: { kind: "task", id: "long" } })
      // Within the window: the events themselves.
      const recent = yield* Stream.runCollect(Stream.take(store.shared.events("long", 990), 10))
      expect(recent.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 991 + i))
    }))

  it.live("drops a finished task's events after `finishedEventsTtl`, keeping the task, whose resume gets the final Task", () =>
    Effect.gen(function*() {
      const store = yield* testStore({ finishedEventsTtl: "200 millis", lease: "300 millis" })
      yield* store.put({ task: sampleTask("done", "completed"), owner: "a", pushConfigs: [], events: events(1, 5) }, 0)
      yield* store.put({ task: sampleTask("busy"), owner: "a", pushConfigs: [], events: events(1, 5) }, 0)
      let waited = 0
      while ((yield* count(store.schema, "events", "task_id = 'done'")) > 0 && waited < 5_000) {
        yield* Effect.sleep("50 millis")
        waited += 50
      }
      expect(yield* count(store.schema, "events", "task_id = 'done'")).toBe(0)
      expect(yield* count(store.schema, "events", "task_id = 'busy'")).toBe(5)
      expect(Option.isSome(yield* store.get("done"))).toBe(true)
      const read = yield* Stream.runCollect(Stream.take(store.shared.events("done", 2), 1))
      expect(read[0]).toMatchObject({ seq: 5, event: { kind: "task", status: { state: "completed" } } })
    }), 15_000)

  it.live("expires finished tasks in batches, every one of them, never a running one", () =>
    Effect.gen(function*() {
      const store = yield* testStore({ terminalTtl: "200 millis", lease: "300 millis" })
      const n = 2 * batchSize + 100
      yield* testQuery(`INSERT INTO ${store.schema}.tasks (id, owner, context_id, state, version, task, push_configs, updated_at)
        SELECT 'old-' || i, 'a', 'c', 'completed', 1, '{}'::json, '[]'::json, 0 FROM generate_series(1, $1::int) i`, [n])
      yield* store.put({ task: sampleTask("running"), owner: "a", pushConfigs: [] }, 0)
      let waited = 0
      while ((yield* count(store.schema, "tasks", "state = 'completed'")) > 0 && waited < 10_000) {
        yield* Effect.sleep("100 millis")
        waited += 100
      }
      expect(yield* count(store.schema, "tasks", "state = 'completed'")).toBe(0)
      expect(Option.isSome(yield* store.get("running"))).toBe(true)
    }), 20_000)

  it.live("lists at most 1,000 records, or the limit asked for", () =>
    Effect.gen(function*() {
      const store = yield* testStore()
      yield* testQuery(`INSERT INTO ${store.schema}.tasks (id, owner, context_id, state, version, task, push_configs, updated_at)
        SELECT 't-' || i, 'a', 'c', 'working', 1, json_build_object('id', 't-' || i), '[]'::json, i FROM generate_series(1, 1005) i`)
      expect(yield* Effect.map(store.list(), (rs) => rs.length)).toBe(1_000)
      expect(yield* Effect.map(store.list({ owner: "a", limit: 10 }), (rs) => rs.map((r) => r.task.id))).toEqual(
        Array.from({ length: 10 }, (_, i) => `t-${i + 1}`)
      )
    }))
})

// --- instances ------------------------------------------------------------------------------------

const schema = randomSchema()
const leaseMs = 600
const release = new Map<string, () => void>()

const agent = Agent.make({
  card: {
    name: "bounds",
    description: "asks, or waits to be told",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "ask", name: "ask", description: "ask", tags: ["ask"] }]
  },
  execute: (ctx) =>
    Effect.gen(function*() {
      const answer = ctx.resumed ? ctx.message : yield* ctx.requestInput("name?")
      // "slow <key>": finish only once the test says so.
      const key = /^slow (\S+)$/.exec(messageText(answer))?.[1]
      if (key !== undefined) yield* Effect.callback<void>((resume) => void release.set(key, () => resume(Effect.void)))
      yield* ctx.complete(`hello ${messageText(answer)}`)
    })
})

const servers: Array<{ readonly url: string; readonly close: () => Promise<void> }> = []
const start = async (name: string) => {
  const server = await A2AServer.make(agent, {
    runtime: {
      store: makePostgresTaskStore({ url: databaseUrl(), schema, instanceId: name, lease: leaseMs, terminalTtl: "300 millis" }),
      waitingTasks: { perPrincipal: 3, idleTtl: "2 seconds" }
    }
  })
  const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
  const entry = { url: `${listening.url}/`, close: () => listening.close({ graceMs: 0 }) }
  servers.push(entry)
  return entry
}

let a: { readonly url: string }
let b: { readonly url: string }
beforeAll(async () => {
  if (testDatabaseUrl === undefined) return
  a = await start("A")
  b = await start("B")
}, 30_000)
afterAll(async () => {
  for (const s of servers) await s.close()
  if (testDatabaseUrl !== undefined) await Effect.runPromise(dropSchema(schema))
})

const call = (on: { readonly url: string }, method: string, params: unknown) =>
  wireCall(fetch, method, params, { url: on.url, timeoutMs: 15_000 })

describeServers("instances on one schema", () => {
  requirePostgres()

  itServers("a forwarded send waiting longer than the command sweep's hour still gets its answer", async () => {
    const asked = (await call(a, "message/send", textMessage("hi"))).body.result
    expectServers(asked.status.state).toBe("input-required")
    // Through B to A, which takes the answer and waits to be told to finish.
    const sending = call(b, "message/send", textMessage("slow k1", { taskId: asked.id }))
    await eventually(() => (release.has("k1") ? true : undefined), 5_000)
    // The command has waited over an hour (as far as its row says); a few housekeeping rounds pass.
    await Effect.runPromise(testQuery(`UPDATE ${schema}.commands SET created_at = now() - interval '2 hours'`))
    await new Promise((resolve) => setTimeout(resolve, 4 * leaseMs))
    expectServers(await Effect.runPromise(count(schema, "commands"))).toBe(1)
    release.get("k1")!()
    const answered = (await sending).body
    expectServers(answered.result?.status.state, JSON.stringify(answered)).toBe("completed")
    expectServers(answered.result.status.message.parts[0].text).toBe("hello slow k1")
  }, 30_000)

  itServers("a principal's tasks waiting for input are bounded across instances, and each waits at most idleTtl", async () => {
    const waiting = [
      (await call(a, "message/send", textMessage("hi"))).body.result,
      (await call(b, "message/send", textMessage("hi"))).body.result
    ]
    // With the task of the first test's answer done, these and the next make three; a fourth is refused.
    const third = (await call(a, "message/send", textMessage("hi"))).body.result
    expectServers([...waiting, third].map((t) => t.status.state)).toEqual(["input-required", "input-required", "input-required"])
    const fourth = (await call(b, "message/send", textMessage("hi"))).body.result
    expectServers(fourth.status.state).toBe("failed")
    expectServers(fourth.status.message.parts[0].text).toMatch(/already has 3 tasks waiting for input/)
    // Left waiting: each ends failed after idleTtl, on whichever instance runs it.
    for (const t of [...waiting, third]) {
      const ended = await eventually(async () => {
        const got = (await call(b, "tasks/get", { id: t.id })).body.result
        return got.status.state === "failed" ? got : undefined
      }, 8_000)
      expectServers(ended.status.message.parts[0].text).toMatch(/^No answer came within 2 seconds/)
    }
  }, 30_000)
})
