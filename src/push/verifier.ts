/**
 * The receiving side: for users whose webhook gets our notifications. Verifies the Bearer JWT
 * against the sender's JWKS (signature, `aud` = this webhook, `iss`, time window), refuses a replayed
 * `jti`, checks the notification token when one is expected, and decodes the body as a Task whose id
 * matches the token's `taskId` claim: the Task itself (a config registered over A2A 0.3), or a 1.0
 * `StreamResponse` holding it (`{"task": …}`, a config registered over 1.0), read into the same model Task.
 *
 * @module
 */
import { bodyDigest, bodyDigestClaim } from "./body-digest.ts"
import { Clock, Data, Effect, Schema } from "effect"
import * as jose from "jose"
import { Task } from "../../schemas/index.ts"
import { decodeV1Response } from "../../schemas/v1/decode.ts"
import { taskFromV1 } from "../../schemas/v1/from-v1.ts"
import { pushSigningAlg } from "./jwks.ts"
import { memoryReplayCache, type ReplayCache } from "./replay-cache.ts"
import { notificationTokenHeader, type PushTokenClaims } from "./signer.ts"

/** Why a notification was not accepted. */
export type RejectionReason =
  | "missing-authorization"
  | "bad-signature"
  | "expired"
  | "audience"
  | "issuer"
  | "claims"
  | "replayed"
  | "replay-cache-full"
  | "token"
  | "bad-body"
  | "body-digest"
  | "task-mismatch"
  | "keys-unavailable"

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const NotificationRejectedBase: ReturnType<typeof Data.TaggedError<"NotificationRejected">> = Data.TaggedError("NotificationRejected")

/** A notification that must not be trusted. Answer 401 (or 400 for `bad-body`). */
export class NotificationRejected extends NotificationRejectedBase<{
  readonly reason: RejectionReason
  readonly message: string
}> {}

/** Where the sender's public keys come from. */
export type VerifierKeys =
  | { readonly jwksUrl: string | URL; readonly fetch?: typeof globalThis.fetch }
  | { readonly jwks: jose.JSONWebKeySet }

/** Options of {@link makePushVerifier}. */
export interface PushVerifierOptions {
  /** This webhook's URL, exactly as given to the server in the push config (`aud`). */
  readonly audience: string
  readonly keys: VerifierKeys
  /** Accepted `iss` values (the sender's base URL); unchecked when absent. */
  readonly issuer?: string | ReadonlyArray<string>
  /** Clock tolerance for `exp`/`iat` (default 30 s). */
  readonly clockToleranceSeconds?: number
  /** Oldest `iat` accepted, and the longest lifetime (`exp - iat`) accepted (default 600 s). */
  readonly maxTokenAgeSeconds?: number
  /** The `X-A2A-Notification-Token` this webhook expects, when it gave one. */
  readonly token?: string
  /** Seen-`jti` store (default: in memory, 10 000 entries). */
  readonly replay?: ReplayCache
}

/** The parts of a notification request the verifier reads. */
export interface NotificationInput {
  readonly authorization: string | null | undefined
  readonly token: string | null | undefined
  readonly body: string
}

/** An accepted notification. */
export interface VerifiedNotification {
  readonly task: Task
  readonly claims: PushTokenClaims
}

/** Verifies notifications; see {@link makePushVerifier}. */
export interface PushVerifier {
  readonly verify: (input: NotificationInput) => Effect.Effect<VerifiedNotification, NotificationRejected>
  readonly verifyRequest: (request: Request) => Effect.Effect<VerifiedNotification, NotificationRejected>
}

const sameString = (a: string, b: string) => {
  // No early exit on the first difference: the comparison time must not reveal the token.
  let diff = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  return diff === 0
}

const reject = (reason: RejectionReason, message: string) => new NotificationRejected({ reason, message })

const fromJoseError = (e: unknown): NotificationRejected => {
  if (e instanceof jose.errors.JWTExpired) return reject("expired", "the token has expired")
  if (e instanceof jose.errors.JWTClaimValidationFailed) {
    if (e.claim === "aud") return reject("audience", "the token is for another webhook")
    if (e.claim === "iss") return reject("issuer", "the token comes from an unexpected issuer")
    return reject("claims", `claim ${e.claim} is not acceptable: ${e.message}`)
  }
  if (e instanceof jose.errors.JWKSTimeout || e instanceof jose.errors.JWKSInvalid) {
    return reject("keys-unavailable", "the sender's keys could not be loaded")
  }
  if (e instanceof jose.errors.JOSEError) return reject("bad-signature", `the token does not verify (${e.code})`)
  return reject("keys-unavailable", "the sender's keys could not be loaded")
}

