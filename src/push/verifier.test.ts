import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Task } from "../../schemas/index.ts"
import { jwksResponse, makePushKeySet } from "./jwks.ts"
import { memoryReplayCache } from "./replay-cache.ts"
import { makePushSigner } from "./signer.ts"
import { makePushVerifier, type PushVerifierOptions } from "./verifier.ts"
import { taskJson } from "../../schemas/v1/v1-json.ts"

const hook = "https://me.example.com/a2a/hook"
const issuer = "https://agent.example.com"
const task: Task = { kind: "task", id: "task-1", contextId: "ctx-1", status: { state: "completed" } }
const start = Date.parse("2025-06-01T00:00:00Z")

const setup = (config = { url: hook, token: "tok-1" }) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(start)
    const keys = yield* makePushKeySet({ tokenTtlSeconds: 300 })
    const signer = makePushSigner({ issuer, keys })
    const notify = (t: Task = task) =>
      Effect.map(signer.headers({ taskId: t.id, config, body: JSON.stringify(t) }), (h) => ({
        authorization: h["Authorization"],
        token: h["X-A2A-Notification-Token"],
        body: JSON.stringify(t)
      }))
    const verifier = (extra: Partial<PushVerifierOptions> = {}) =>
      Effect.map(keys.jwks, (jwks) => makePushVerifier({ audience: hook, keys: { jwks }, issuer, token: "tok-1", ...extra }))
    return { keys, signer, notify, verifier, config }
  })

