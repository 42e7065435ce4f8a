import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { PushNotificationConfig, Task, TaskState } from "../../schemas/index.ts"
import { PushSender, type PushSenderOptions } from "./delivery-queue.ts"
import { makePushKeySet } from "./jwks.ts"
import type { PushEvent } from "./push-events.ts"
import { fetchTransport } from "./push-transport.ts"
import { makePushSigner } from "./signer.ts"
import { type DnsResolver, makeUrlGuard } from "./url-guard.ts"
import { makePushVerifier } from "./verifier.ts"
import { driveUntil, eventLog, type Responder, startWebhookStub, type WebhookStub } from "../../testing/push/webhook-stub.ts"

const snapshot = (state: TaskState, id = "task-1"): Task => ({
  kind: "task",
  id,
  contextId: "ctx-1",
  status: { state, timestamp: new Date(0).toISOString() }
})
const lifecycle: ReadonlyArray<TaskState> = ["submitted", "working", "input-required", "working", "completed"]

const noDns: DnsResolver = async (host) => {
  throw new Error(`no DNS in tests: ${host}`)
}
// The test webhook lives on loopback, which the guard refuses unless allowed.
const localGuard = (resolve: DnsResolver = noDns) => makeUrlGuard({ resolve, allow: ["127.0.0.1/32"] })

const stubs: Array<WebhookStub> = []
const stub = (respond?: Responder) =>
  Effect.promise(async () => {
    const s = await startWebhookStub(respond)
    stubs.push(s)
    return s
  })
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.close()))
})

const waitReal = (cond: () => boolean) =>
  Effect.promise(async () => {
    for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setTimeout(r, 2))
    if (!cond()) throw new Error("condition not reached")
  })

const setup = (options: Partial<PushSenderOptions> = {}) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.now())
    const log = eventLog()
    const keys = yield* makePushKeySet()
    const sender = yield* PushSender.make({
      transport: fetchTransport(),
      guard: localGuard(),
      signer: makePushSigner({ issuer: "https://agent.example.com", keys }),
      retry: { baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 5 },
      timeoutMs: 60_000,
      onEvent: log.onEvent,
      ...options
    })
    const settle = driveUntil(sender.idle, log.waits)
    return { sender, log, keys, settle }
  })

const states = (s: WebhookStub) => s.accepted.map((c) => (JSON.parse(c.body) as Task).status.state)
const tags = (events: ReadonlyArray<PushEvent>) => events.map((e) => e._tag)

