/**
 * The audit seam end to end: what reaches the configured sink when real requests hit the server,
 * and a hash-chained audit file written by a served agent that verifies and betrays tampering.
 */
import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveNode } from "../adapters/node.ts"
import type { Listening } from "../adapters/listening.ts"
import { AuditEvent } from "../audit/audit-event.ts"
import { memoryAuditSink, type AuditSink, type MemoryAuditSink } from "../audit/audit-sink.ts"
import { hashChainSink, type HashChainSink } from "../audit/hash-chain-sink.ts"
import { verifyChain } from "../audit/verify-chain.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { A2AServer, type A2AServerConfig, type A2AServerHandle } from "./a2a-server.ts"
import { testAgent } from "../../testing/server/test-agent.ts"
import { eventually, textMessage, wireCall, type WireCallOptions } from "../../testing/server/wire-call.ts"

const TRACE = "https://example.test/ext/trace/v1"
const SIGNED = "https://example.test/ext/signed-input/v1"
const alice = { "x-api-key": "key-of-alice" }

const agentWith = (extensions: ReadonlyArray<{ uri: string; required?: boolean }>) =>
  testAgent({
    capabilities: { streaming: true, pushNotifications: false, extensions: [...extensions] },
    securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } },
    security: [{ key: [] }]
  })

const config = (audit: AuditSink): A2AServerConfig => ({
  audit,
  authentication: {
    authenticators: { key: apiKeyAuthenticator({ keys: { "key-of-alice": { id: "alice" }, "key-of-eve": { id: "eve" } } }) },
    authorize: (principal) => Effect.succeed(principal.id !== "eve")
  }
})

type Event = Schema.Schema.Type<typeof AuditEvent>
const ofKind = <K extends Event["kind"]>(events: ReadonlyArray<Event>, kind: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === kind)