describe("push verifier", () => {
  it.effect("accepts a notification of a config registered over A2A 1.0 ({\"task\": …}) as the same model Task", () =>
    Effect.gen(function*() {
      const { signer, verifier, config } = yield* setup()
      const body = `{"task":${taskJson(task)}}`
      const h = yield* signer.headers({ taskId: task.id, config, body })
      const v = yield* verifier()
      const verified = yield* v.verify({ authorization: h["Authorization"], token: h["X-A2A-Notification-Token"], body })
      expect(verified.task).toEqual(task)
      // A 1.0 body that holds no Task, or a 1.0 task of another id, is refused.
      const event = `{"statusUpdate":{"taskId":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_COMPLETED"}}}`
      const e = yield* signer.headers({ taskId: task.id, config, body: event })
      expect((yield* Effect.flip(v.verify({ authorization: e["Authorization"], token: "tok-1", body: event }))).reason).toBe("bad-body")
      const other = `{"task":${taskJson({ ...task, id: "task-2" })}}`
      const o = yield* signer.headers({ taskId: task.id, config, body: other })
      expect((yield* Effect.flip(v.verify({ authorization: o["Authorization"], token: "tok-1", body: other }))).reason).toBe("task-mismatch")
    }))

  it.effect("accepts our signed notification and returns the decoded Task", () =>
    Effect.gen(function*() {
      const { notify, verifier } = yield* setup()
      const input = yield* notify()
      expect(input.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/)
      const verified = yield* (yield* verifier()).verify(input)
      expect(verified.task).toEqual(task)
      expect(verified.claims).toMatchObject({ iss: issuer, aud: hook, taskId: "task-1", iat: start / 1000, exp: start / 1000 + 300 })
      expect(typeof verified.claims.jti).toBe("string")
    }))

  it.effect("refuses a token signed by another key", () =>
    Effect.gen(function*() {
      const { notify } = yield* setup()
      const other = yield* makePushKeySet()
      const verifier = makePushVerifier({ audience: hook, keys: { jwks: yield* other.jwks } })
      const e = yield* Effect.flip(verifier.verify(yield* notify()))
      expect(e.reason).toBe("bad-signature")
    }))

  it.effect("refuses an expired token, and accepts it within the clock tolerance", () =>
    Effect.gen(function*() {
      const { notify, verifier } = yield* setup()
      const input = yield* notify()
      const v = yield* verifier({ clockToleranceSeconds: 30 })
      yield* TestClock.adjust(Duration.seconds(320))
      yield* v.verify(input)
      const late = yield* notify()
      yield* TestClock.adjust(Duration.seconds(331))
      expect((yield* Effect.flip(v.verify(late))).reason).toBe("expired")
    }))

  it.effect("refuses a token made for another webhook", () =>
    Effect.gen(function*() {
      const { notify, verifier } = yield* setup()
      const v = yield* verifier({ audience: "https://me.example.com/a2a/other-hook" })
      expect((yield* Effect.flip(v.verify(yield* notify()))).reason).toBe("audience")
    }))

  it.effect("refuses a replayed jti", () =>
    Effect.gen(function*() {
      const { notify, verifier } = yield* setup()
      const v = yield* verifier()
      const input = yield* notify()
      yield* v.verify(input)
      expect((yield* Effect.flip(v.verify(input))).reason).toBe("replayed")
      // A fresh token for the same task is a new notification.
      yield* v.verify(yield* notify())
    }))

  it.effect("refuses a wrong notification token, a wrong issuer, a changed body, a body for another task, no token at all", () =>
    Effect.gen(function*() {
      const { notify, verifier, signer, config } = yield* setup()
      const v = yield* verifier()
      const input = yield* notify()
      expect((yield* Effect.flip(v.verify({ ...input, token: "tok-2" }))).reason).toBe("token")
      expect((yield* Effect.flip(v.verify({ ...input, authorization: undefined }))).reason).toBe("missing-authorization")
      // Any change to the body breaks the digest the token carries: a state rewritten in transit is refused.
      const tampered = input.body.replace('"completed"', '"failed"')
      expect(tampered).not.toBe(input.body)
      expect((yield* Effect.flip(v.verify({ ...input, body: tampered }))).reason).toBe("body-digest")
      // A token whose digest matches a body for another task still names its own task.
      const other = JSON.stringify({ ...task, id: "task-2" })
      const misnamed = yield* signer.headers({ taskId: task.id, config, body: other })
      expect((yield* Effect.flip(v.verify({ ...input, authorization: misnamed["Authorization"], body: other }))).reason).toBe("task-mismatch")
      const shapeless = "{\"kind\":\"task\"}"
      const unshaped = yield* signer.headers({ taskId: task.id, config, body: shapeless })
      expect((yield* Effect.flip(v.verify({ ...input, authorization: unshaped["Authorization"], body: shapeless }))).reason).toBe("bad-body")
      const strict = yield* verifier({ issuer: "https://elsewhere.example.com" })
      expect((yield* Effect.flip(strict.verify(input))).reason).toBe("issuer")
    }))

  it.effect("fetches the JWKS through the injected fetch", () =>
    Effect.gen(function*() {
      const { keys, notify } = yield* setup()
      const fetched: Array<string> = []
      const fetch = (async (url: string | URL | Request) => {
        fetched.push(String(url))
        return Effect.runPromise(jwksResponse(keys))
      }) as typeof globalThis.fetch
      const v = makePushVerifier({ audience: hook, keys: { jwksUrl: `${issuer}/.well-known/jwks.json`, fetch } })
      const verified = yield* v.verifyRequest(
        new Request(hook, {
          method: "POST",
          headers: { authorization: (yield* notify()).authorization!, "content-type": "application/json" },
          body: JSON.stringify(task)
        })
      )
      expect(verified.task.id).toBe("task-1")
      expect(fetched).toEqual([`${issuer}/.well-known/jwks.json`])
    }))

  it.effect("sends scheme credentials instead of a JWT when the config asks for another scheme", () =>
    Effect.gen(function*() {
      const { signer } = yield* setup()
      const headers = yield* signer.headers({
        taskId: "t",
        config: { url: hook, authentication: { schemes: ["Basic"], credentials: "dXNlcjpwdw==" } },
        body: "{}"
      })
      expect(headers).toEqual({ Authorization: "Basic dXNlcjpwdw==" })
    }))
})

describe("replay cache", () => {
  it.effect("is bounded: refuses when full of live ids, makes room as they expire", () =>
    Effect.gen(function*() {
      const cache = memoryReplayCache({ maxEntries: 2 })
      expect(yield* cache.remember("a", 1000)).toBe("fresh")
      expect(yield* cache.remember("b", 2000)).toBe("fresh")
      expect(yield* cache.remember("a", 1000)).toBe("replayed")
      expect(yield* cache.remember("c", 3000)).toBe("full")
      yield* TestClock.adjust(Duration.millis(1000))
      expect(yield* cache.remember("c", 3000)).toBe("fresh")
    }))
})
