/**
 * What a client sends is what every instance reads back: text with U+0000 or a lone surrogate, in parts
 * and metadata keys, is JSON PostgreSQL keeps as written (it refuses those escapes only where JSON is
 * expanded or cast to jsonb, which the store never does). An id that cannot be kept as text (U+0000, a lone
 * surrogate) is refused at the wire, the same on every store.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { serveNode } from "../../adapters/node.ts"
import { Agent } from "../../agent/agent.ts"
import { messageText } from "../../agent/messages.ts"
import { A2AServer, type A2AServerHandle } from "../../server/a2a-server.ts"
import { TaskStoreFailure } from "../../runtime/task-store.ts"
import { wireCall } from "../../../testing/server/wire-call.ts"
import { databaseUrl, dropSchema, randomSchema, requirePostgres, testDatabaseUrl } from "../../../testing/store/postgres.ts"
import { makePostgresTaskStore } from "./pg-task-store.ts"

const schema = randomSchema()

const echo = Agent.make({
  card: {
    name: "echo",
    description: "Streams back what it got",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "echo", description: "echo", tags: ["echo"] }]
  },
  execute: (ctx) =>
    Effect.gen(function*() {
      yield* ctx.artifact(messageText(ctx.message), { name: "echo", metadata: ctx.message.metadata ?? {} })
      yield* ctx.complete(messageText(ctx.message))
    })
})

const urls: Array<string> = []
const closers: Array<() => Promise<void>> = []
const handles: Array<A2AServerHandle> = []

beforeAll(async () => {
  if (testDatabaseUrl === undefined) return
  for (const name of ["P", "Q"]) {
    const server = await A2AServer.make(echo, {
      runtime: { store: makePostgresTaskStore({ url: databaseUrl(), schema, instanceId: name, lease: 1_000 }) }
    })
    const listening = await serveNode(server, { port: 0, host: "127.0.0.1" })
    handles.push(server)
    urls.push(`${listening.url}/`)
    closers.push(() => listening.close({ graceMs: 0 }))
  }
}, 30_000)

afterAll(async () => {
  for (const close of closers) await close()
  if (testDatabaseUrl !== undefined) await Effect.runPromise(dropSchema(schema))
})

const call = (i: number, method: string, params: unknown) => wireCall(fetch, method, params, { url: urls[i]!, timeoutMs: 10_000 })

const message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }], ...extra }
})

describe("a write the store does not take", () => {
  requirePostgres()

  it("is never answered as a task, and the store's words stay in the log, never on the wire", async () => {
    const failing = Effect.map(
      makePostgresTaskStore({ url: databaseUrl(), schema, instanceId: "R", lease: 1_000 }),
      (store) => ({
        ...store,
        put: () => Effect.fail(new TaskStoreFailure({ message: "PostgreSQL task store: writing a task failed: relation secret.tasks is locked" })),
        get: () => Effect.fail(new TaskStoreFailure({ message: "PostgreSQL task store: reading a task failed: relation secret.tasks is locked" }))
      })
    )
    const lines: Array<string> = []
    const logged = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => void lines.push(args.map(String).join(" ")))
    const server = await A2AServer.make(echo, { runtime: { store: failing } })
    try {
      for (const blocking of [true, false]) {
        const sent = await wireCall(server.handler, "message/send", { ...message("hi"), configuration: { blocking } })
        expect(sent.body.result, JSON.stringify(sent.body)).toBeUndefined()
        expect(sent.body.error).toEqual({ code: -32603, message: "the task store is unavailable; try again" })
      }
      const read = await wireCall(server.handler, "tasks/get", { id: "any" })
      expect(read.body.error).toEqual({ code: -32603, message: "the task store is unavailable; try again" })
      // The log says what failed, naming the task.
      expect(lines.some((l) => /task [0-9a-f-]{36}: the task store failed/.test(l) && l.includes("secret.tasks"))).toBe(true)
    } finally {
      logged.mockRestore()
      await server.dispose({ graceMs: 0 })
    }
  })
})

describe("payloads PostgreSQL cannot expand", () => {
  requirePostgres()

  for (const [name, text] of [["U+0000", "a\u0000b"], ["a lone surrogate", "a\ud800b"], ["both", "\udfff\u0000\ud800"]] as const) {
    it(`text with ${name}, in a part and in a metadata key, is stored and read back on another instance as sent`, async () => {
      const sent = await call(0, "message/send", message(text, { metadata: { [`key${text}`]: text } }))
      const task = sent.body.result
      expect(task?.status.state, JSON.stringify(sent.body)).toBe("completed")
      expect(task.artifacts[0].parts[0].text).toBe(text)
      expect(task.artifacts[0].metadata).toEqual({ [`key${text}`]: text })
      const read = await call(1, "tasks/get", { id: task.id })
      expect(read.body.result).toEqual(task)
      // The stream, replayed from the stored events on the other instance, carries it too.
      const replay = await wireCall(fetch, "tasks/resubscribe", { id: task.id }, {
        url: urls[1]!,
        headers: { "last-event-id": "0" }
      })
      const artifact = replay.events.map((e) => e.result).find((e) => e.kind === "artifact-update")
      expect(artifact.artifact.parts[0].text).toBe(text)
      // And it is listed (A2A 1.0 ListTasks) like any other task.
      const page = await Effect.runPromise(handles[1]!.runtime.list({ limit: 50 }, { principal: { id: "anonymous" }, extensions: [] }))
      expect(page.tasks.find((t) => t.id === task.id)).toEqual(task)
    })
  }

  for (const [name, contextId] of [["U+0000", "ctx\u0000"], ["a lone surrogate", "ctx\ud800"]] as const) {
    it(`a contextId with ${name} is refused with -32602 before any task exists`, async () => {
      const sent = await call(0, "message/send", message("hi", { contextId }))
      expect(sent.body.error?.code, JSON.stringify(sent.body)).toBe(-32602)
      expect(sent.body.error.message).toMatch(/contextId.*U\+0000 or a lone surrogate/)
      // The refusal names the field, never the value.
      expect(JSON.stringify(sent.body.error)).not.toContain(JSON.stringify(contextId).slice(1, -1))
    })
  }
})