describe("audit events from a running server", () => {
  let sink: MemoryAuditSink
  let server: A2AServerHandle
  const events = async () => (await Effect.runPromise(sink.snapshot)).map((r) => r.event)
  const call = (method: string, params: unknown, options: WireCallOptions = {}) =>
    wireCall(server.handler, method, params, options)

  beforeAll(async () => {
    sink = await Effect.runPromise(memoryAuditSink())
    server = await A2AServer.make(agentWith([{ uri: TRACE }]), config(sink))
  })
  afterAll(() => server.dispose({ graceMs: 0 }))

  it("records every authentication refusal with its scheme, status, reason, and the method once the body was read", async () => {
    const before = (await events()).length
    expect((await call("message/send", textMessage("hi"))).status).toBe(401)
    expect((await call("message/stream", textMessage("hi"), { headers: { "x-api-key": "nope" } })).status).toBe(401)
    expect((await call("tasks/get", { id: "t" }, { headers: { "x-api-key": "key-of-eve" } })).status).toBe(403)
    const recorded = (await events()).slice(before)
    expect(recorded.map(({ at: _at, ...e }) => e)).toEqual([
      // Refused from the headers, before the body (and the method in it) was read.
      { kind: "auth-refused", schemes: ["key"], status: 401, reason: "missing_credentials" },
      { kind: "auth-refused", schemes: ["key"], status: 401, reason: "invalid_credentials" },
      // The authorization hook judges the method, after the body.
      { kind: "auth-refused", schemes: [], status: 403, reason: "forbidden", method: "tasks/get" }
    ])
    expect(ofKind(recorded, "request")).toEqual([])
  })

  it("records a request with method, principal, outcome, duration, id and task; its transitions; its extension", async () => {
    const before = (await events()).length
    const answer = await call("message/send", textMessage("finish"), { headers: { ...alice, "x-a2a-extensions": `${TRACE}, https://unknown.test/x` }, id: "r-1" })
    expect(answer.headers.get("x-a2a-extensions")).toBe(TRACE)
    const task = answer.body.result
    expect(task.status.state).toBe("completed")
    const recorded = await eventually(async () => {
      const now = (await events()).slice(before)
      return ofKind(now, "task-transition").some((e) => e.to === "completed") ? now : undefined
    })
    expect(ofKind(recorded, "extension-activated").map(({ at: _at, ...e }) => e)).toEqual([
      { kind: "extension-activated", uri: TRACE, method: "message/send" }
    ])
    const [request, ...more] = ofKind(recorded, "request")
    expect(more).toEqual([])
    expect(request).toMatchObject({ method: "message/send", principal: "alice", outcome: "ok", requestId: "r-1", taskId: task.id })
    expect(request!.durationMs).toBeGreaterThanOrEqual(0)
    expect(request).not.toHaveProperty("errorCode")
    const transitions = ofKind(recorded, "task-transition").filter((e) => e.taskId === task.id)
    expect(transitions[0]!.from).toBeNull()
    expect(transitions.at(-1)!.to).toBe("completed")
    for (const [i, t] of transitions.entries()) if (i > 0) expect(t.from).toBe(transitions[i - 1]!.to)
    for (const event of recorded) expect(Schema.is(AuditEvent)(event)).toBe(true)
  })

  it("records failed requests with their JSON-RPC error code, and streams with their extension", async () => {
    const before = (await events()).length
    await call("tasks/get", { id: "no-such-task" }, { headers: alice, id: 5 })
    const streamed = await call("message/stream", textMessage("finish"), { headers: { ...alice, "x-a2a-extensions": TRACE }, id: 6 })
    expect(streamed.headers.get("x-a2a-extensions")).toBe(TRACE)
    expect(streamed.events[0].result.kind).toBe("task")
    const recorded = (await events()).slice(before)
    // A stream that starts a task is audited when it opens, before the task id exists.
    expect(ofKind(recorded, "request").map(({ at: _at, durationMs: _d, taskId: _t, ...e }) => e)).toEqual([
      { kind: "request", method: "tasks/get", principal: "alice", outcome: "error", errorCode: -32001, requestId: 5 },
      { kind: "request", method: "message/stream", principal: "alice", outcome: "ok", requestId: 6 }
    ])
    expect(ofKind(recorded, "request")[0]!.taskId).toBe("no-such-task")
    expect(ofKind(recorded, "extension-activated").map((e) => [e.uri, e.method])).toEqual([[TRACE, "message/stream"]])
  })

  it("records a streaming request refused for its params, which is answered in SSE", async () => {
    const before = (await events()).length
    const invalid = { message: { kind: "message", role: "user", messageId: "m-empty", parts: [] } }
    const refused = await call("message/stream", invalid, { headers: alice, id: 11 })
    expect(refused.events).toEqual([expect.objectContaining({ id: 11, error: expect.objectContaining({ code: -32602 }) })])
    const recorded = (await events()).slice(before)
    expect(ofKind(recorded, "request").map(({ at: _at, durationMs: _d, ...e }) => e)).toEqual([
      { kind: "request", method: "message/stream", principal: "alice", outcome: "error", errorCode: -32602, requestId: 11 }
    ])
  })

  it("records a cancel as a request and as the transition to canceled", async () => {
    const held = (await call("message/send", textMessage("hold"), { headers: alice })).body.result
    const before = (await events()).length
    expect((await call("tasks/cancel", { id: held.id }, { headers: alice })).body.result.status.state).toBe("canceled")
    const recorded = await eventually(async () => {
      const now = (await events()).slice(before)
      return ofKind(now, "task-transition").length > 0 ? now : undefined
    })
    expect(ofKind(recorded, "task-transition").map(({ at: _at, ...e }) => e)).toEqual([
      { kind: "task-transition", taskId: held.id, from: "working", to: "canceled" }
    ])
    expect(ofKind(recorded, "request")[0]).toMatchObject({ method: "tasks/cancel", principal: "alice", outcome: "ok", taskId: held.id })
  })
})

