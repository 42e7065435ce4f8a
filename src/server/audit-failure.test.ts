/**
 * An audit sink that cannot write, on a real server: the failure is counted and logged at error
 * level, and with `audit: { sink, required: true }` no request is served unaudited. The sink is a
 * real JSON Lines file whose directory is taken away and given back.
 */
import { appendFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { jsonLinesSink } from "../audit/json-lines-sink.ts"
import { A2AServer, type A2AServerHandle } from "./a2a-server.ts"
import type { AuditConfig } from "./audit-trail.ts"
import { testAgent } from "../../testing/server/test-agent.ts"
import { eventually, textMessage, wireCall } from "../../testing/server/wire-call.ts"

let root: string
let logDir: string
let server: A2AServerHandle
let listening: Listening

const start = async (audit: (sink: Awaited<ReturnType<typeof fileSink>>) => AuditConfig) => {
  server = await A2AServer.make(testAgent(), { audit: audit(await fileSink()) })
  listening = await serveNode(server)
}
const fileSink = () => Effect.runPromise(jsonLinesSink({ write: (line) => appendFile(join(logDir, "audit.jsonl"), line) }))
const records = async () => (await readFile(join(logDir, "audit.jsonl"), "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l))
const send = () => wireCall(fetch, "message/send", textMessage("finish"), { url: `${listening.url}/` })
const restSend = async () => {
  const response = await fetch(`${listening.url}/v1/message:send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(textMessage("finish"))
  })
  return { status: response.status, body: await response.json() as any }
}
const taskCount = async () => (await Effect.runPromise(server.runtime.store.list())).length

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "a2a-audit-failure-"))
  logDir = join(root, "logs")
  await mkdir(logDir)
})
afterEach(async () => {
  await listening?.close({ graceMs: 0 })
  vi.restoreAllMocks()
})
afterAll(() => rm(root, { recursive: true, force: true }))

describe("a failing audit sink, by default", () => {
  it("serves the request, counts the lost records and logs each at error level", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => {})
    await start((sink) => sink)
    expect((await send()).body.result.status.state).toBe("completed")
    expect(server.auditFailures()).toBe(0)

    await rm(logDir, { recursive: true })
    expect((await send()).body.result.status.state).toBe("completed")
    expect((await restSend()).status).toBe(200)
    // At least the two request records; the tasks' transitions were lost as well.
    expect(server.auditFailures()).toBeGreaterThanOrEqual(2)
    // Each lost record is logged once, at error level (transitions may still be landing: wait for them).
    const errors = await eventually(() => {
      // Effect's default logger writes a "[time] LEVEL (#fiber):" header, then the message and the cause.
      const lines = logged.mock.calls.map((c) => c.map(String).join(" ")).filter((l) => l.includes("could not be recorded"))
      return lines.length === server.auditFailures() ? lines : undefined
    })
    expect(errors.every((l) => /^\[[^\]]+\] ERROR /.test(l))).toBe(true)
  })
})

describe("a failing audit sink with required: true", () => {
  it("withholds the result of a request it could not record, then refuses requests before they run", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {})
    await start((sink) => ({ sink, required: true }))
    expect((await send()).body.result.status.state).toBe("completed")

    await rm(logDir, { recursive: true })
    const withheld = await send()
    expect(withheld.status).toBe(200)
    expect(withheld.body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "The audit trail could not record this request, so its result is withheld" }
    })
    const tasks = await taskCount()
    const refused = await send()
    expect(refused.body.error).toEqual({ code: -32603, message: "The audit trail is failing, so this request was not run" })
    const rest = await restSend()
    expect(rest.status).toBe(500)
    expect(rest.body).toEqual({ code: -32603, message: "The audit trail is failing, so this request was not run" })
    // Nothing ran: no task was created for the refused requests.
    expect(await taskCount()).toBe(tasks)
    expect(server.auditFailures()).toBeGreaterThanOrEqual(3)

    // Once the sink writes again, a refusal is recorded and requests are served (and recorded) again.
    await mkdir(logDir)
    let served: any
    for (let i = 0; i < 3 && served === undefined; i++) {
      const answer = await send()
      if (answer.body.result !== undefined) served = answer.body.result
      else expect(answer.body.error.code).toBe(-32603)
    }
    expect(served.status.state).toBe("completed")
    const written = await records()
    expect(written.filter((r) => r.kind === "request").at(-1)).toMatchObject({ method: "message/send", outcome: "ok", taskId: served.id })
  })
})
