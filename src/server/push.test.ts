/**
 * Push notifications end to end through the server: JSON-RPC in (in-process handler, or a real
 * Node listener where the JWKS must be fetched over HTTP), real webhooks on 127.0.0.1 out, with
 * real time and fast retries. Only loopback is used; the tests allowlist 127.0.0.1/32.
 */
import { Effect, Result } from "effect"
import * as jose from "jose"
import { afterEach, describe, expect, it } from "vitest"
import type { Task, TaskPushNotificationConfig } from "../../schemas/index.ts"
import { serveNode } from "../adapters/node.ts"
import { memoryAuditSink, type MemoryAuditSink } from "../audit/audit-sink.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { makePushKeySet } from "../push/jwks.ts"
import { makePushVerifier, type PushVerifier } from "../push/verifier.ts"
import { type ReceivedCall, type Responder, startWebhookStub, type WebhookStub } from "../../testing/push/webhook-stub.ts"
import { A2AServer, type A2AServerConfig, type A2AServerHandle } from "./a2a-server.ts"
import {
  type CountedAgent,
  pushTestCard,
  quickAgent,
  quickStates,
  stepperAgent,
  stepperSecondHalf,
  stepperStates
} from "../../testing/server/push-agents.ts"
import {
  auditOfKind,
  gate,
  pushTestOptions,
  resultOf,
  rpcClient,
  sendParams,
  statesOf,
  taskOfCall,
  testIssuer,
  waitUntil
} from "../../testing/server/push-harness.ts"

// Everything a test starts is stopped here, even when an assertion fails half-way.
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

const webhook = async (respond?: Responder): Promise<WebhookStub> => {
  const stub = await startWebhookStub(respond)
  cleanups.push(stub.close)
  return stub
}

const serverFor = async (counted: CountedAgent, config: A2AServerConfig = {}): Promise<A2AServerHandle> => {
  const server = await A2AServer.make(counted.agent, { push: pushTestOptions(), ...config })
  cleanups.push(() => server.dispose({ graceMs: 0 }))
  return server
}

const auditSink = (): MemoryAuditSink => Effect.runSync(memoryAuditSink())

const verifyCall = (verifier: PushVerifier, call: ReceivedCall) =>
  Effect.runPromise(Effect.result(verifier.verify({
    authorization: call.headers["authorization"],
    token: call.headers["x-a2a-notification-token"],
    body: call.body
  })))

