/**
 * A2A 1.0 on the REST binding (through the Web handler): the 1.0 routes beside 0.3's `/v1/…` under one base,
 * chosen by `A2A-Version`, the optional `/{tenant}` prefix, query params, google.rpc.Status errors and SSE.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testAgent } from "../../../testing/server/test-agent.ts"
import { v1Rest, v1Text } from "../../../testing/server/v1-call.ts"
import { A2AServer, type A2AServerHandle } from "../a2a-server.ts"

let server: A2AServerHandle
let tenanted: A2AServerHandle
beforeAll(async () => {
  server = await A2AServer.make(testAgent())
  tenanted = await A2AServer.make(testAgent(), { tenant: "acme" })
})
afterAll(async () => {
  await Promise.all([server?.dispose(), tenanted?.dispose()])
})

const errorInfo = (reason: string) => ({ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "a2a-protocol.org" })

const plain03 = (text: string) => ({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }] } })

describe("1.0 REST routes", () => {
  it("sends, gets, lists and cancels under the 1.0 paths, answering ProtoJSON", async () => {
    const sent = await v1Rest(server.handler, "POST", "/message:send", v1Text("hello"))
    expect(sent.status).toBe(200)
    expect(sent.headers.get("content-type")).toContain("application/json")
    const task = sent.body.task
    expect(task.status.state).toBe("TASK_STATE_COMPLETED")
    const got = await v1Rest(server.handler, "GET", `/tasks/${task.id}?historyLength=0`)
    expect(got.body).toMatchObject({ id: task.id, status: { state: "TASK_STATE_COMPLETED" } })
    expect(got.body.history).toBeUndefined()
    const held = (await v1Rest(server.handler, "POST", "/message:send", v1Text("hold", {}, { returnImmediately: true }))).body.task
    const listed = await v1Rest(server.handler, "GET", `/tasks?status=TASK_STATE_WORKING&pageSize=5`)
    expect(listed.body.tasks.map((t: { id: string }) => t.id)).toContain(held.id)
    expect(listed.body).toMatchObject({ nextPageToken: expect.any(String), pageSize: 5, totalSize: expect.any(Number) })
    const canceled = await v1Rest(server.handler, "POST", `/tasks/${held.id}:cancel`)
    expect(canceled.body.status.state).toBe("TASK_STATE_CANCELED")
  })

  it("answers application/a2a+json to a client that accepts it", async () => {
    const sent = await v1Rest(server.handler, "POST", "/message:send", v1Text("hello"), { headers: { accept: "application/a2a+json, application/json" } })
    expect(sent.headers.get("content-type")).toContain("application/a2a+json")
  })

  it("subscribes on GET and on POST; a terminal task is refused with 400 and ErrorInfo", async () => {
    const held = (await v1Rest(server.handler, "POST", "/message:send", v1Text("hold", {}, { returnImmediately: true }))).body.task
    for (const method of ["GET", "POST"]) {
      const stream = await v1Rest(server.handler, method, `/tasks/${held.id}:subscribe`, undefined, { maxEvents: 1 })
      expect(stream.headers.get("content-type")).toBe("text/event-stream")
      expect(stream.events[0]).toEqual({ task: expect.objectContaining({ id: held.id }) })
    }
    await v1Rest(server.handler, "POST", `/tasks/${held.id}:cancel`, {})
    const refused = await v1Rest(server.handler, "GET", `/tasks/${held.id}:subscribe`)
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      error: { code: 400, status: "FAILED_PRECONDITION", message: expect.any(String), details: [errorInfo("UNSUPPORTED_OPERATION")] }
    })
  })

  it("streams bare StreamResponse payloads", async () => {
    const stream = await v1Rest(server.handler, "POST", "/message:stream", v1Text("hello"))
    expect(Object.keys(stream.events[0])).toEqual(["task"])
    expect(stream.events.at(-1).statusUpdate.status.state).toBe("TASK_STATE_COMPLETED")
  })

  it("writes errors as google.rpc.Status with spec 1.0.1's statuses", async () => {
    const missing = await v1Rest(server.handler, "GET", "/tasks/nope")
    expect(missing.status).toBe(404)
    expect(missing.body.error).toMatchObject({ code: 404, status: "NOT_FOUND", details: [errorInfo("TASK_NOT_FOUND")] })
    const done = (await v1Rest(server.handler, "POST", "/message:send", v1Text("hello"))).body.task
    const notCancelable = await v1Rest(server.handler, "POST", `/tasks/${done.id}:cancel`)
    expect(notCancelable.status).toBe(400)
    expect(notCancelable.body.error).toMatchObject({ status: "FAILED_PRECONDITION", details: [errorInfo("TASK_NOT_CANCELABLE")] })
    const badQuery = await v1Rest(server.handler, "GET", "/tasks?pageSize=150")
    expect(badQuery.status).toBe(400)
    expect(badQuery.body.error).toMatchObject({ status: "INVALID_ARGUMENT", message: expect.stringContaining("pageSize") })
    const badToken = await v1Rest(server.handler, "GET", "/tasks?pageToken=garbage!")
    expect(badToken.status).toBe(400)
    const wrongMethod = await v1Rest(server.handler, "DELETE", "/message:send")
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get("allow")).toBe("POST")
    const bodyless = await v1Rest(server.handler, "POST", "/message:send")
    expect(bodyless.status).toBe(400)
  })

  it("keeps 0.3 under /v1 and names the version when a path belongs to the other one", async () => {
    const old = await server.handler(new Request("http://127.0.0.1/v1/message:send", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(plain03("hello"))
    }))
    expect((await old.json()).task.status.state).toBe("TASK_STATE_COMPLETED")
    const unversioned = await server.handler(new Request("http://127.0.0.1/message:send", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(v1Text("hello"))
    }))
    expect(unversioned.status).toBe(404)
    expect((await unversioned.json()).message).toMatch(/A2A 1\.0 operation.*A2A-Version: 1\.0/)
    const crossed = await v1Rest(server.handler, "POST", "/v1/message:send", plain03("hello"))
    expect(crossed.status).toBe(404)
    expect(crossed.body.error.message).toMatch(/no tenant.*A2A 0\.3 binding/)
  })

  it("refuses another version with 400 and VERSION_NOT_SUPPORTED, in the shape of the path's version", async () => {
    const v1 = await v1Rest(server.handler, "GET", "/tasks/x", undefined, { headers: { "a2a-version": "3.1" } })
    expect(v1.status).toBe(400)
    expect(v1.body.error).toMatchObject({ details: [errorInfo("VERSION_NOT_SUPPORTED")] })
    const v03 = await v1Rest(server.handler, "GET", "/v1/tasks/x", undefined, { headers: { "a2a-version": "3.1" } })
    expect([v03.status, v03.body.code]).toEqual([400, -32009])
  })
})

describe("tenants", () => {
  it("a server addressed as a tenant answers with and without its prefix, and refuses any other tenant", async () => {
    const prefixed = await v1Rest(tenanted.handler, "POST", "/acme/message:send", v1Text("hello"))
    expect(prefixed.body.task.status.state).toBe("TASK_STATE_COMPLETED")
    const bare = await v1Rest(tenanted.handler, "GET", `/tasks/${prefixed.body.task.id}`)
    expect(bare.body.id).toBe(prefixed.body.task.id)
    const viaPrefix = await v1Rest(tenanted.handler, "GET", `/acme/tasks/${prefixed.body.task.id}`)
    expect(viaPrefix.body.id).toBe(prefixed.body.task.id)
    const other = await v1Rest(tenanted.handler, "GET", `/globex/tasks/${prefixed.body.task.id}`)
    expect(other.status).toBe(404)
    expect(other.body.error.message).toContain("globex")
    const inBody = await v1Rest(tenanted.handler, "POST", "/message:send", { ...v1Text("hello"), tenant: "globex" })
    expect(inBody.status).toBe(400)
    const clash = await v1Rest(tenanted.handler, "POST", "/acme/message:send", { ...v1Text("hello"), tenant: "globex" })
    expect(clash.status).toBe(400)
  })

  it("a server without tenants refuses every tenant prefix", async () => {
    const refused = await v1Rest(server.handler, "POST", "/acme/message:send", v1Text("hello"))
    expect(refused.status).toBe(404)
  })
})
