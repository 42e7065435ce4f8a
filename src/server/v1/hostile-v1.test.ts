/**
 * Malformed, oversized and hostile input on the 1.0 paths: every one gets the spec's error in 1.0's shape
 * and a short message, never a crash, a stack or an echo of what was sent; the server stays up.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testAgent } from "../../../testing/server/test-agent.ts"
import { v1Call, v1Headers, v1Rest, v1Text } from "../../../testing/server/v1-call.ts"
import { A2AServer, type A2AServerHandle } from "../a2a-server.ts"

let server: A2AServerHandle
beforeAll(async () => {
  server = await A2AServer.make(testAgent(), { maxBodyBytes: 64 * 1024 })
})
afterAll(() => server?.dispose({ graceMs: 0 }))

const post = (body: string, headers: Record<string, string> = {}, path = "/") =>
  server.handler(new Request(`http://127.0.0.1${path}`, { method: "POST", headers: { "content-type": "application/json", ...v1Headers, ...headers }, body }))

const noStack = (text: string) => expect(text).not.toMatch(/at .*\.ts:\d+|Error:/)

describe("hostile input on the 1.0 paths", () => {
  it("refuses a body over the limit with 413 before parsing, on both bindings", async () => {
    const huge = JSON.stringify(v1Text("x".repeat(100 * 1024)))
    expect((await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: JSON.parse(huge) }))).status).toBe(413)
    const rest = await post(huge, {}, "/message:send")
    expect(rest.status).toBe(413)
    expect((await rest.json()).error.code).toBe(413)
  })

  it("answers bodies that are not JSON with -32700 / 400, short and stack-free", async () => {
    for (const body of ["{", "nul", "\u0000", "[1,2", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",}"]) {
      const rpc = await post(body)
      const text = await rpc.text()
      expect(JSON.parse(text).error.code, body).toBe(-32700)
      noStack(text)
      const rest = await post(body, {}, "/message:send")
      expect(rest.status, body).toBe(400)
      expect((await rest.json()).error.status).toBe("INVALID_ARGUMENT")
    }
  })

  it("refuses params nested too deeply with -32602", async () => {
    let deep: unknown = "x"
    for (let i = 0; i < 80; i++) deep = { a: deep }
    const answer = await v1Call(server.handler, "SendMessage", { ...v1Text("x"), metadata: deep })
    expect(answer.body.error.code).toBe(-32602)
  })

  it("drops prototype keys in every spelling; the request is judged on the rest", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"__proto__":{"polluted":true},"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}],"constructor":{"prototype":{"polluted":true}},"\\u005f_proto__":{"x":1}}}}`
    const answer = await (await post(body)).json()
    expect(answer.result.task).toBeDefined()
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })

  it("clips a huge A2A-Version and never echoes it whole", async () => {
    const version = "9".repeat(10_000)
    const answer = await v1Call(server.handler, "GetTask", { id: "t" }, { headers: { "a2a-version": version } })
    expect(answer.body.error.code).toBe(-32009)
    expect(answer.body.error.message.length).toBeLessThan(200)
  })

  it("refuses hostile paths, page tokens, tenants and query values with 4xx and short messages", async () => {
    const answers = await Promise.all([
      v1Rest(server.handler, "GET", "/tasks/%E0%A4%A"),
      v1Rest(server.handler, "GET", `/tasks?pageToken=${"A".repeat(5_000)}`),
      v1Rest(server.handler, "GET", `/tasks?pageToken=${Buffer.from('["a"').toString("base64url")}`),
      v1Rest(server.handler, "GET", `/${"t".repeat(5_000)}/tasks`),
      v1Rest(server.handler, "GET", "/tasks?pageSize=1e9&includeArtifacts=maybe"),
      v1Rest(server.handler, "GET", `/tasks/${"x".repeat(300)}`)
    ])
    for (const a of answers) {
      expect(a.status).toBeGreaterThanOrEqual(400)
      expect(a.status).toBeLessThan(500)
      expect(JSON.stringify(a.body ?? "").length).toBeLessThan(1_500)
    }
    const tenant = await v1Call(server.handler, "GetTask", { id: "t", tenant: "t".repeat(5_000) })
    expect(tenant.body.error.code).toBe(-32602)
    expect(tenant.body.error.message.length).toBeLessThan(300)
  })

  it("refuses params of the wrong JSON type for every 1.0 method with -32602 and stays up", async () => {
    const methods = ["SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask", "SubscribeToTask",
      "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig"]
    for (const method of methods) {
      for (const params of [[1, 2], "text", 42, { id: { nested: true }, taskId: [], message: "x", pageSize: "lots" }]) {
        const answer = await v1Call(server.handler, method, params)
        expect(answer.body?.error?.code ?? answer.events[0]?.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602)
      }
    }
    expect((await v1Call(server.handler, "SendMessage", v1Text("still up"))).body.result.task).toBeDefined()
  })
})
