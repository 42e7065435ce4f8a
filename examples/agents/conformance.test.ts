/**
 * The conformance agent does what the official 0.3 kit needs: a plain send is answered at once with
 * its task open, a plain message's stream ends by itself with a final `completed` status on both
 * bindings, a cancel meanwhile ends it `canceled`, follow-ups grow the history, and the
 * resubscription prefix keeps a task alive.
 * Served for real on 127.0.0.1; streams are read to their end, each bounded.
 */
import { createParser } from "eventsource-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveNode } from "../../src/adapters/node.ts"
import type { Listening } from "../../src/adapters/listening.ts"
import { A2AServer } from "../../src/server/a2a-server.ts"
import { conformanceAgent, longLivedPrefix } from "./conformance.ts"

type Json = Record<string, any>

let listening: Listening

beforeAll(async () => {
  listening = await serveNode(await A2AServer.make(conformanceAgent), { port: 0, host: "127.0.0.1" })
})
afterAll(async () => {
  await listening?.close({ graceMs: 0 })
})

const userMessage = (text: string, extra: Json = {}): Json => ({
  kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text }], ...extra
})

const rpc = async (method: string, params: unknown): Promise<Json> => {
  const response = await fetch(`${listening.url}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(10_000)
  })
  return (await response.json()) as Json
}

/**
 * The events of an SSE response, as they arrive; the iteration ends only when the server closes the
 * stream. No idle timeout of its own: the caller's AbortSignal bounds the whole read.
 */
async function* events(response: Response): AsyncGenerator<Json> {
  const queue: Array<Json> = []
  const parser = createParser({ onEvent: (e) => void queue.push(JSON.parse(e.data) as Json) })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parser.feed(decoder.decode(value, { stream: true }))
    while (queue.length > 0) yield queue.shift()!
  }
  while (queue.length > 0) yield queue.shift()!
}

/** Polls `check` every 100 ms until it gives a value, for at most 15 s. */
const until = async <A>(check: () => Promise<A | undefined>): Promise<A> => {
  const deadline = Date.now() + 15_000
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error("condition not met within 15 s")
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const streamJsonRpc = (message: Json) =>
  fetch(`${listening.url}/`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "s", method: "message/stream", params: { message } }),
    signal: AbortSignal.timeout(10_000)
  })

const streamRest = (message: Json) =>
  fetch(`${listening.url}/v1/message:stream`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ message }),
    signal: AbortSignal.timeout(10_000)
  })

/** One line per JSON-RPC stream result: kind, state or artifact text, and `final`. */
const jsonRpcSummary = (result: Json): string => {
  switch (result.kind) {
    case "task":
      return `task:${result.status.state}`
    case "status-update":
      return `status:${result.status.state}${result.final === true ? ":final" : ""}`
    case "artifact-update":
      return `artifact:${result.artifact.parts.map((p: Json) => p.text).join("")}`
    default:
      return `other:${result.kind}`
  }
}

/** The same for REST stream payloads, wrapped by kind. */
const restSummary = (event: Json): string => {
  if (event.task !== undefined) return `task:${event.task.status.state}`
  if (event.statusUpdate !== undefined) return `status:${event.statusUpdate.status.state}${event.statusUpdate.final === true ? ":final" : ""}`
  if (event.artifactUpdate !== undefined) return `artifact:${event.artifactUpdate.artifact.parts.map((p: Json) => p.text).join("")}`
  return `other:${Object.keys(event).join(",")}`
}

describe("the conformance agent", () => {
  it("declares streaming, push, the three MIME types and no security scheme", async () => {
    const card = (await (await fetch(`${listening.url}/.well-known/agent-card.json`)).json()) as Json
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true })
    for (const modes of [card.defaultInputModes, card.defaultOutputModes]) {
      expect(modes).toEqual(expect.arrayContaining(["text/plain", "application/json", "application/octet-stream"]))
    }
    expect(card.securitySchemes).toBeUndefined()
    expect(card.security).toBeUndefined()
  })

  it("JSON-RPC: a plain message's stream ends by itself: submitted, working, one text artifact, completed final", async () => {
    const response = await streamJsonRpc(userMessage("hello tck"))
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
    const seen: Array<Json> = []
    for await (const event of events(response)) seen.push(event)
    expect(seen.every((e) => e.id === "s" && e.error === undefined)).toBe(true)
    expect(seen.map((e) => jsonRpcSummary(e.result))).toEqual([
      "task:submitted",
      "status:working",
      "artifact:Received: hello tck",
      "status:completed:final"
    ])
  })

  it("REST: a plain message's stream ends by itself with a final TASK_STATE_COMPLETED", async () => {
    const response = await streamRest(userMessage("hello rest"))
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
    const seen: Array<string> = []
    for await (const event of events(response)) seen.push(restSummary(event))
    expect(seen).toEqual([
      "task:TASK_STATE_SUBMITTED",
      "status:TASK_STATE_WORKING",
      "artifact:Received: hello rest",
      "status:TASK_STATE_COMPLETED:final"
    ])
  })

  it("JSON-RPC: a cancel while the task runs ends its stream with a final canceled status", async () => {
    const seen: Array<string> = []
    for await (const event of events(await streamJsonRpc(userMessage("cancel me")))) {
      seen.push(jsonRpcSummary(event.result))
      if (event.result.kind === "task") {
        const canceled = await rpc("tasks/cancel", { id: event.result.id })
        expect(canceled.result.status.state).toBe("canceled")
      }
    }
    expect(seen[0]).toBe("task:submitted")
    expect(seen.at(-1)).toBe("status:canceled:final")
    expect(seen.filter((s) => s.includes("completed") || s.startsWith("artifact"))).toEqual([])
  })

  it("REST: a cancel while the task runs ends its stream with a final TASK_STATE_CANCELLED", async () => {
    const seen: Array<string> = []
    for await (const event of events(await streamRest(userMessage("cancel me too")))) {
      seen.push(restSummary(event))
      if (event.task !== undefined) {
        const canceled = await fetch(`${listening.url}/v1/tasks/${event.task.id}:cancel`, { method: "POST", signal: AbortSignal.timeout(10_000) })
        expect(((await canceled.json()) as Json).status.state).toBe("TASK_STATE_CANCELLED")
      }
    }
    expect(seen.at(-1)).toBe("status:TASK_STATE_CANCELLED:final")
  })

  it("a plain (blocking) send is answered at once with the task working; the task completes by itself afterwards", async () => {
    const { result } = await rpc("message/send", { message: userMessage("blocking") })
    expect(result.status.state).toBe("working")
    expect(result.artifacts).toBeUndefined()
    // The kit's next steps: continue it, then read it back.
    const followUp = await rpc("message/send", { message: userMessage("and more", { taskId: result.id }) })
    expect(followUp.result).toMatchObject({ id: result.id, status: { state: "working" } })
    const done = await until(async () => {
      const { result: task } = await rpc("tasks/get", { id: result.id })
      return task.status.state === "completed" ? task : undefined
    })
    expect(done.artifacts.map((a: Json) => a.parts)).toEqual([[{ kind: "text", text: "Received: and more" }]])
    expect(done.history.map((m: Json) => m.role)).toEqual(["user", "user"])
  })

  it("a follow-up while the task runs grows its history, shows on the open stream, and the task still completes", async () => {
    const seen: Array<string> = []
    let followUpId = ""
    let taskId = ""
    for await (const event of events(await streamJsonRpc(userMessage("first")))) {
      seen.push(jsonRpcSummary(event.result))
      if (event.result.kind === "task") {
        taskId = event.result.id
        const followUp = userMessage("second", { taskId })
        followUpId = followUp.messageId
        const sent = await rpc("message/send", { message: followUp, configuration: { blocking: false } })
        expect(sent.result.id).toBe(taskId)
      }
    }
    expect(seen.filter((s) => s === "status:working").length).toBeGreaterThanOrEqual(2)
    expect(seen.at(-1)).toBe("status:completed:final")
    const { result } = await rpc("tasks/get", { id: taskId })
    expect(result.history.filter((m: Json) => m.role === "user").map((m: Json) => m.messageId)).toContain(followUpId)
    expect(result.history.filter((m: Json) => m.role === "user")).toHaveLength(2)
  })

  it(`a messageId starting with ${longLivedPrefix} keeps the task working after a plain task would have ended`, async () => {
    const long = await rpc("message/send", { message: userMessage("stay", { messageId: `${longLivedPrefix}-${crypto.randomUUID()}` }) })
    // A plain task sent at the same time finishes first: the long-lived one must still be working then.
    const plain = await rpc("message/send", { message: userMessage("plain") })
    await until(async () => ((await rpc("tasks/get", { id: plain.result.id })).result.status.state === "completed" ? true : undefined))
    const got = await rpc("tasks/get", { id: long.result.id })
    expect(got.result.status.state).toBe("working")
    expect((await rpc("tasks/cancel", { id: long.result.id })).result.status.state).toBe("canceled")
  })
})
