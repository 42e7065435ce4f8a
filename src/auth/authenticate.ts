/**
 * Decides who is calling from the card's security requirements, before any task exists.
 *
 * `security` is an OR of AND-lists (OpenAPI 3 Security Requirement Objects): each object is one
 * alternative and every scheme named in it must pass, holding the listed scopes. A targeted skill
 * with its own `security` replaces the card's. No requirement means the anonymous principal. An
 * empty object `{}` among the alternatives makes authentication optional, but credentials that
 * are presented must still be valid.
 *
 * @module
 */
import { Data, Effect, Result } from "effect"
import type { AgentCard, SecurityScheme } from "../../schemas/index.ts"
import type { AuthRequest } from "./auth-request.ts"
import { grantedScopes, type AuthFailure, type Authenticator } from "./authenticator.ts"
import { challengeFor, joinChallenges, type BearerError } from "./challenge.ts"
import { anonymous, type Principal } from "./principal.ts"

/** Why a request was refused. */
export type RefusalReason =
  | "missing_credentials"
  | "invalid_request"
  | "invalid_credentials"
  | "insufficient_scope"
  | "forbidden"
  | "unavailable"

/**
 * A refused request: 401 (no or wrong credentials; `challenge` is the `WWW-Authenticate` value),
 * 403 (authenticated but lacking scope or permission), or 503 (credentials could not be checked).
 */
export class AuthRefusal extends Data.TaggedError("AuthRefusal")<{
  readonly status: 401 | 403 | 503
  readonly reason: RefusalReason
  readonly message: string
  /** The scheme names concerned (all required ones for 401; the ones that failed otherwise). */
  readonly schemes: ReadonlyArray<string>
  readonly challenge?: string
}> {}

/** The method and skill a request targets, for skill-level security and authorization. */
export interface AuthTarget {
  readonly method?: string
  /** `AgentSkill.id`; unknown ids fall back to the card-level requirement. */
  readonly skill?: string
}

/** Everything `authenticate` needs; build once per card. */
export interface AuthPolicy {
  readonly card: Pick<AgentCard, "security" | "securitySchemes" | "skills">
  /** One authenticator per scheme name used in any requirement. */
  readonly authenticators: Readonly<Record<string, Authenticator>>
  /** Authorization after authentication; `false` refuses with 403. */
  readonly authorize?: (principal: Principal, target: AuthTarget) => Effect.Effect<boolean>
  /** `realm` of the challenges; default `"a2a"`. */
  readonly realm?: string
  /** Merges the principals of an AND-alternative; default: see {@link combinePrincipals}. */
  readonly combine?: (principals: ReadonlyArray<readonly [string, Principal]>) => Principal
}

type Requirement = Readonly<Record<string, ReadonlyArray<string>>>

/**
 * The principal of an AND-alternative: the first scheme's id, `scheme` joined with `+`, claims
 * merged with the earlier scheme winning on conflicts.
 */
export const combinePrincipals = (principals: ReadonlyArray<readonly [string, Principal]>): Principal => {
  const [first] = principals
  if (first === undefined) return anonymous
  if (principals.length === 1) return first[1]
  const claims = Object.assign({}, ...[...principals].reverse().map(([, p]) => p.claims ?? {})) as Record<string, unknown>
  return { id: first[1].id, scheme: principals.map(([name]) => name).join("+"), claims }
}

/** The requirements that apply to a target. */
export const requirementsFor = (card: AuthPolicy["card"], skill?: string): ReadonlyArray<Requirement> => {
  const skillSecurity = skill === undefined ? undefined : card.skills.find((s) => s.id === skill)?.security
  return skillSecurity ?? card.security ?? []
}

/** Configuration problems (schemes named but not declared, or without an authenticator). */
export const checkAuthPolicy = (policy: AuthPolicy): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const all = [...(policy.card.security ?? []), ...policy.card.skills.flatMap((s) => s.security ?? [])]
  for (const name of new Set(all.flatMap((r) => Object.keys(r)))) {
    if (policy.card.securitySchemes?.[name] === undefined) problems.push(`scheme "${name}" is not in securitySchemes`)
    if (policy.authenticators[name] === undefined) problems.push(`scheme "${name}" has no authenticator`)
  }
  return problems
}

type Outcome = Result.Result<Principal | undefined, AuthFailure>

/**
 * What each scheme's authenticator said about one request, by scheme name. Pass the same map to every
 * {@link authenticate} of a request (a check before its body is read, the full one after) and each
 * authenticator runs at most once: its answer depends on the request's headers, URL and certificate only.
 */
export type SchemeOutcomes = Map<string, Outcome>

const bearerError = (failure: AuthFailure): BearerError =>
  failure.reason === "invalid_request" ? "invalid_request" : "invalid_token"

