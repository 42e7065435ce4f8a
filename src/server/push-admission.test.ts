/**
 * Which push configs the server takes: names that do not resolve yet are kept and delivered once
 * they do, and a task holds a bounded number of configs. Webhooks are real receivers on 127.0.0.1;
 * DNS is an injected resolver, so no outside name is ever looked up.
 */
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { Task, TaskPushNotificationConfig } from "../../schemas/index.ts"
import { memoryAuditSink } from "../audit/audit-sink.ts"
import { fetchTransport, type PushTransport } from "../push/push-transport.ts"
import { startWebhookStub, type WebhookStub } from "../../testing/push/webhook-stub.ts"
import { A2AServer, type A2AServerConfig, type A2AServerHandle } from "./a2a-server.ts"
import { type CountedAgent, quickAgent, quickStates, stepperAgent, stepperSecondHalf } from "../../testing/server/push-agents.ts"
import { auditOfKind, pushTestOptions, resultOf, rpcClient, sendParams, statesOf, waitUntil } from "../../testing/server/push-harness.ts"

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

const webhook = async (): Promise<WebhookStub> => {
  const stub = await startWebhookStub()
  cleanups.push(stub.close)
  return stub
}

const serverFor = async (counted: CountedAgent, config: A2AServerConfig = {}): Promise<A2AServerHandle> => {
  const server = await A2AServer.make(counted.agent, { push: pushTestOptions(), ...config })
  cleanups.push(() => server.dispose({ graceMs: 0 }))
  return server
}

describe("push configs whose host name does not resolve when they are set", () => {
  it("are accepted, and delivered to the checked address once the name resolves", async () => {
    const stub = await webhook()
    const asked: Array<string> = []
    // The set-time lookup and the first delivery attempt fail (SERVFAIL); later lookups answer loopback.
    const resolveDns = async (host: string): Promise<ReadonlyArray<string>> => {
      asked.push(host)
      if (host !== "hooks.later.test" || asked.length <= 2) throw new Error(`SERVFAIL ${host}`)
      return ["127.0.0.1"]
    }
    const audit = Effect.runSync(memoryAuditSink())
    const server = await serverFor(stepperAgent(), { audit, push: pushTestOptions({ resolveDns, allow: ["127.0.0.1/32"] }) })
    const rpc = rpcClient(server.handler)
    const task = resultOf<Task>(await rpc("message/send", sendParams("start")))
    const url = `http://hooks.later.test:${stub.port}/later`

    const set = resultOf<TaskPushNotificationConfig>(
      await rpc("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: { id: "later", url } })
    )
    expect(set.pushNotificationConfig).toEqual({ id: "later", url })
    expect(asked).toEqual(["hooks.later.test"])

    resultOf<Task>(await rpc("message/send", sendParams("go on", { taskId: task.id })))
    await waitUntil(() => stub.accepted.length >= stepperSecondHalf.length, "deliveries once the name resolves")
    await server.dispose()

    expect(statesOf(stub.calls, "/later")).toEqual(stepperSecondHalf)
    const attempts = auditOfKind(audit, "push-attempt").map((e) => [e.attempt, e.outcome])
    expect(attempts[0]).toEqual([1, "retry"])
    expect(attempts[1]).toEqual([2, "delivered"])
    expect(auditOfKind(audit, "push-attempt")[0]!.reason).toMatch(/did not resolve/)
  })

  it("without any DNS, https://example.com/hook is accepted by set and by message/send; delivery gives up without connecting", async () => {
    let connections = 0
    const counting: PushTransport = (request) => {
      connections++
      return fetchTransport()(request)
    }
    const audit = Effect.runSync(memoryAuditSink())
    // No `resolveDns` at all: every lookup fails, as on a machine without DNS.
    const server = await serverFor(quickAgent(), {
      audit,
      push: { retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 }, transport: counting }
    })
    const rpc = rpcClient(server.handler)
    const config = { url: "https://example.com/hook", token: "tok" }
    const done = resultOf<Task>(await rpc("message/send", sendParams("go", { push: config })))
    expect(done.status.state).toBe("completed")
    const listed = resultOf<Array<TaskPushNotificationConfig>>(await rpc("tasks/pushNotificationConfig/list", { id: done.id }))
    expect(listed.map((c) => c.pushNotificationConfig.url)).toEqual([config.url])
    const set = await rpc("tasks/pushNotificationConfig/set", { taskId: done.id, pushNotificationConfig: { id: "second", ...config } })
    expect(set.error).toBeUndefined()

    await waitUntil(() => auditOfKind(audit, "push-outcome").length >= quickStates.length, "every snapshot to be given up")
    expect(auditOfKind(audit, "push-outcome").map((e) => e.outcome)).toEqual(quickStates.map(() => "abandoned"))
    expect(connections).toBe(0)
  })
})

