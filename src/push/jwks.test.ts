import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Task } from "../../schemas/index.ts"
import { exportSigningKey, importSigningKey, makePushKeySet, type PushKeySet } from "./jwks.ts"
import { makePushSigner } from "./signer.ts"
import { makePushVerifier } from "./verifier.ts"

const hook = "https://me.example.com/hook"
const task: Task = { kind: "task", id: "task-9", contextId: "ctx-9", status: { state: "working" } }
const config = { url: hook }

const sign = (keys: PushKeySet) =>
  Effect.map(makePushSigner({ issuer: "https://agent.example.com", keys }).headers({ taskId: task.id, config, body: JSON.stringify(task) }), (h) => ({
    authorization: h["Authorization"],
    token: undefined,
    body: JSON.stringify(task)
  }))

// A receiver that reads the JWKS as published right now.
const verifyNow = (keys: PushKeySet, input: Effect.Success<ReturnType<typeof sign>>) =>
  Effect.flatMap(keys.jwks, (jwks) => makePushVerifier({ audience: hook, keys: { jwks } }).verify(input))

const kids = (keys: PushKeySet) => Effect.map(keys.jwks, (d) => d.keys.map((k) => k.kid))

describe("push key set", () => {
  it.effect("publishes only public keys with kid, alg and use", () =>
    Effect.gen(function*() {
      const keys = yield* makePushKeySet()
      const doc = yield* keys.jwks
      expect(doc.keys).toHaveLength(1)
      expect(doc.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" })
      expect(doc.keys[0]!.kid).toBe((yield* keys.current).kid)
      expect(doc.keys[0]).not.toHaveProperty("d")
    }))

  it.effect("a token signed before a rotation verifies after it, until the old key is retired", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2025-06-01T00:00:00Z"))
      const keys = yield* makePushKeySet({ tokenTtlSeconds: 300, clockSkewSeconds: 60 })
      const old = yield* keys.current
      const before = yield* sign(keys)
      const next = yield* keys.rotate()
      expect(next.kid).not.toBe(old.kid)
      expect(yield* kids(keys)).toEqual([next.kid, old.kid])
      yield* verifyNow(keys, before)
      yield* verifyNow(keys, yield* sign(keys))
      yield* keys.retire(old.kid)
      expect(yield* kids(keys)).toEqual([next.kid])
      expect((yield* Effect.flip(verifyNow(keys, before))).reason).toBe("bad-signature")
    }))

  it.effect("keeps a rotated-out key published exactly until its last token has expired (plus skew)", () =>
    Effect.gen(function*() {
      const keys = yield* makePushKeySet({ tokenTtlSeconds: 300, clockSkewSeconds: 60 })
      const old = yield* keys.current
      yield* keys.rotate()
      yield* TestClock.adjust(Duration.seconds(359))
      expect(yield* kids(keys)).toContain(old.kid)
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* kids(keys)).not.toContain(old.kid)
    }))

  it.effect("a prepared key is published before it signs, and rotate promotes it", () =>
    Effect.gen(function*() {
      const keys = yield* makePushKeySet()
      const first = yield* keys.current
      const prepared = yield* keys.prepare()
      expect(yield* kids(keys)).toEqual([first.kid, prepared.kid])
      expect((yield* keys.current).kid).toBe(first.kid)
      expect((yield* keys.rotate()).kid).toBe(prepared.kid)
      expect(yield* kids(keys)).toEqual([prepared.kid, first.kid])
    }))

  it.effect("a key exported and imported again keeps its kid and still signs", () =>
    Effect.gen(function*() {
      const keys = yield* makePushKeySet()
      const jwk = yield* exportSigningKey(yield* keys.current)
      const imported = yield* importSigningKey(jwk)
      expect(imported.kid).toBe((yield* keys.current).kid)
      const restored = yield* makePushKeySet({ initial: imported })
      yield* verifyNow(keys, yield* sign(restored))
      const bad = yield* Effect.flip(importSigningKey({ kty: "EC", crv: "P-256", x: jwk.x!, y: jwk.y! }))
      expect(bad._tag).toBe("SigningKeyInvalid")
    }))
})