describe("push delivery queue", () => {
  it.effect("delivers every state change in order, signed and verifiable once each", () =>
    Effect.gen(function*() {
      const hook = yield* stub()
      const { sender, log, keys, settle } = yield* setup()
      const config: PushNotificationConfig = { id: "c1", url: `${hook.url}/hook`, token: "tok-1" }
      for (const state of lifecycle) yield* sender.enqueue(snapshot(state), [config])
      yield* settle
      expect(states(hook)).toEqual(lifecycle)
      expect(hook.calls).toHaveLength(lifecycle.length)
      const verifier = makePushVerifier({ audience: config.url, keys: { jwks: yield* keys.jwks }, token: "tok-1" })
      for (const call of hook.calls) {
        expect(call.path).toBe("/hook")
        expect(call.headers["content-type"]).toBe("application/json")
        const verified = yield* verifier.verify({
          authorization: call.headers["authorization"],
          token: call.headers["x-a2a-notification-token"],
          body: call.body
        })
        expect(verified.task.id).toBe("task-1")
      }
      expect(tags(log.events).filter((t) => t === "PushDelivered")).toHaveLength(5)
      const delivered = log.events.find((e) => e._tag === "PushDelivered")
      expect(delivered).toMatchObject({ taskId: "task-1", configId: "c1", url: `${hook.url}/hook`, attempt: 1, status: 200 })
    }))

  it.effect("a receiver that fails its first calls still gets everything, once each, in order", () =>
    Effect.gen(function*() {
      const hook = yield* stub((call) => (call.call <= 3 ? 503 : 204))
      const { sender, log, settle } = yield* setup()
      const config = { id: "c1", url: `${hook.url}/hook` }
      for (const state of lifecycle) yield* sender.enqueue(snapshot(state), [config])
      yield* settle
      expect(states(hook)).toEqual(lifecycle)
      expect(hook.calls).toHaveLength(lifecycle.length + 3)
      const retries = log.events.filter((e) => e._tag === "PushRetrying")
      expect(retries.map((e) => [e.attempt, e.status])).toEqual([[1, 503], [2, 503], [3, 503]])
      // Full jitter: each wait lies within the exponential cap of its attempt.
      retries.forEach((e, i) => expect(e.delayMs).toBeLessThan(100 * 2 ** i))
      // Every signed request carries a fresh jti, retries included.
      const jtis = hook.calls.map((c) => JSON.parse(atob(c.headers["authorization"]!.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti)
      expect(new Set(jtis).size).toBe(hook.calls.length)
    }))

  it.effect("stops at the attempt bound with PushGaveUp, then moves on to the next snapshot", () =>
    Effect.gen(function*() {
      const hook = yield* stub(() => 500)
      const { sender, log, settle } = yield* setup({ retry: { baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 3 } })
      const config = { id: "c1", url: `${hook.url}/hook` }
      yield* sender.enqueue(snapshot("working"), [config])
      yield* sender.enqueue(snapshot("failed"), [config])
      yield* settle
      expect(hook.calls).toHaveLength(6)
      const gaveUp = log.events.filter((e) => e._tag === "PushGaveUp")
      expect(gaveUp.map((e) => [e.state, e.reason, e.attempt, e.status])).toEqual([
        ["working", "attempts", 3, 500],
        ["failed", "attempts", 3, 500]
      ])
    }))

  it.effect("does not retry a webhook that rejects the notification (4xx)", () =>
    Effect.gen(function*() {
      const hook = yield* stub((call) => (call.call === 1 ? 401 : 200))
      const { sender, log, settle } = yield* setup()
      const config = { url: `${hook.url}/hook` }
      yield* sender.enqueue(snapshot("working"), [config])
      yield* sender.enqueue(snapshot("completed"), [config])
      yield* settle
      expect(hook.calls).toHaveLength(2)
      expect(states(hook)).toEqual(["completed"])
      expect(log.events.find((e) => e._tag === "PushGaveUp")).toMatchObject({ reason: "rejected", status: 401, attempt: 1 })
    }))

  it.effect("refuses a redirect from the real receiver and never follows it", () =>
    Effect.gen(function*() {
      const elsewhere = yield* stub()
      const hook = yield* stub(() => ({ status: 307, headers: { location: `${elsewhere.url}/stolen` } }))
      const { sender, log, settle } = yield* setup()
      yield* sender.enqueue(snapshot("completed"), [{ url: `${hook.url}/hook` }])
      yield* settle
      expect(hook.calls).toHaveLength(1)
      expect(elsewhere.calls).toHaveLength(0)
      expect(log.events.find((e) => e._tag === "PushRefused")).toMatchObject({ reason: "redirect", status: 307, attempt: 1 })
      expect(tags(log.events)).not.toContain("PushRetrying")
    }))

  it.effect("connects to the address the guard checked, and re-checks it on every delivery", () =>
    Effect.gen(function*() {
      const hook = yield* stub()
      let answer = ["127.0.0.1"]
      const resolve: DnsResolver = async (host) => (host === "webhook.test" ? answer : [])
      const { sender, log, settle } = yield* setup({ guard: localGuard(resolve) })
      const config = { url: `http://webhook.test:${hook.port}/hook` }
      yield* sender.enqueue(snapshot("working"), [config])
      yield* settle
      // "webhook.test" resolves nowhere but in the injected resolver: reaching the stub proves the pin.
      expect(states(hook)).toEqual(["working"])
      answer = ["10.0.0.7"]
      yield* sender.enqueue(snapshot("completed"), [config])
      yield* settle
      expect(hook.calls).toHaveLength(1)
      expect(log.events.find((e) => e._tag === "PushRefused")).toMatchObject({ reason: "private", state: "completed" })
    }))

  it.effect("refuses a token with CR/LF at delivery time without sending anything", () =>
    Effect.gen(function*() {
      const hook = yield* stub()
      const { sender, log, settle } = yield* setup()
      yield* sender.enqueue(snapshot("working"), [{ url: `${hook.url}/hook`, token: "ok\r\nX-Evil: 1" }])
      yield* settle
      expect(hook.calls).toHaveLength(0)
      expect(log.events.find((e) => e._tag === "PushRefused")).toMatchObject({ reason: "header-value" })
    }))

  it.effect("when a lane is full, coalesces to the latest snapshot and still delivers the terminal state", () =>
    Effect.gen(function*() {
      let release: () => void = () => undefined
      const held = new Promise<number>((resolve) => (release = () => resolve(200)))
      const hook = yield* stub((call) => (call.call === 1 ? held : 200))
      const { sender, log, settle } = yield* setup({ limits: { perTaskConfig: 1 } })
      const config = { id: "c1", url: `${hook.url}/hook` }
      yield* sender.enqueue(snapshot("submitted"), [config])
      yield* waitReal(() => hook.calls.length === 1)
      for (const state of ["working", "input-required", "completed"] as const) yield* sender.enqueue(snapshot(state), [config])
      release()
      yield* settle
      expect(states(hook)).toEqual(["submitted", "completed"])
      expect(log.events.filter((e) => e._tag === "PushCoalesced").map((e) => e.state)).toEqual(["working", "input-required"])
    }))

  it.effect("keeps lanes independent: one in flight per task and config, each in order", () =>
    Effect.gen(function*() {
      const a = yield* stub((call) => (call.call === 2 ? 503 : 200))
      const b = yield* stub()
      const { sender, settle } = yield* setup()
      const configs = [{ id: "a", url: `${a.url}/hook` }, { id: "b", url: `${b.url}/hook` }]
      // `offer` is the synchronous entry point a runtime's change listener calls.
      for (const state of lifecycle) {
        sender.offer(snapshot(state, "t1"), configs)
        sender.offer(snapshot(state, "t2"), configs)
      }
      yield* settle
      for (const hook of [a, b]) {
        for (const id of ["t1", "t2"]) {
          const mine = hook.accepted.map((c) => JSON.parse(c.body) as Task).filter((t) => t.id === id)
          expect(mine.map((t) => t.status.state)).toEqual(lifecycle)
        }
      }
    }))

  it.effect("reports queue-full when every lane already holds only its latest snapshot", () =>
    Effect.gen(function*() {
      let release: () => void = () => undefined
      const held = new Promise<number>((resolve) => (release = () => resolve(200)))
      const hook = yield* stub((call) => (call.call === 1 ? held : 200))
      const { sender, log, settle } = yield* setup({ limits: { total: 1 } })
      yield* sender.enqueue(snapshot("working", "t1"), [{ url: `${hook.url}/hook` }])
      yield* waitReal(() => hook.calls.length === 1)
      yield* sender.enqueue(snapshot("completed", "t1"), [{ url: `${hook.url}/hook` }])
      yield* sender.enqueue(snapshot("completed", "t2"), [{ url: `${hook.url}/hook` }])
      release()
      yield* settle
      expect(hook.accepted.map((c) => (JSON.parse(c.body) as Task).id)).toEqual(["t1", "t1"])
      expect(log.events.find((e) => e._tag === "PushGaveUp")).toMatchObject({ taskId: "t2", reason: "queue-full", attempt: 0 })
    }))

  it.effect("after shutdown, nothing more is sent", () =>
    Effect.gen(function*() {
      const hook = yield* stub()
      const { sender, settle } = yield* setup()
      yield* sender.shutdown()
      yield* sender.enqueue(snapshot("completed"), [{ url: `${hook.url}/hook` }])
      yield* settle
      expect(hook.calls).toHaveLength(0)
    }))
})