describe("a request refused for a missing required extension", () => {
  it("is audited as a failed request (-32600)", async () => {
    const sink = await Effect.runPromise(memoryAuditSink())
    const server = await A2AServer.make(agentWith([{ uri: SIGNED, required: true }]), config(sink))
    try {
      const refused = await wireCall(server.handler, "message/send", textMessage("finish"), { headers: alice, id: 9 })
      expect(refused.body.error.code).toBe(-32600)
      expect(await Effect.runPromise(server.runtime.store.list())).toEqual([])
      const recorded = (await Effect.runPromise(sink.snapshot)).map((r) => r.event)
      expect(ofKind(recorded, "request").map(({ at: _at, durationMs: _d, ...e }) => e)).toEqual([
        { kind: "request", method: "message/send", principal: "alice", outcome: "error", errorCode: -32600, requestId: 9 }
      ])
      expect(ofKind(recorded, "extension-activated")).toEqual([])
      const accepted = await wireCall(server.handler, "message/send", textMessage("finish"), { headers: { ...alice, "x-a2a-extensions": SIGNED } })
      expect(accepted.body.result.status.state).toBe("completed")
    } finally {
      await server.dispose({ graceMs: 0 })
    }
  })
})

describe("hash-chained audit file written by a served agent", () => {
  let dir: string
  let file: string
  let sink: HashChainSink
  let listening: Listening
  let lines: ReadonlyArray<string>

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "a2a-audit-"))
    file = join(dir, "audit.jsonl")
    sink = await Effect.runPromise(hashChainSink({ write: (line) => appendFile(file, line) }))
    listening = await serveNode(await A2AServer.make(agentWith([{ uri: TRACE }]), config(sink)))
    const call = (method: string, params: unknown, headers: Record<string, string>) =>
      wireCall(fetch, method, params, { url: `${listening.url}/`, headers })
    await call("message/send", textMessage("finish"), {})
    await call("message/send", textMessage("finish"), { ...alice, "x-a2a-extensions": TRACE })
    await call("message/stream", textMessage("finish"), alice)
    const held = (await call("message/send", textMessage("hold"), alice)).body.result
    await call("tasks/cancel", { id: held.id }, alice)
    await call("tasks/get", { id: "missing" }, alice)
    // Transitions are recorded as they happen, beside the requests: wait for the last one.
    lines = await eventually(async () => {
      const text = await readFile(file, "utf8")
      return text.includes('"to":"canceled"') ? text.split("\n").filter((l) => l !== "") : undefined
    })
  })
  afterAll(async () => {
    await listening?.close({ graceMs: 0 })
    await rm(dir, { recursive: true, force: true })
  })

  const check = async (candidate: ReadonlyArray<string>) =>
    Effect.runPromise(verifyChain(candidate, { expectedHead: await Effect.runPromise(sink.head) }))

  it("holds every kind of event the server produced, and verifies against the sink's head", async () => {
    const kinds = new Set(lines.map((l) => (JSON.parse(l) as { kind: string }).kind))
    expect([...kinds].sort()).toEqual(["auth-refused", "extension-activated", "request", "task-transition"])
    const head = await Effect.runPromise(sink.head)
    expect(head.seq).toBe(lines.length)
    expect(await check(lines)).toEqual({ ok: true, count: lines.length, head })
  })

  it("detects a changed byte in any line", async () => {
    for (const [index, line] of lines.entries()) {
      const at = line.indexOf('"kind":"') + 8
      const tampered = [...lines]
      tampered[index] = `${line.slice(0, at)}${line[at] === "x" ? "y" : "x"}${line.slice(at + 1)}`
      expect(await check(tampered)).toMatchObject({ ok: false, line: index + 1, reason: "hash" })
    }
  })

  it("detects a rewritten principal, a removed line, reordered lines and a cut-off end", async () => {
    const requestLine = lines.findIndex((l) => l.includes('"principal":"alice"'))
    const renamed = lines.map((l, i) => (i === requestLine ? l.replace('"principal":"alice"', '"principal":"bob"') : l))
    expect(await check(renamed)).toMatchObject({ ok: false, line: requestLine + 1, reason: "hash" })
    expect(await check([...lines.slice(0, 2), ...lines.slice(3)])).toMatchObject({ ok: false, line: 3, reason: "seq" })
    expect(await check([lines[1]!, lines[0]!, ...lines.slice(2)])).toMatchObject({ ok: false, line: 1, reason: "seq" })
    expect(await check(lines.slice(0, -1))).toMatchObject({ ok: false, reason: "truncated" })
  })
})
