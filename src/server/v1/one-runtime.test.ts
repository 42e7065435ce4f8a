/**
 * One runtime behind both versions: a task created over one version is read, continued, canceled and resumed
 * over the other; ownership, ListTasks' scope, the audit trail and `Last-Event-ID` resume behave the same on
 * both; and all of it holds on the PostgreSQL store too.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiKeyAuthenticator } from "../../auth/api-key.ts"
import { memoryAuditSink, type MemoryAuditSink } from "../../audit/audit-sink.ts"
import { postgresStore } from "../../store/postgres/index.ts"
import { databaseUrl, dropSchema, randomSchema, requirePostgres, testDatabaseUrl } from "../../../testing/store/postgres.ts"
import { testAgent } from "../../../testing/server/test-agent.ts"
import { v1Call, v1Text } from "../../../testing/server/v1-call.ts"
import { textMessage, wireCall } from "../../../testing/server/wire-call.ts"
import { A2AServer, type A2AServerConfig, type A2AServerHandle } from "../a2a-server.ts"

const alice = { "x-api-key": "key-of-alice" }
const bob = { "x-api-key": "key-of-bob" }

const agent = testAgent({
  capabilities: { streaming: true, pushNotifications: false },
  securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
  security: [{ key: [] }]
})

const config = (extra: Partial<A2AServerConfig>): A2AServerConfig => ({
  authentication: { authenticators: { key: apiKeyAuthenticator({ keys: { "key-of-alice": { id: "alice" }, "key-of-bob": { id: "bob" } } }) } },
  ...extra
})

const suite = (name: string, make: () => Promise<{ server: A2AServerHandle; sink: MemoryAuditSink; close: () => Promise<void> }>, enabled = true) =>
  describe(name, () => {
    let server: A2AServerHandle
    let sink: MemoryAuditSink
    let close: () => Promise<void>
    beforeAll(async () => {
      // Without its service the suite's tests are skipped (with the reason) and nothing is started.
      if (enabled) ({ server, sink, close } = await make())
    }, 30_000)
    afterAll(async () => {
      await close?.()
    })

    it("a task started over 0.3 is read, continued and canceled over 1.0, and read back over 0.3", async () => {
      const started = await wireCall(server.handler, "message/send", { ...textMessage("hold"), configuration: { blocking: false } }, { headers: alice })
      const id = started.body.result.id as string
      const read = await v1Call(server.handler, "GetTask", { id }, { headers: alice })
      expect(read.body.result).toMatchObject({ id, status: { state: expect.stringMatching(/TASK_STATE_(SUBMITTED|WORKING)/) } })
      const continued = await v1Call(server.handler, "SendMessage", v1Text("hold", { taskId: id }, { returnImmediately: true }), { headers: alice })
      expect(continued.body.result.task.id).toBe(id)
      const canceled = await v1Call(server.handler, "CancelTask", { id }, { headers: alice })
      expect(canceled.body.result.status.state).toBe("TASK_STATE_CANCELED")
      const back = await wireCall(server.handler, "tasks/get", { id }, { headers: alice })
      expect(back.body.result).toMatchObject({ kind: "task", id, status: { state: "canceled" } })
      expect(back.body.result.history.length).toBe(read.body.result.history.length + 1)
    })

    it("a task started over 1.0 is resubscribed over 0.3 and resumed over 1.0 from Last-Event-ID", async () => {
      const held = (await v1Call(server.handler, "SendMessage", v1Text("hold", {}, { returnImmediately: true }), { headers: alice })).body.result.task
      const old = await wireCall(server.handler, "tasks/resubscribe", { id: held.id }, { headers: alice, maxEvents: 1 })
      expect(old.events[0].result).toMatchObject({ kind: "task", id: held.id })
      // A follow-up produces new events; a 1.0 subscriber resuming after event 1 gets them without the snapshot.
      await wireCall(server.handler, "message/send", { ...textMessage("hold", { taskId: held.id }), configuration: { blocking: false } }, { headers: alice })
      const resumed = await v1Call(server.handler, "SubscribeToTask", { id: held.id }, { headers: { ...alice, "last-event-id": "1" }, maxEvents: 1 })
      expect(resumed.events).toHaveLength(1)
      expect(resumed.events[0].result.task).toBeUndefined()
      await v1Call(server.handler, "CancelTask", { id: held.id }, { headers: alice })
    })

    it("another principal finds nothing on either version, and ListTasks lists only the caller's tasks", async () => {
      const mine = (await v1Call(server.handler, "SendMessage", v1Text("done"), { headers: alice })).body.result.task
      expect((await v1Call(server.handler, "GetTask", { id: mine.id }, { headers: bob })).body.error.code).toBe(-32001)
      expect((await wireCall(server.handler, "tasks/get", { id: mine.id }, { headers: bob })).body.error.code).toBe(-32001)
      expect((await v1Call(server.handler, "CancelTask", { id: mine.id }, { headers: bob })).body.error.code).toBe(-32001)
      const bobs = (await v1Call(server.handler, "SendMessage", v1Text("done"), { headers: bob })).body.result.task
      const listed = await v1Call(server.handler, "ListTasks", { pageSize: 100, includeArtifacts: true }, { headers: alice })
      const ids = listed.body.result.tasks.map((t: { id: string }) => t.id)
      expect(ids).toContain(mine.id)
      expect(ids).not.toContain(bobs.id)
      expect(listed.body.result.tasks[0].artifacts).toEqual(expect.any(Array))
      const unauthenticated = await v1Call(server.handler, "ListTasks", {})
      expect(unauthenticated.status).toBe(401)
    })

    it("pages ListTasks newest first, each task once", async () => {
      for (let i = 0; i < 5; i++) await v1Call(server.handler, "SendMessage", v1Text(`done ${i}`), { headers: bob })
      const seen: Array<{ id: string; status: { timestamp: string } }> = []
      let token = ""
      for (let page = 0; page < 20; page++) {
        const answer = (await v1Call(server.handler, "ListTasks", { pageSize: 2, ...(token === "" ? {} : { pageToken: token }) }, { headers: bob })).body.result
        expect(answer.tasks.length).toBeLessThanOrEqual(2)
        expect(answer.tasks.every((t: { artifacts?: unknown }) => t.artifacts === undefined)).toBe(true)
        seen.push(...answer.tasks)
        token = answer.nextPageToken
        if (token === "") break
      }
      expect(new Set(seen.map((t) => t.id)).size).toBe(seen.length)
      expect(seen.length).toBeGreaterThanOrEqual(6)
      const stamps = seen.map((t) => t.status.timestamp)
      expect([...stamps].sort().reverse()).toEqual(stamps)
    })

    it("the audit trail records 1.0 requests like 0.3 ones", async () => {
      const task = (await v1Call(server.handler, "SendMessage", v1Text("done"), { headers: alice })).body.result.task
      await v1Call(server.handler, "GetTask", { id: "missing" }, { headers: alice })
      const events = (await Effect.runPromise(sink.snapshot)).map((r) => r.event)
      const requests = events.filter((e) => e.kind === "request") as Array<{ method: string; taskId?: string; outcome: string; errorCode?: number }>
      expect(requests).toContainEqual(expect.objectContaining({ method: "SendMessage", taskId: task.id, outcome: "ok" }))
      expect(requests).toContainEqual(expect.objectContaining({ method: "GetTask", outcome: "error", errorCode: -32001 }))
    })
  })

suite("one runtime behind 0.3 and 1.0, in memory", async () => {
  const sink = await Effect.runPromise(memoryAuditSink())
  const server = await A2AServer.make(agent, config({ audit: sink }))
  return { server, sink, close: () => server.dispose({ graceMs: 0 }) }
})

describe("on PostgreSQL", () => {
  requirePostgres()
  suite("one runtime behind 0.3 and 1.0, on PostgreSQL", async () => {
    const schema = randomSchema()
    const sink = await Effect.runPromise(memoryAuditSink())
    const server = await A2AServer.make(agent, config({ audit: sink, runtime: { store: postgresStore({ url: databaseUrl(), schema }) } }))
    return {
      server,
      sink,
      close: async () => {
        await server.dispose({ graceMs: 0 })
        await Effect.runPromise(dropSchema(schema))
      }
    }
  }, testDatabaseUrl !== undefined)
})
