import { Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { summary } from "../../testing/client/stream-summary.ts"
import { A2AClient, createA2AClient, userText } from "../../src/client/index.ts"
import { type CuttingProxy, startCuttingProxy } from "./sdk-server/cutting-proxy.ts"
import { type SdkEchoAgent, startSdkEchoAgent } from "./sdk-server/echo-agent.ts"

let sdk: SdkEchoAgent

beforeAll(async () => {
  sdk = await startSdkEchoAgent()
})
afterAll(() => sdk.close())

const options = { timeoutMs: 5_000, idleTimeoutMs: 5_000 }
const client = () => Effect.runPromise(A2AClient.make({ url: sdk.url }, options))

describe("our client against the JS SDK 0.3.14 server", () => {
  it("discovers and decodes the SDK's agent card", async () => {
    const c = await client()
    expect(c.card).toMatchObject({ name: "SDK echo agent", capabilities: { streaming: true, pushNotifications: true } })
    expect(c.endpoint).toBe(sdk.rpcUrl)
  })

  it("message/send: a completed Task, or a direct Message", async () => {
    const c = await client()
    const task = await Effect.runPromise(c.sendMessage(userText("hello there")))
    expect(task.kind === "task" && task.status.state).toBe("completed")
    expect(task.kind === "task" && task.status.message?.parts).toEqual([{ kind: "text", text: "echo: hello there" }])
    const message = await Effect.runPromise(c.sendMessage(userText("message hi")))
    expect(message).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "echo: hi" }] })
  })

  it("message/stream: every event in order, ending with the final status", async () => {
    const c = await client()
    const events = await Effect.runPromise(Stream.runCollect(c.streamMessage(userText("stream one two three"))))
    expect(events.map(summary)).toEqual([
      "task:submitted",
      "status:working",
      "artifact:one",
      "artifact:two",
      "artifact:three",
      "status:completed:final"
    ])
  })

  it("tasks/get returns the stored task, with history when asked", async () => {
    const c = await client()
    const sent = await Effect.runPromise(c.sendMessage(userText("remember me")))
    if (sent.kind !== "task") throw new Error("expected a task")
    const task = await Effect.runPromise(c.getTask({ id: sent.id, historyLength: 10 }))
    expect(task.id).toBe(sent.id)
    expect(task.status.state).toBe("completed")
    expect(task.history?.[0]?.parts).toEqual([{ kind: "text", text: "remember me" }])
    expect(await Effect.runPromise(Effect.flip(c.getTask({ id: "no-such-task" })))).toMatchObject({ _tag: "TaskNotFound" })
  })

  it("tasks/cancel cancels a working task; a second cancel is TaskNotCancelable", async () => {
    const c = await createA2AClient({ url: sdk.url }, options)
    const started = await c.sendMessage(userText("wait", { configuration: { blocking: false } }))
    if (started.kind !== "task") throw new Error("expected a task")
    const canceled = await c.cancelTask({ id: started.id })
    expect(canceled.status.state).toBe("canceled")
    await expect(c.cancelTask({ id: started.id })).rejects.toMatchObject({ _tag: "TaskNotCancelable", code: -32002 })
  })

  it("tasks/resubscribe: the Task first, then live events until the final one", async () => {
    const c = await createA2AClient({ url: sdk.url }, options)
    const started = await c.sendMessage(userText("wait", { configuration: { blocking: false } }))
    if (started.kind !== "task") throw new Error("expected a task")
    const seen: Array<string> = []
    for await (const event of c.resubscribe({ id: started.id })) {
      seen.push(summary(event))
      if (event.kind === "task") await c.cancelTask({ id: started.id })
    }
    expect(seen[0]).toBe("task:working")
    expect(seen.at(-1)).toBe("status:canceled:final")
  })

  it("tasks/resubscribe on an unknown task fails with TaskNotFound from inside the SSE stream", async () => {
    const c = await client()
    const error = await Effect.runPromise(Effect.flip(Stream.runCollect(c.resubscribe({ id: "no-such-task" }))))
    expect(error).toMatchObject({ _tag: "TaskNotFound", code: -32001 })
  })

  it("push-notification configs: set, get, list, delete", async () => {
    const c = await createA2AClient({ url: sdk.url }, options)
    const started = await c.sendMessage(userText("wait", { configuration: { blocking: false } }))
    if (started.kind !== "task") throw new Error("expected a task")
    const taskId = started.id
    const set = await c.setPushConfig({
      taskId,
      pushNotificationConfig: { id: "cfg-1", url: "https://hooks.example.com/a2a", token: "tok-1" }
    })
    expect(set).toEqual({ taskId, pushNotificationConfig: { id: "cfg-1", url: "https://hooks.example.com/a2a", token: "tok-1" } })
    await c.setPushConfig({ taskId, pushNotificationConfig: { id: "cfg-2", url: "https://hooks.example.com/b" } })
    const got = await c.getPushConfig({ id: taskId, pushNotificationConfigId: "cfg-1" })
    expect(got.pushNotificationConfig.url).toBe("https://hooks.example.com/a2a")
    const listed = await c.listPushConfigs({ id: taskId })
    expect(listed.map((x) => x.pushNotificationConfig.id).sort()).toEqual(["cfg-1", "cfg-2"])
    expect(await c.deletePushConfig({ id: taskId, pushNotificationConfigId: "cfg-1" })).toBeNull()
    const after = await c.listPushConfigs({ id: taskId })
    expect(after.map((x) => x.pushNotificationConfig.id)).toEqual(["cfg-2"])
    await c.cancelTask({ id: taskId })
  })

  describe("a stream cut by the network", () => {
    let proxy: CuttingProxy
    beforeAll(async () => {
      proxy = await startCuttingProxy(Number(new URL(sdk.url).port), '"artifact-update"')
    })
    afterAll(() => proxy.close())

    it("resumes through tasks/resubscribe with no event lost and none repeated", async () => {
      const c = await createA2AClient(
        { url: sdk.url },
        { ...options, endpoint: `${proxy.origin}/a2a/jsonrpc`, resume: { backoffMs: 10 } }
      )
      proxy.onResubscribeAnswered(() => sdk.openGates())
      const seen: Array<string> = []
      for await (const event of c.streamMessage(userText("gated alpha beta gamma"))) seen.push(summary(event))
      expect(proxy.cuts()).toBe(1)
      expect(seen).toEqual([
        "task:submitted",
        "status:working",
        "artifact:alpha",
        "artifact:beta",
        "artifact:gamma",
        "status:completed:final"
      ])
    })
  })
})