describe("push configs per task are bounded", () => {
  const setConfig = (rpc: ReturnType<typeof rpcClient>, taskId: string, pushNotificationConfig: { id?: string; url: string }) =>
    rpc("tasks/pushNotificationConfig/set", { taskId, pushNotificationConfig })

  it("by default a task holds 10 configs: one more is refused with -32602, replacing by id still works, and only those 10 are notified", async () => {
    const stub = await webhook()
    const server = await serverFor(stepperAgent())
    const rpc = rpcClient(server.handler)
    const task = resultOf<Task>(await rpc("message/send", sendParams("start")))
    for (let i = 0; i < 10; i++) {
      // Half with ids of their own, half with server-assigned ones.
      const config = i % 2 === 0 ? { id: `c${i}`, url: `${stub.url}/c${i}` } : { url: `${stub.url}/c${i}` }
      expect((await setConfig(rpc, task.id, config)).error).toBeUndefined()
    }
    for (const extra of [{ url: `${stub.url}/extra` }, { id: "extra", url: `${stub.url}/extra` }]) {
      const refused = await setConfig(rpc, task.id, extra)
      expect(refused.error?.code).toBe(-32602)
      expect(refused.error?.message).toMatch(/already has 10 push notification configs/)
    }
    // Replacing an existing id does not count twice.
    expect((await setConfig(rpc, task.id, { id: "c4", url: `${stub.url}/c4-moved` })).error).toBeUndefined()
    const listed = resultOf<Array<TaskPushNotificationConfig>>(await rpc("tasks/pushNotificationConfig/list", { id: task.id }))
    expect(listed).toHaveLength(10)
    expect(listed.find((c) => c.pushNotificationConfig.id === "c4")?.pushNotificationConfig.url).toBe(`${stub.url}/c4-moved`)
    // An inline config on a continuing message is bound the same way, and the message is not taken.
    const inline = await rpc("message/send", sendParams("go on", { taskId: task.id, push: { url: `${stub.url}/inline` } }))
    expect(inline.error?.code).toBe(-32602)
    expect(resultOf<Task>(await rpc("tasks/get", { id: task.id })).status.state).toBe("input-required")

    resultOf<Task>(await rpc("message/send", sendParams("go on", { taskId: task.id })))
    await waitUntil(() => stub.accepted.length >= 10 * stepperSecondHalf.length, "every config to be notified")
    await server.dispose()
    expect(stub.calls).toHaveLength(10 * stepperSecondHalf.length)
    expect(stub.calls.some((c) => c.path === "/extra" || c.path === "/inline" || c.path === "/c4")).toBe(false)
  })

  it("push.maxConfigsPerTask sets the bound; a deleted config frees its place", async () => {
    const stub = await webhook()
    const server = await serverFor(stepperAgent(), { push: pushTestOptions({ maxConfigsPerTask: 2 }) })
    const rpc = rpcClient(server.handler)
    const task = resultOf<Task>(await rpc("message/send", sendParams("start", { push: { id: "a", url: `${stub.url}/a` } })))
    expect((await setConfig(rpc, task.id, { id: "b", url: `${stub.url}/b` })).error).toBeUndefined()
    const third = await setConfig(rpc, task.id, { id: "c", url: `${stub.url}/c` })
    expect(third.error?.code).toBe(-32602)
    expect(third.error?.message).toMatch(/already has 2 push notification configs/)
    // Inline on message/send: replacing "a" is fine.
    resultOf<Task>(await rpc("message/send", sendParams("go on", { taskId: task.id, push: { id: "a", url: `${stub.url}/a2` } })))
    resultOf(await rpc("tasks/pushNotificationConfig/delete", { id: task.id, pushNotificationConfigId: "b" }))
    expect((await setConfig(rpc, task.id, { id: "c", url: `${stub.url}/c` })).error).toBeUndefined()
    const ids = resultOf<Array<TaskPushNotificationConfig>>(await rpc("tasks/pushNotificationConfig/list", { id: task.id }))
      .map((c) => c.pushNotificationConfig.id)
    expect(ids).toEqual(["a", "c"])
    // The task finished with the message above; its configs live in the store only, bound included.
    expect(resultOf<Task>(await rpc("tasks/get", { id: task.id })).status.state).toBe("completed")
    expect(server.runtime.hosted()).toBe(0)
    expect((await setConfig(rpc, task.id, { id: "d", url: `${stub.url}/d` })).error?.code).toBe(-32602)
    expect((await setConfig(rpc, task.id, { id: "c", url: `${stub.url}/c2` })).error).toBeUndefined()
  })

  it("refuses a bound below 1 when the server is made", async () => {
    await expect(A2AServer.make(quickAgent().agent, { push: pushTestOptions({ maxConfigsPerTask: 0 }) })).rejects.toThrow(/maxPushConfigsPerTask/)
  })
})