const decodeTask03 = Schema.decodeUnknownEffect(Task)

/** The body as the model's Task: a 0.3 Task, or a 1.0 StreamResponse that holds one. */
const decodeTask = (body: string): Effect.Effect<Task, unknown> =>
  Effect.flatMap(Effect.try(() => JSON.parse(body) as unknown), (json): Effect.Effect<Task, unknown> => {
    const wrapped = typeof json === "object" && json !== null && !Array.isArray(json) && "task" in json
    if (!wrapped) return decodeTask03(json)
    const v1 = decodeV1Response.streamResponse(json)
    return v1._tag === "Success" && v1.success.task !== undefined ? Effect.succeed(taskFromV1(v1.success.task)) : Effect.fail("not a Task")
  })

/**
 * Makes a verifier. Time comes from Effect's Clock (`TestClock` in tests).
 *
 * @example
 * const verifier = makePushVerifier({
 *   audience: "https://me.example.com/a2a/hook",
 *   keys: { jwksUrl: "https://agent.example.com/.well-known/jwks.json" },
 *   issuer: "https://agent.example.com"
 * })
 * const { task } = yield* verifier.verifyRequest(request)
 */
export const makePushVerifier = (options: PushVerifierOptions): PushVerifier => {
  const getKey = "jwks" in options.keys
    ? jose.createLocalJWKSet(options.keys.jwks)
    : jose.createRemoteJWKSet(
      new URL(options.keys.jwksUrl),
      options.keys.fetch === undefined ? {} : { [jose.customFetch]: options.keys.fetch }
    )
  const maxAge = options.maxTokenAgeSeconds ?? 600
  const replay = options.replay ?? memoryReplayCache()
  const issuer = options.issuer === undefined
    ? {}
    : { issuer: typeof options.issuer === "string" ? options.issuer : [...options.issuer] }

  const verify = (input: NotificationInput) =>
    Effect.gen(function*() {
      if (options.token !== undefined && !sameString(input.token ?? "", options.token)) {
        return yield* Effect.fail(reject("token", `the ${notificationTokenHeader} header does not match`))
      }
      const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(input.authorization ?? "")
      if (match === null) return yield* Effect.fail(reject("missing-authorization", "no Bearer token"))
      const now = yield* Clock.currentTimeMillis
      const { payload } = yield* Effect.tryPromise({
        try: () =>
          jose.jwtVerify<PushTokenClaims>(match[1]!, getKey, {
            algorithms: [pushSigningAlg],
            audience: options.audience,
            ...issuer,
            typ: "JWT",
            clockTolerance: options.clockToleranceSeconds ?? 30,
            maxTokenAge: maxAge,
            currentDate: new Date(now),
            requiredClaims: ["iat", "exp", "jti", "aud", "taskId", bodyDigestClaim]
          }),
        catch: fromJoseError
      })
      if (typeof payload.jti !== "string" || typeof payload.taskId !== "string" || payload.exp! - payload.iat! > maxAge) {
        return yield* Effect.fail(reject("claims", "jti, taskId or the token lifetime is not acceptable"))
      }
      if (payload[bodyDigestClaim] !== (yield* bodyDigest(input.body))) {
        return yield* Effect.fail(reject("body-digest", "the body is not the one the token was signed for"))
      }
      const task = yield* Effect.mapError(decodeTask(input.body), () => reject("bad-body", "the body is not a Task"))
      if (task.id !== payload.taskId) {
        return yield* Effect.fail(reject("task-mismatch", "the token was issued for another task"))
      }
      // Last, so a notification refused for another reason does not use up its jti.
      const verdict = yield* replay.remember(payload.jti, payload.exp! * 1000)
      if (verdict === "replayed") return yield* Effect.fail(reject("replayed", "this token was already used"))
      if (verdict === "full") return yield* Effect.fail(reject("replay-cache-full", "too many live tokens; retry later"))
      return { task, claims: payload }
    })

  const verifyRequest = (request: Request) =>
    Effect.flatMap(
      Effect.tryPromise({ try: () => request.text(), catch: () => reject("bad-body", "the body could not be read") }),
      (body) =>
        verify({
          authorization: request.headers.get("authorization"),
          token: request.headers.get(notificationTokenHeader),
          body
        })
    )

  return { verify, verifyRequest }
}