/**
 * Authenticates and authorizes a request. Each scheme is checked at most once per request (per `known`
 * map), in the order the requirements name them; the first alternative that fully passes wins.
 * A scheme named in a requirement without an authenticator is a server bug (a defect): run
 * {@link checkAuthPolicy} at startup.
 */
export const authenticate = (
  policy: AuthPolicy,
  request: AuthRequest,
  target: AuthTarget = {},
  known: SchemeOutcomes = new Map()
): Effect.Effect<Principal, AuthRefusal> =>
  Effect.gen(function* () {
    const realm = policy.realm ?? "a2a"
    const requirements = requirementsFor(policy.card, target.skill)
    const outcomes = known
    const schemeOf = (name: string): SecurityScheme | undefined => policy.card.securitySchemes?.[name]

    const check = (name: string): Effect.Effect<Outcome> => {
      const known = outcomes.get(name)
      if (known !== undefined) return Effect.succeed(known)
      const scheme = schemeOf(name)
      const authenticator = policy.authenticators[name]
      if (scheme === undefined || authenticator === undefined) {
        return Effect.die(`security scheme "${name}" is not declared or has no authenticator`)
      }
      return authenticator(request, { schemeName: name, scheme }).pipe(
        Effect.map((p) => (p === undefined || p.scheme !== undefined ? p : { ...p, scheme: name })),
        Effect.result,
        Effect.tap((outcome) => Effect.sync(() => outcomes.set(name, outcome)))
      )
    }

    const permit = (principal: Principal) =>
      Effect.flatMap(policy.authorize?.(principal, target) ?? Effect.succeed(true), (ok) =>
        ok
          ? Effect.succeed(principal)
          : Effect.fail(new AuthRefusal({ status: 403, reason: "forbidden", message: "not permitted", schemes: [] })))

    if (requirements.length === 0) return yield* permit(anonymous)

    let optional = false
    const lackingScope: Array<readonly [string, ReadonlyArray<string>]> = []
    for (const requirement of requirements) {
      const names = Object.keys(requirement)
      if (names.length === 0) {
        optional = true
        continue
      }
      const passed: Array<readonly [string, Principal]> = []
      for (const name of names) {
        const outcome = yield* check(name)
        if (Result.isSuccess(outcome) && outcome.success !== undefined) passed.push([name, outcome.success])
      }
      if (passed.length !== names.length) continue
      const missing = passed.flatMap(([name, p]) => {
        const granted = grantedScopes(p)
        const absent = (requirement[name] ?? []).filter((s) => !granted.has(s))
        return absent.length === 0 ? [] : [[name, absent] as const]
      })
      if (missing.length > 0) {
        lackingScope.push(...missing)
        continue
      }
      return yield* permit((policy.combine ?? combinePrincipals)(passed))
    }

    // The schemes these requirements name, in the order they name them (the order they were checked in); a
    // shared `known` map may hold other schemes too, checked for another target.
    const named = [...new Set(requirements.flatMap((r) => Object.keys(r)))]
    const failures = named.flatMap((name) => {
      const o = outcomes.get(name)
      return o !== undefined && Result.isFailure(o) ? [[name, o.failure] as const] : []
    })
    const unavailable = failures.filter(([, f]) => f.reason === "unavailable")
    if (unavailable.length > 0) {
      return yield* new AuthRefusal({
        status: 503,
        reason: "unavailable",
        message: "credentials cannot be checked right now",
        schemes: unavailable.map(([name]) => name)
      })
    }
    if (failures.length === 0 && lackingScope.length === 0 && optional) return yield* permit(anonymous)

    const failed = new Map(failures)
    if (failures.length === 0 && lackingScope.length > 0) {
      return yield* new AuthRefusal({
        status: 403,
        reason: "insufficient_scope",
        message: "the credentials lack a required scope",
        schemes: lackingScope.map(([name]) => name),
        challenge: joinChallenges(lackingScope.map(([name, scopes]) =>
          challengeFor(schemeOf(name)!, { realm, scopes, error: "insufficient_scope" })
        ))
      })
    }
    const challenge = joinChallenges(named.map((name) => {
      const failure = failed.get(name)
      const scopes = requirements.flatMap((r) => r[name] ?? [])
      return challengeFor(schemeOf(name)!, {
        realm,
        scopes: [...new Set(scopes)],
        ...(failure === undefined ? {} : { error: bearerError(failure), errorDescription: failure.message })
      })
    }))
    const [firstFailure] = failures
    return yield* new AuthRefusal({
      status: 401,
      reason: firstFailure === undefined ? "missing_credentials" : firstFailure[1].reason === "invalid_request"
        ? "invalid_request"
        : "invalid_credentials",
      message: firstFailure === undefined ? "authentication required" : firstFailure[1].message,
      schemes: named,
      challenge
    })
  })
