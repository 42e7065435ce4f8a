/**
 * The server's push signing keys. One key signs; earlier keys stay published until every token they
 * signed has expired, and a next key can be published before it signs, so receivers that cache the
 * JWKS never meet an unknown `kid` during a rotation.
 *
 * @module
 */
import { Clock, Data, Effect, Ref } from "effect"
import * as jose from "jose"

/** The signing algorithm: ECDSA P-256, small signatures, Web Crypto on every runtime. */
export const pushSigningAlg = "ES256"

/** A key pair that signs push tokens. `kid` is the RFC 7638 thumbprint of the public key. */
export interface SigningKey {
  readonly kid: string
  readonly privateKey: CryptoKey
  readonly publicJwk: jose.JWK
}

/** A private JWK could not be used as an ES256 signing key. */
export class SigningKeyInvalid extends Data.TaggedError("SigningKeyInvalid")<{ readonly message: string }> {}

const publicPart = async (jwk: jose.JWK): Promise<jose.JWK> => {
  const { kty, crv, x, y } = jwk
  const bare = { kty, crv, x, y } as jose.JWK
  const kid = await jose.calculateJwkThumbprint(bare, "sha256")
  return { ...bare, kid, alg: pushSigningAlg, use: "sig" }
}

/** Generates a new ES256 key pair (extractable, so it can be persisted with {@link exportSigningKey}). */
export const generateSigningKey = (): Effect.Effect<SigningKey> =>
  Effect.promise(async () => {
    const pair = await jose.generateKeyPair(pushSigningAlg, { extractable: true })
    const publicJwk = await publicPart(await jose.exportJWK(pair.publicKey))
    return { kid: publicJwk.kid!, privateKey: pair.privateKey, publicJwk }
  })

/** Imports a private EC P-256 JWK (for example one stored by {@link exportSigningKey}). */
export const importSigningKey = (privateJwk: jose.JWK): Effect.Effect<SigningKey, SigningKeyInvalid> =>
  Effect.tryPromise({
    try: async () => {
      if (privateJwk.kty !== "EC" || privateJwk.crv !== "P-256" || privateJwk.d === undefined) {
        throw new Error("expected a private EC P-256 JWK")
      }
      const privateKey = await jose.importJWK(privateJwk, pushSigningAlg, { extractable: true })
      // jose answers raw bytes only for symmetric ("oct") JWKs, which the check above already refused.
      if (privateKey instanceof Uint8Array) throw new Error("expected a private EC P-256 JWK")
      const publicJwk = await publicPart(privateJwk)
      return { kid: publicJwk.kid!, privateKey, publicJwk }
    },
    catch: (e) => new SigningKeyInvalid({ message: e instanceof Error ? e.message : String(e) })
  })

/** The private JWK of a key, to persist it (keep it secret). */
export const exportSigningKey = (key: SigningKey): Effect.Effect<jose.JWK> =>
  Effect.promise(() => jose.exportJWK(key.privateKey)).pipe(Effect.map((jwk) => ({ ...jwk, kid: key.kid })))

/** Options of {@link makePushKeySet}. */
export interface PushKeySetOptions {
  /** Lifetime of the tokens signed with these keys (default 300 s). */
  readonly tokenTtlSeconds?: number
  /** Extra time a retired key stays published, for receivers' clock tolerance (default 60 s). */
  readonly clockSkewSeconds?: number
  /** The first signing key (default: a generated one). */
  readonly initial?: SigningKey
}

/** The signing key set; see {@link makePushKeySet}. */
export interface PushKeySet {
  readonly tokenTtlSeconds: number
  /** The key that signs now. */
  readonly current: Effect.Effect<SigningKey>
  /** Publishes `key` (default: a new one) as the next key without signing with it yet. */
  readonly prepare: (key?: SigningKey) => Effect.Effect<SigningKey>
  /**
   * Makes `key`, else the prepared key, else a new one, the signing key. The previous key stays in
   * the JWKS until its last token has expired (plus the clock skew).
   */
  readonly rotate: (key?: SigningKey) => Effect.Effect<SigningKey>
  /** Stops publishing a previous or prepared key at once (a compromised key). The current key stays. */
  readonly retire: (kid: string) => Effect.Effect<void>
  /** The public keys to publish at `/.well-known/jwks.json`. */
  readonly jwks: Effect.Effect<jose.JSONWebKeySet>
}

interface State {
  readonly current: SigningKey
  readonly next: SigningKey | undefined
  readonly previous: ReadonlyArray<{ readonly key: SigningKey; readonly publishedUntil: number }>
}

/**
 * Makes a key set. Time comes from Effect's Clock, so `TestClock` drives expiry in tests.
 *
 * @example
 * const keys = yield* makePushKeySet({ tokenTtlSeconds: 300 })
 * const doc = yield* keys.jwks // { keys: [{ kty: "EC", kid, alg: "ES256", use: "sig", ... }] }
 */
export const makePushKeySet = (options: PushKeySetOptions = {}): Effect.Effect<PushKeySet> =>
  Effect.gen(function*() {
    const tokenTtlSeconds = options.tokenTtlSeconds ?? 300
    const keepMs = (tokenTtlSeconds + (options.clockSkewSeconds ?? 60)) * 1000
    const initial = options.initial ?? (yield* generateSigningKey())
    const state = yield* Ref.make<State>({ current: initial, next: undefined, previous: [] })

    const live = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Ref.updateAndGet(state, (s) => ({ ...s, previous: s.previous.filter((p) => p.publishedUntil > now) })))

    const prepare = (key?: SigningKey) =>
      Effect.gen(function*() {
        const next = key ?? (yield* generateSigningKey())
        yield* Ref.update(state, (s) => ({ ...s, next }))
        return next
      })

    const rotate = (key?: SigningKey) =>
      Effect.gen(function*() {
        const prepared = (yield* Ref.get(state)).next
        const next = key ?? prepared ?? (yield* generateSigningKey())
        const now = yield* Clock.currentTimeMillis
        yield* Ref.update(state, (s) => ({
          current: next,
          next: s.next?.kid === next.kid ? undefined : s.next,
          previous: [...s.previous.filter((p) => p.key.kid !== next.kid), { key: s.current, publishedUntil: now + keepMs }]
        }))
        return next
      })

    const retire = (kid: string) =>
      Ref.update(state, (s) => ({
        ...s,
        next: s.next?.kid === kid ? undefined : s.next,
        previous: s.previous.filter((p) => p.key.kid !== kid)
      }))

    const jwks = Effect.map(live, (s) => ({
      keys: [s.current, ...(s.next === undefined ? [] : [s.next]), ...s.previous.map((p) => p.key)].map((k) => k.publicJwk)
    }))

    return { tokenTtlSeconds, current: Effect.map(Ref.get(state), (s) => s.current), prepare, rotate, retire, jwks }
  })

/** The JWKS as an HTTP response for `GET /.well-known/jwks.json` (cacheable briefly). */
export const jwksResponse = (keys: PushKeySet): Effect.Effect<Response> =>
  Effect.map(keys.jwks, (doc) =>
    new Response(JSON.stringify(doc), {
      headers: { "content-type": "application/jwk-set+json", "cache-control": "public, max-age=60" }
    }))
