/**
 * The conformance agent does what the official A2A 1.0 kit expects for each `messageId` prefix, over 1.0
 * JSON-RPC (in process), and its kit parts reject what the kit marks unsupported.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { A2AServer, type A2AServerHandle } from "../../src/server/a2a-server.ts"
import { v1Call } from "../../testing/server/v1-call.ts"
import { conformanceAgent } from "./conformance.ts"

let server: A2AServerHandle
beforeAll(async () => {
  server = await A2AServer.make(conformanceAgent)
})
afterAll(() => server?.dispose({ graceMs: 0 }))

const send = (prefix: string, extra: Record<string, unknown> = {}, method = "SendMessage") =>
  v1Call(server.handler, method, { message: { messageId: `${prefix}-${crypto.randomUUID().slice(0, 8)}`, role: "ROLE_USER", parts: [{ text: "tck" }], ...extra } })

describe("the official 1.0 kit's agent contract", () => {
  it("completes tck-complete-task (and any unknown tck- id) with the agent message the kit checks", async () => {
    for (const prefix of ["tck-complete-task", "tck-something-new"]) {
      const task = (await send(prefix)).body.result.task
      expect(task.status).toMatchObject({ state: "TASK_STATE_COMPLETED", message: { role: "ROLE_AGENT", parts: [{ text: "Hello from TCK" }] } })
    }
  })

  it("answers the artifact prefixes with their parts", async () => {
    const parts = async (prefix: string) => (await send(prefix)).body.result.task.artifacts[0].parts
    expect(await parts("tck-artifact-text")).toEqual([{ text: "Generated text content" }])
    expect(await parts("tck-artifact-file")).toEqual([{ raw: btoa("Generated file content"), filename: "output.txt", mediaType: "text/plain" }])
    expect(await parts("tck-artifact-file-url")).toEqual([{ url: "https://example.com/output.txt", filename: "output.txt", mediaType: "text/plain" }])
    expect(await parts("tck-artifact-data")).toEqual([{ data: { key: "value", count: 42 } }])
  })

  it("answers tck-message-response with a Message, and rejects tck-reject-task", async () => {
    expect((await send("tck-message-response")).body.result.message).toMatchObject({ role: "ROLE_AGENT", parts: [{ text: "Direct message response" }] })
    expect((await send("tck-reject-task")).body.result.task.status.state).toBe("TASK_STATE_REJECTED")
  })

  it("holds tck-input-required until a tck-complete-task follow-up completes it", async () => {
    const task = (await send("tck-input-required")).body.result.task
    expect(task.status.state).toBe("TASK_STATE_INPUT_REQUIRED")
    const done = (await send("tck-complete-task", { taskId: task.id })).body.result.task
    expect(done).toMatchObject({ id: task.id, status: { state: "TASK_STATE_COMPLETED" } })
  })

  it("streams the stream prefixes: working, artifacts, completed; the chunked one in two appended chunks", async () => {
    const kinds = async (prefix: string) =>
      (await send(prefix, {}, "SendStreamingMessage")).events.map((e) => {
        const [kind, value] = Object.entries(e.result)[0] as [string, any]
        return kind === "statusUpdate" ? value.status.state : kind === "artifactUpdate" ? `artifact${value.append ? "+" : ""}${value.lastChunk ? "!" : ""}` : kind
      })
    expect(await kinds("tck-stream-001")).toEqual(["task", "TASK_STATE_WORKING", "artifact", "TASK_STATE_COMPLETED"])
    expect(await kinds("tck-stream-002")).toEqual(["task", "TASK_STATE_COMPLETED"])
    expect(await kinds("tck-stream-artifact-chunked")).toEqual(["task", "TASK_STATE_WORKING", "artifact+", "artifact+!", "TASK_STATE_COMPLETED"])
  })

  it("refuses a part whose media type the card does not accept with -32005", async () => {
    const answer = await v1Call(server.handler, "SendMessage", {
      message: { messageId: "tck-complete-task-x", role: "ROLE_USER", parts: [{ text: "x", mediaType: "application/x-unsupported-tck-type" }] }
    })
    expect(answer.body.error).toMatchObject({ code: -32005, data: [expect.objectContaining({ reason: "CONTENT_TYPE_NOT_SUPPORTED" })] })
  })
})
