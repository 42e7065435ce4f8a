/**
 * Push notifications in A2A 1.0: flat configs over JSON-RPC and REST, deliveries in the version each config
 * was registered in (1.0: a StreamResponse body, `application/a2a+json`, the configured `Authorization`;
 * 0.3: the Task, `application/json`, our signed token), through the same guard and queue as 0.3.
 */
import { afterEach, describe, expect, it } from "vitest"
import { startWebhookStub, type WebhookStub } from "../../../testing/push/webhook-stub.ts"
import { stepperAgent } from "../../../testing/server/push-agents.ts"
import { pushTestOptions, rpcClient, waitUntil } from "../../../testing/server/push-harness.ts"
import { v1Call, v1Rest, v1Text } from "../../../testing/server/v1-call.ts"
import { A2AServer, type A2AServerHandle } from "../a2a-server.ts"

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

const started = async (): Promise<{ server: A2AServerHandle; a: WebhookStub; b: WebhookStub }> => {
  const a = await startWebhookStub()
  const b = await startWebhookStub()
  const server = await A2AServer.make(stepperAgent().agent, { push: pushTestOptions() })
  cleanups.push(a.close, b.close, () => server.dispose({ graceMs: 0 }))
  return { server, a, b }
}

describe("push notifications in A2A 1.0", () => {
  it("delivers each config in the version it was registered in, on the same task", async () => {
    const { server, a, b } = await started()
    const inline = { url: `${a.url}/hook`, authentication: { scheme: "Bearer", credentials: "webhook-secret" }, token: "t-a" }
    const sent = await v1Call(server.handler, "SendMessage", v1Text("go", {}, { taskPushNotificationConfig: inline }))
    const task = sent.body.result.task
    expect(task.status.state).toBe("TASK_STATE_INPUT_REQUIRED")
    const rpc = rpcClient(server.handler)
    const set = await rpc("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: { id: "b", url: `${b.url}/hook` } })
    expect(set.error).toBeUndefined()
    await v1Call(server.handler, "SendMessage", v1Text("more", { taskId: task.id }))
    const isDone = (body: string) => body.includes("COMPLETED") || body.includes("\"completed\"")
    await waitUntil(() => a.accepted.some((c) => isDone(c.body)) && b.accepted.some((c) => isDone(c.body)), "both completed deliveries")

    for (const call of a.accepted) {
      expect(call.headers["content-type"]).toBe("application/a2a+json")
      expect(call.headers["authorization"]).toBe("Bearer webhook-secret")
      const body = JSON.parse(call.body)
      expect(Object.keys(body)).toEqual(["task"])
      expect(body.task.status.state).toMatch(/^TASK_STATE_/)
      expect(call.body).not.toMatch(/"kind"/)
    }
    for (const call of b.accepted) {
      expect(call.headers["content-type"]).toBe("application/json")
      expect(call.headers["authorization"]).toMatch(/^Bearer eyJ/)
      expect(JSON.parse(call.body)).toMatchObject({ kind: "task", id: task.id })
    }
  })

  it("keeps the flat config on JSON-RPC and REST, and shows 0.3 readers a 0.3 config", async () => {
    const { server, a } = await started()
    const task = (await v1Call(server.handler, "SendMessage", v1Text("go"))).body.result.task
    const created = await v1Call(server.handler, "CreateTaskPushNotificationConfig", {
      taskId: task.id, id: "c1", url: `${a.url}/x`, authentication: { scheme: "Basic", credentials: "dTpw" }
    })
    expect(created.body.result).toEqual({ id: "c1", taskId: task.id, url: `${a.url}/x`, authentication: { scheme: "Basic", credentials: "dTpw" } })
    const rest = await v1Rest(server.handler, "POST", `/tasks/${task.id}/pushNotificationConfigs`, { id: "c2", url: `${a.url}/y` })
    expect(rest.status).toBe(200)
    expect(rest.body).toEqual({ id: "c2", taskId: task.id, url: `${a.url}/y` })
    const listed = await v1Rest(server.handler, "GET", `/tasks/${task.id}/pushNotificationConfigs`)
    expect(listed.body.configs.map((c: { id: string }) => c.id)).toEqual(["c1", "c2"])
    const got = await v1Call(server.handler, "GetTaskPushNotificationConfig", { taskId: task.id, id: "c2" })
    expect(got.body.result.url).toBe(`${a.url}/y`)
    const old = await rpcClient(server.handler)("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: "c1" })
    expect(old.result).toEqual({ taskId: task.id, pushNotificationConfig: { id: "c1", url: `${a.url}/x`, authentication: { schemes: ["Basic"], credentials: "dTpw" } } })
    const deleted = await v1Rest(server.handler, "DELETE", `/tasks/${task.id}/pushNotificationConfigs/c2`)
    expect([deleted.status, deleted.body]).toEqual([200, {}])
    const again = await v1Call(server.handler, "DeleteTaskPushNotificationConfig", { taskId: task.id, id: "c2" })
    expect(again.body.result).toEqual({})
    const missing = await v1Call(server.handler, "GetTaskPushNotificationConfig", { taskId: task.id, id: "c2" })
    expect(missing.body.error.code).toBe(-32001)
  })

  it("checks 1.0 webhooks with the same guard: a private address is refused before it is stored", async () => {
    const server = await A2AServer.make(stepperAgent().agent, { push: { retry: { maxAttempts: 1 } } })
    cleanups.push(() => server.dispose({ graceMs: 0 }))
    const task = (await v1Call(server.handler, "SendMessage", v1Text("go"))).body.result.task
    const refused = await v1Call(server.handler, "CreateTaskPushNotificationConfig", { taskId: task.id, url: "http://10.0.0.1/hook" })
    expect(refused.body.error).toMatchObject({ code: -32602 })
    const inline = await v1Call(server.handler, "SendMessage", v1Text("go", {}, { taskPushNotificationConfig: { url: "http://127.0.0.1:9/x" } }))
    expect(inline.body.error).toMatchObject({ code: -32602 })
  })
})