const kidOf = (call: ReceivedCall): string | undefined =>
  jose.decodeProtectedHeader((call.headers["authorization"] ?? "").replace(/^Bearer /, "")).kid

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe("push notifications through the server: capability", () => {
  it("the card declares pushNotifications and the server publishes its signing key at /.well-known/jwks.json", async () => {
    const keys = await Effect.runPromise(makePushKeySet())
    const server = await serverFor(stepperAgent(), { publicUrl: "http://127.0.0.1", push: pushTestOptions({ keys }) })
    const card = await (await server.handler(new Request("http://127.0.0.1/.well-known/agent-card.json"))).json()
    expect(card.capabilities.pushNotifications).toBe(true)
    const jwks = await server.handler(new Request("http://127.0.0.1/.well-known/jwks.json"))
    expect(jwks.status).toBe(200)
    const doc = (await jwks.json()) as jose.JSONWebKeySet
    const current = await Effect.runPromise(keys.current)
    expect(doc.keys.map((k) => k.kid)).toEqual([current.kid])
    expect(doc.keys[0]).not.toHaveProperty("d")
  })

  it("without the capability, push methods and inline configs answer -32003 and no JWKS is served", async () => {
    const counted = stepperAgent(pushTestCard({ push: false }))
    const server = await serverFor(counted)
    const rpc = rpcClient(server.handler)
    const inline = await rpc("message/send", sendParams("hi", { push: { url: "http://127.0.0.1:9/hook" } }))
    expect(inline.error?.code).toBe(-32003)
    expect(counted.runs()).toBe(0)
    const task = resultOf<Task>(await rpc("message/send", sendParams("hi")))
    const set = await rpc("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: { url: "http://127.0.0.1:9/hook" } })
    expect(set.error?.code).toBe(-32003)
    expect((await server.handler(new Request("http://127.0.0.1/.well-known/jwks.json"))).status).toBe(404)
  })
})

describe("push notifications through the server: delivery", () => {
  it("an inline config on message/send gets a server-assigned id, answers to `default`, and receives every state change in order, once", async () => {
    const stub = await webhook()
    const counted = stepperAgent()
    const server = await serverFor(counted)
    const rpc = rpcClient(server.handler)
    const url = `${stub.url}/inline`

    const task = resultOf<Task>(await rpc("message/send", sendParams("start", { push: { url, token: "tok-inline" } })))
    expect(task.status.state).toBe("input-required")

    const byDefault = resultOf<TaskPushNotificationConfig>(
      await rpc("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: "default" })
    )
    const assigned = byDefault.pushNotificationConfig.id
    expect(assigned).toMatch(uuid)
    expect(byDefault).toEqual({ taskId: task.id, pushNotificationConfig: { id: assigned, url, token: "tok-inline" } })
    const byId = resultOf<TaskPushNotificationConfig>(
      await rpc("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: assigned })
    )
    expect(byId).toEqual(byDefault)
    expect(resultOf<Array<unknown>>(await rpc("tasks/pushNotificationConfig/list", { id: task.id }))).toEqual([byDefault])

    const done = resultOf<Task>(await rpc("message/send", sendParams("nothing", { taskId: task.id })))
    expect(done.status.state).toBe("completed")
    await waitUntil(() => stub.accepted.length >= stepperStates.length, "every state change to arrive")
    // The drain of dispose delivers whatever could still be queued: nothing more may arrive.
    await server.dispose()

    expect(statesOf(stub.calls)).toEqual(stepperStates)
    for (const call of stub.calls) {
      expect(call.path).toBe("/inline")
      expect(call.headers["x-a2a-notification-token"]).toBe("tok-inline")
      expect(call.headers["content-type"]).toBe("application/json")
      expect(taskOfCall(call).id).toBe(task.id)
    }
    const last = taskOfCall(stub.calls.at(-1)!)
    expect(last.status.state).toBe("completed")
    expect(last.artifacts?.map((a) => a.artifactId)).toEqual(["draft"])
  })

  it("configs added with `set` get server-assigned ids (or keep their own), the first is `default`, and each receives the changes after it", async () => {
    const stub = await webhook()
    const server = await serverFor(stepperAgent())
    const rpc = rpcClient(server.handler)
    const task = resultOf<Task>(await rpc("message/send", sendParams("start")))
    expect(task.status.state).toBe("input-required")
    expect(resultOf<Array<unknown>>(await rpc("tasks/pushNotificationConfig/list", { id: task.id }))).toEqual([])

    const first = resultOf<TaskPushNotificationConfig>(await rpc("tasks/pushNotificationConfig/set", {
      taskId: task.id,
      pushNotificationConfig: { url: `${stub.url}/set-a` }
    }))
    expect(first.taskId).toBe(task.id)
    expect(first.pushNotificationConfig.id).toMatch(uuid)
    const second = resultOf<TaskPushNotificationConfig>(await rpc("tasks/pushNotificationConfig/set", {
      taskId: task.id,
      pushNotificationConfig: { id: "mine", url: `${stub.url}/set-b` }
    }))
    expect(second.pushNotificationConfig).toEqual({ id: "mine", url: `${stub.url}/set-b` })
    expect(resultOf<TaskPushNotificationConfig>(await rpc("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: "default" })))
      .toEqual(first)
    expect(resultOf<TaskPushNotificationConfig>(await rpc("tasks/pushNotificationConfig/get", { id: task.id })))
      .toEqual(first)
    expect(resultOf<Array<unknown>>(await rpc("tasks/pushNotificationConfig/list", { id: task.id }))).toEqual([first, second])

    resultOf<Task>(await rpc("message/send", sendParams("go on", { taskId: task.id })))
    await waitUntil(() => stub.accepted.length >= 2 * stepperSecondHalf.length, "both webhooks to get the second half")
    await server.dispose()
    expect(statesOf(stub.calls, "/set-a")).toEqual(stepperSecondHalf)
    expect(statesOf(stub.calls, "/set-b")).toEqual(stepperSecondHalf)
    expect(stub.calls).toHaveLength(2 * stepperSecondHalf.length)
  })

  it("a receiver that fails its first calls still gets every snapshot, once each, in order", async () => {
    const failFirst = 2 // below maxAttempts (3), so the first snapshot gets through on its last try
    const stub = await webhook((call) => (call.call <= failFirst ? 503 : 200))
    const audit = auditSink()
    const server = await serverFor(stepperAgent(), { audit })
    const rpc = rpcClient(server.handler)
    const task = resultOf<Task>(await rpc("message/send", sendParams("start", { push: { url: `${stub.url}/flaky` } })))
    resultOf<Task>(await rpc("message/send", sendParams("more", { taskId: task.id })))
    await waitUntil(() => stub.accepted.length >= stepperStates.length, "every snapshot to be accepted")
    await server.dispose()

    expect(statesOf(stub.accepted)).toEqual(stepperStates)
    expect(stub.calls).toHaveLength(stepperStates.length + failFirst)
    expect(statesOf(stub.calls).slice(0, failFirst + 1)).toEqual(["submitted", "submitted", "submitted"])
    // Every try carries a fresh token: a retry is never a replay in the receiver's eyes.
    const jtis = stub.calls.map((c) => jose.decodeJwt((c.headers["authorization"] ?? "").replace(/^Bearer /, "")).jti)
    expect(new Set(jtis).size).toBe(stub.calls.length)

    const attempts = auditOfKind(audit, "push-attempt").map((e) => [e.attempt, e.outcome, e.httpStatus])
    expect(attempts.slice(0, 3)).toEqual([[1, "retry", 503], [2, "retry", 503], [3, "delivered", 200]])
    const outcomes = auditOfKind(audit, "push-outcome")
    expect(outcomes.map((e) => e.outcome)).toEqual(stepperStates.map(() => "delivered"))
  })

  it("deliveries stop at the attempt bound, and the audit trail records each try and the abandonment", async () => {
    const stub = await webhook(() => 503)
    const audit = auditSink()
    const server = await serverFor(quickAgent(), { audit })
    const rpc = rpcClient(server.handler)
    const done = resultOf<Task>(await rpc("message/send", sendParams("go", { push: { url: `${stub.url}/down?sig=secret` } })))
    expect(done.status.state).toBe("completed")
    await waitUntil(() => auditOfKind(audit, "push-outcome").length >= quickStates.length, "every snapshot to be given up")
    await server.dispose()

    // Three tries per snapshot (maxAttempts), in order, and not one more.
    expect(statesOf(stub.calls)).toEqual(quickStates.flatMap((s) => [s, s, s]))
    const redacted = `${stub.url}/down`
    const attempts = auditOfKind(audit, "push-attempt")
    expect(attempts.map((e) => [e.taskId, e.url, e.attempt, e.outcome, e.httpStatus])).toEqual(
      quickStates.flatMap(() => [
        [done.id, redacted, 1, "retry", 503],
        [done.id, redacted, 2, "retry", 503],
        [done.id, redacted, 3, "failed", 503]
      ])
    )
    expect(auditOfKind(audit, "push-outcome").map((e) => [e.taskId, e.url, e.attempt, e.outcome])).toEqual(
      quickStates.map(() => [done.id, redacted, 3, "abandoned"])
    )
    // A dead webhook does not hold the task back.
    expect(auditOfKind(audit, "task-transition").map((e) => e.to)).toEqual(quickStates)
  })

  // Known runtime bug, kept running so it flips when fixed (then make this a plain `it`): the runtime
  // adds a continuation's inline config only after `resume` has already notified `working`, so the
  // config misses that change (and races the agent for the ones after it).
  it("an inline config on a message that continues a task receives the changes that message causes", async () => {
    const stub = await webhook()
    const server = await serverFor(stepperAgent())
    const rpc = rpcClient(server.handler)
    const task = resultOf<Task>(await rpc("message/send", sendParams("start")))
    expect(task.status.state).toBe("input-required")
    resultOf<Task>(await rpc("message/send", sendParams("more", { taskId: task.id, push: { url: `${stub.url}/later` } })))
    await waitUntil(() => stub.accepted.length >= 1, "a delivery to the late config")
    await server.dispose()
    expect(statesOf(stub.calls, "/later")).toEqual(stepperSecondHalf)
  })
})

describe("push notifications through the server: ownership", () => {
  const secured = () => ({
    card: pushTestCard({ securitySchemes: { apikey: { type: "apiKey", in: "header", name: "X-API-Key" } } }),
    authentication: {
      authenticators: {
        apikey: apiKeyAuthenticator({ keys: { "k-alice": { id: "alice" }, "k-bob": { id: "bob" } } })
      }
    }
  })

  it("configs belong to the task's principal: another principal can neither read nor change them, nor add its own", async () => {
    const stub = await webhook()
    const { card, authentication } = secured()
    const server = await serverFor(stepperAgent(card), { authentication })
    const rpc = rpcClient(server.handler)
    const alice = { "x-api-key": "k-alice" }
    const bob = { "x-api-key": "k-bob" }

    const task = resultOf<Task>(await rpc("message/send", sendParams("start", { push: { url: `${stub.url}/alice` } }), alice))
    const own = resultOf<Array<TaskPushNotificationConfig>>(await rpc("tasks/pushNotificationConfig/list", { id: task.id }, alice))
    expect(own).toHaveLength(1)
    const configId = own[0]!.pushNotificationConfig.id!

    const attempts = [
      await rpc("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: "default" }, bob),
      await rpc("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: configId }, bob),
      await rpc("tasks/pushNotificationConfig/list", { id: task.id }, bob),
      await rpc("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: { url: `${stub.url}/bob` } }, bob),
      await rpc("tasks/pushNotificationConfig/delete", { id: task.id, pushNotificationConfigId: configId }, bob)
    ]
    // The same answer as for an unknown task: nothing tells bob that alice's task exists.
    for (const reply of attempts) expect(reply.error?.code).toBe(-32001)
    expect(resultOf<Array<unknown>>(await rpc("tasks/pushNotificationConfig/list", { id: task.id }, alice))).toEqual(own)

    resultOf<Task>(await rpc("message/send", sendParams("more", { taskId: task.id }), alice))
    await waitUntil(() => stub.accepted.length >= stepperStates.length, "alice's webhook to get every change")
    await server.dispose()
    expect(statesOf(stub.calls, "/alice")).toEqual(stepperStates)
    expect(statesOf(stub.calls, "/bob")).toEqual([])
  })
})

describe("push notifications through the server: refused webhooks", () => {
  const resolverLog = () => {
    const asked: Array<string> = []
    const resolveDns = async (host: string): Promise<ReadonlyArray<string>> => {
      asked.push(host)
      if (host === "hooks.internal.test") return ["10.1.2.3"]
      if (host === "hooks.loopback.test") return ["127.0.0.1"]
      throw new Error(`unknown host ${host}`)
    }
    return { asked, resolveDns }
  }

  const refusedConfigs = (stub: WebhookStub) => [
    { why: "a private address that is not allowlisted", config: { url: "http://10.0.0.7/hook" } },
    { why: "loopback outside the allowlisted /32", config: { url: `http://127.0.0.2:${stub.port}/hook` } },
    { why: "the cloud metadata address", config: { url: "http://169.254.169.254/latest/meta-data" } },
    { why: "a name the injected resolver maps to a private address", config: { url: "http://hooks.internal.test/hook" } },
    { why: "CR/LF in the token", config: { url: `${stub.url}/ok`, token: "t\r\nX-Injected: yes" } },
    { why: "a scheme other than http(s)", config: { url: "file:///etc/passwd" } }
  ]

  it("message/send with a refused config answers -32602 and creates no task; a safe config on the same server works", async () => {
    const stub = await webhook()
    const dns = resolverLog()
    const audit = auditSink()
    const counted = stepperAgent()
    const server = await serverFor(counted, { audit, push: pushTestOptions({ resolveDns: dns.resolveDns }) })
    const rpc = rpcClient(server.handler)

    for (const { config, why } of refusedConfigs(stub)) {
      const reply = await rpc("message/send", sendParams("start", { push: config }))
      expect(reply.error?.code, why).toBe(-32602)
      expect(reply.error?.message, why).toMatch(/refused/)
      expect(reply.error?.message, why).not.toContain("X-Injected")
    }
    expect(dns.asked).toContain("hooks.internal.test")
    expect(counted.runs()).toBe(0)
    expect(server.runtime.hosted()).toBe(0)
    expect(auditOfKind(audit, "task-transition")).toEqual([])
    expect(stub.calls).toEqual([])

    const ok = resultOf<Task>(await rpc("message/send", sendParams("start", { push: { url: `${stub.url}/ok` } })))
    expect(ok.status.state).toBe("input-required")
    expect(counted.runs()).toBe(1)
  })

  it("set with a refused config answers -32602 and leaves the task's configs unchanged", async () => {
    const stub = await webhook()
    const dns = resolverLog()
    const server = await serverFor(stepperAgent(), { push: pushTestOptions({ resolveDns: dns.resolveDns }) })
    const rpc = rpcClient(server.handler)
    const task = resultOf<Task>(await rpc("message/send", sendParams("start")))

    for (const { config, why } of refusedConfigs(stub)) {
      const reply = await rpc("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: config })
      expect(reply.error?.code, why).toBe(-32602)
    }
    expect(dns.asked).toContain("hooks.internal.test")
    expect(resultOf<Array<unknown>>(await rpc("tasks/pushNotificationConfig/list", { id: task.id }))).toEqual([])

    resultOf<Task>(await rpc("message/send", sendParams("more", { taskId: task.id })))
    await server.dispose()
    expect(stub.calls).toEqual([])
  })

  it("a name the resolver maps to an allowlisted address passes, and is checked again before every delivery", async () => {
    const stub = await webhook()
    const dns = resolverLog()
    const server = await serverFor(quickAgent(), { push: pushTestOptions({ resolveDns: dns.resolveDns }) })
    const rpc = rpcClient(server.handler)
    const url = `http://hooks.loopback.test:${stub.port}/named`
    resultOf<Task>(await rpc("message/send", sendParams("go", { push: { url } })))
    await waitUntil(() => stub.accepted.length >= quickStates.length, "deliveries to the named webhook")
    await server.dispose()
    expect(statesOf(stub.calls, "/named")).toEqual(quickStates)
    // Once when the config arrived, then once per delivery (no rebinding between check and use).
    expect(dns.asked.filter((h) => h === "hooks.loopback.test")).toHaveLength(1 + quickStates.length)
  })
})

describe("push notifications through the server: signed deliveries", () => {
  it("every delivery carries a JWT that our receiver-side verifier accepts against the server's JWKS over HTTP", async () => {
    const stub = await webhook()
    const server = await A2AServer.make(stepperAgent().agent, { push: pushTestOptions() })
    const listening = await serveNode(server)
    cleanups.push(() => listening.close({ graceMs: 0 }))
    const rpc = rpcClient(server.handler)
    const url = `${stub.url}/signed`
    const task = resultOf<Task>(await rpc("message/send", sendParams("start", { push: { url, token: "tok-s" } })))
    resultOf<Task>(await rpc("message/send", sendParams("more", { taskId: task.id })))
    await waitUntil(() => stub.accepted.length >= stepperStates.length, "every signed delivery")

    const jwksUrl = `${listening.url}/.well-known/jwks.json`
    const verifier = makePushVerifier({ audience: url, keys: { jwksUrl }, issuer: testIssuer, token: "tok-s" })
    const verified: Array<string> = []
    for (const call of stub.calls) {
      const result = await verifyCall(verifier, call)
      if (Result.isFailure(result)) throw new Error(`delivery ${call.call} did not verify: ${result.failure.reason}`)
      expect(result.success.claims.taskId).toBe(task.id)
      expect(result.success.claims.iss).toBe(testIssuer)
      verified.push(result.success.task.status.state)
    }
    expect(verified).toEqual(stepperStates)

    // The checks bite: the same delivery again is a replay; another webhook's verifier refuses the audience.
    const replay = await verifyCall(verifier, stub.calls[0]!)
    expect(Result.isFailure(replay) && replay.failure.reason).toBe("replayed")
    const elsewhere = makePushVerifier({ audience: `${stub.url}/other`, keys: { jwksUrl }, token: "tok-s" })
    const misdirected = await verifyCall(elsewhere, stub.calls[1]!)
    expect(Result.isFailure(misdirected) && misdirected.failure.reason).toBe("audience")
  })

  it("key rotation without downtime: deliveries before and after keys.rotate() verify", async () => {
    const stub = await webhook()
    const keys = await Effect.runPromise(makePushKeySet())
    const server = await A2AServer.make(stepperAgent().agent, { push: pushTestOptions({ keys }) })
    const listening = await serveNode(server)
    cleanups.push(() => listening.close({ graceMs: 0 }))
    const rpc = rpcClient(server.handler)
    const url = `${stub.url}/rotating`
    const jwksUrl = `${listening.url}/.well-known/jwks.json`
    const before = stepperStates.length - stepperSecondHalf.length

    const task = resultOf<Task>(await rpc("message/send", sendParams("start", { push: { url } })))
    await waitUntil(() => stub.accepted.length >= before, "the deliveries before the rotation")
    const early = makePushVerifier({ audience: url, keys: { jwksUrl }, issuer: testIssuer })
    for (const call of stub.calls) expect(Result.isSuccess(await verifyCall(early, call))).toBe(true)

    // Publish the next key first; a receiver that fetches the JWKS now, and caches it, must be fine.
    const next = await Effect.runPromise(keys.prepare())
    const cached = (await (await fetch(jwksUrl)).json()) as jose.JSONWebKeySet
    const rotated = await Effect.runPromise(keys.rotate())
    expect(rotated.kid).toBe(next.kid)

    resultOf<Task>(await rpc("message/send", sendParams("more", { taskId: task.id })))
    await waitUntil(() => stub.accepted.length >= stepperStates.length, "the deliveries after the rotation")
    const kids = stub.calls.map(kidOf)
    const oldKid = kids[0]
    expect(kids).toEqual([...Array(before).fill(oldKid), ...stepperSecondHalf.map(() => next.kid)])
    expect(oldKid).not.toBe(next.kid)

    // The cached pre-rotation JWKS verifies the post-rotation deliveries without a refetch...
    const fromCache = makePushVerifier({ audience: url, keys: { jwks: cached }, issuer: testIssuer })
    for (const call of stub.calls.slice(before)) expect(Result.isSuccess(await verifyCall(fromCache, call))).toBe(true)
    // ...and a receiver fetching the JWKS after the rotation still verifies the older deliveries.
    const late = makePushVerifier({ audience: url, keys: { jwksUrl }, issuer: testIssuer })
    for (const call of stub.calls) {
      const result = await verifyCall(late, call)
      expect(Result.isSuccess(result), `delivery ${call.call} (${Result.isFailure(result) ? result.failure.reason : "ok"})`).toBe(true)
    }
    const published = (await (await fetch(jwksUrl)).json()) as jose.JSONWebKeySet
    expect(published.keys.map((k) => k.kid)).toEqual([next.kid, oldKid])
  })
})

describe("push notifications through the server: shutdown", () => {
  it("dispose flushes deliveries still queued when it is called", async () => {
    const held = gate()
    const stub = await webhook(async () => {
      await held.opened
      return 200
    })
    const server = await serverFor(quickAgent())
    const rpc = rpcClient(server.handler)
    const done = resultOf<Task>(await rpc("message/send", sendParams("go", { push: { url: `${stub.url}/flush` } })))
    expect(done.status.state).toBe("completed")
    expect(stub.accepted).toEqual([])

    const started = Date.now()
    const disposing = server.dispose({ graceMs: 0 })
    held.open()
    await disposing
    expect(statesOf(stub.accepted)).toEqual(quickStates)
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it("dispose cancels a task left waiting for input, and its webhook hears of the cancel before dispose returns", async () => {
    const stub = await webhook()
    const server = await serverFor(stepperAgent())
    const rpc = rpcClient(server.handler)
    const task = resultOf<Task>(await rpc("message/send", sendParams("start", { push: { url: `${stub.url}/left` } })))
    expect(task.status.state).toBe("input-required")
    await server.dispose({ graceMs: 0 })
    expect(statesOf(stub.accepted)).toEqual(["submitted", "working", "input-required", "canceled"])
  })

  it("dispose returns within its drain bound when a webhook never answers", async () => {
    const stub = await webhook(() => new Promise<number>(() => undefined))
    const server = await serverFor(quickAgent(), { push: pushTestOptions({ timeoutMs: 60_000 }) })
    const rpc = rpcClient(server.handler)
    resultOf<Task>(await rpc("message/send", sendParams("go", { push: { url: `${stub.url}/hang` } })))
    await waitUntil(() => stub.calls.length >= 1, "the first delivery to be in flight")

    const started = Date.now()
    await server.dispose({ graceMs: 0 })
    const elapsed = Date.now() - started
    // The queue waits its drain (5 s) for the stuck delivery, then gives up rather than hang for the 60 s request timeout.
    expect(elapsed).toBeGreaterThanOrEqual(4500)
    expect(elapsed).toBeLessThan(9000)
    expect(stub.calls).toHaveLength(1)
  }, 20_000)
})
