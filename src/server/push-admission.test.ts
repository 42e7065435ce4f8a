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
import { startWebhookStub, type WebhookStub } from "../push/webhook-stub.test-helper.ts"
import { A2AServer, type A2AServerConfig, type A2AServerHandle } from "./a2a-server.ts"
import { type CountedAgent, quickAgent, quickStates, stepperAgent, stepperSecondHalf } from "./testing/push-agents.ts"
import { auditOfKind, pushTestOptions, resultOf, rpcClient, sendParams, statesOf, waitUntil } from "./testing/push-harness.ts"

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
