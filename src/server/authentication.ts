/**
 * Who is calling: the card's security requirements enforced by the configured authenticators,
 * before any method runs, and as far as the headers tell, before the body is read. A refusal is a finished HTTP answer (401 with `WWW-Authenticate`, or
 * 403), so nothing behind it — no task, no stream — is ever created.
 */
import { HttpServerResponse, type HttpServerRequest } from "effect/http"
import { Effect } from "effect"
import type { AgentCard } from "../../schemas/index.ts"
import type { AuthRequest, PeerCertificateInfo } from "../auth/auth-request.ts"
import {
  authenticate,
  AuthRefusal,
  checkAuthPolicy,
  requirementsFor,
  type AuthPolicy,
  type AuthTarget,
  type SchemeOutcomes
} from "../auth/authenticate.ts"
import { challengeFor, joinChallenges } from "../auth/challenge.ts"
import type { Authenticator } from "../auth/authenticator.ts"
import { anonymous, type Principal } from "../auth/principal.ts"
import { refusalResponse } from "../auth/refusal-response.ts"
import { requestUrl } from "./request-url.ts"

const extendedCardMethod = "agent/getAuthenticatedExtendedCard"

/** How a server authenticates callers. */
export interface AuthenticationOptions {
  /** One authenticator per scheme name of the card's `securitySchemes`. */
  readonly authenticators: Readonly<Record<string, Authenticator>>
  /** Decides whether an authenticated principal may call `method`; refusing answers 403. */
  readonly authorize?: AuthPolicy["authorize"]
  /** The realm named in `WWW-Authenticate` challenges. Default `a2a`. */
  readonly realm?: string
  /**
   * The TLS client certificate of a request, for mutual TLS. Hosts that terminate TLS provide
   * it (the Node adapter exports `nodeClientCertificate`).
   */
  readonly clientCertificate?: (request: HttpServerRequest.HttpServerRequest) => PeerCertificateInfo | undefined
}

/** What a request targets, for per-skill requirements and the authorization hook. */
export interface RequestTarget extends AuthTarget {
  /** The JSON-RPC id to echo in a refusal, when the envelope could be read. */
  readonly id?: string | number | null
  /** The binding the refusal is written for. */
  readonly binding?: "jsonrpc" | "rest"
  /** The protocol version the refusal is written for (default 0.3). */
  readonly version?: "0.3" | "1.0"
}

/**
 * Resolves the principal of a request, or the HTTP answer that refuses it. Call `beforeBody` first on a
 * request whose body is to be read; the full resolution (with the method and skill the body names) then
 * reuses what each authenticator said.
 */
export interface PrincipalResolver {
  (request: HttpServerRequest.HttpServerRequest, target: RequestTarget): Effect.Effect<Principal, HttpServerResponse.HttpServerResponse>
  /**
   * Refuses, before its body is read, a request whose credentials can pass none of the card's requirements
   * (the card's own, or any skill's): what the body says can only choose among those. Authorization and the
   * extended card's rule need the method, so they wait for the full resolution.
   */
  readonly beforeBody: (
    request: HttpServerRequest.HttpServerRequest,
    target: Pick<RequestTarget, "binding" | "version">
  ) => Effect.Effect<void, HttpServerResponse.HttpServerResponse>
}

/** Called with every refusal, for the audit seam. */
export type RefusalListener = (refusal: AuthRefusal, target: RequestTarget) => Effect.Effect<void>

/**
 * The resolver for `card`. A card without `security` admits everyone as the anonymous
 * principal; a card that declares requirements needs `options` with an authenticator for each
 * scheme it names, which is checked here, at startup, not on the first request.
 */
export const makePrincipalResolver = (
  card: AgentCard,
  options: AuthenticationOptions | undefined,
  onRefusal: RefusalListener = () => Effect.void
): PrincipalResolver => {
  const declared = (card.security?.length ?? 0) > 0 || (card.skills ?? []).some((s) => (s.security?.length ?? 0) > 0)
  if (!declared) return Object.assign(() => Effect.succeed(anonymous), { beforeBody: () => Effect.void })
  if (options === undefined) {
    throw new Error("The agent card declares security requirements but the server has no `authentication` option")
  }
  const policy: AuthPolicy = {
    card,
    authenticators: options.authenticators,
    ...(options.authorize !== undefined ? { authorize: options.authorize } : {}),
    ...(options.realm !== undefined ? { realm: options.realm } : {})
  }
  const problems = checkAuthPolicy(policy)
  if (problems.length > 0) throw new Error(`Invalid authentication configuration: ${problems.join("; ")}`)

  // The facts authenticators read, and what each said, per request: built once, shared by both checks.
  const seen = new WeakMap<HttpServerRequest.HttpServerRequest, { readonly authRequest: AuthRequest; readonly outcomes: SchemeOutcomes }>()
  const factsOf = (request: HttpServerRequest.HttpServerRequest) => {
    const known = seen.get(request)
    if (known !== undefined) return known
    const certificate = options.clientCertificate?.(request)
    const facts = {
      authRequest: {
        headers: new Headers(request.headers as Record<string, string>),
        url: requestUrl(request.url),
        ...(certificate !== undefined ? { clientCertificate: certificate } : {})
      },
      outcomes: new Map() as SchemeOutcomes
    }
    seen.set(request, facts)
    return facts
  }
  const refusalAnswer = (target: RequestTarget) => (refusal: AuthRefusal) =>
    HttpServerResponse.fromWeb(refusalResponse(refusal, target.id ?? null, { binding: target.binding ?? "jsonrpc", version: target.version ?? "0.3" }))

  // Before the body: every target's requirements at once (the card's, each skill's); what passes one of
  // them may go on. A target that requires nothing admits anyone, and then so does this check.
  const targets = [undefined, ...card.skills.map((s) => s.id)].map((skill) => requirementsFor(card, skill))
  // Each alternative once: skills without their own security repeat the card's.
  const alternatives = [...new Map(targets.flat().map((r) => [JSON.stringify(Object.entries(r)), r])).values()]
  const gate: AuthPolicy | undefined = targets.some((r) => r.length === 0)
    ? undefined
    : {
      card: { security: alternatives, ...(card.securitySchemes === undefined ? {} : { securitySchemes: card.securitySchemes }), skills: [] },
      authenticators: options.authenticators,
      ...(options.realm !== undefined ? { realm: options.realm } : {})
    }
  const { authorize: _authorize, ...cardPolicy } = policy
  const beforeBody = (request: HttpServerRequest.HttpServerRequest, target: Pick<RequestTarget, "binding" | "version">) => {
    if (gate === undefined) return Effect.void
    const { authRequest, outcomes } = factsOf(request)
    return authenticate(gate, authRequest, {}, outcomes).pipe(
      Effect.asVoid,
      // Refused for every target: answered as for the card's own requirements (their challenge, not every
      // skill's scopes), which fail too. The authenticators' answers are reused, not asked again.
      Effect.catch(() => Effect.asVoid(authenticate(cardPolicy, authRequest, {}, outcomes))),
      Effect.tapError((refusal) => onRefusal(refusal, target)),
      Effect.mapError(refusalAnswer(target))
    )
  }

  const resolve = (request: HttpServerRequest.HttpServerRequest, target: RequestTarget) => {
    const { authRequest, outcomes } = factsOf(request)
    const authTarget: AuthTarget = {
      ...(target.method !== undefined ? { method: target.method } : {}),
      ...(target.skill !== undefined ? { skill: target.skill } : {})
    }
    return authenticate(policy, authRequest, authTarget, outcomes).pipe(
      Effect.filterOrFail(
        // The extended card is for authenticated callers only, even where the card makes credentials optional.
        (principal) => !(target.method === extendedCardMethod && principal === anonymous),
        () => new AuthRefusal({
          status: 401,
          reason: "missing_credentials",
          message: "The extended agent card is served to authenticated callers only",
          schemes: Object.keys(card.securitySchemes ?? {}),
          challenge: joinChallenges(Object.values(card.securitySchemes ?? {}).map((scheme) =>
            challengeFor(scheme, { realm: options.realm ?? "a2a" })))
        })
      ),
      Effect.tapError((refusal) => onRefusal(refusal, target)),
      Effect.mapError(refusalAnswer(target))
    )
  }
  return Object.assign(resolve, { beforeBody })
}

const own = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined

/**
 * The skill a message asks for through `metadata.skill`, if it names one of the card's skills. Give it the
 * decoded params, the value the agent will see; only own members count, never inherited ones.
 */
export const requestedSkill = (card: AgentCard, params: unknown): string | undefined => {
  const skill = own(own(own(params, "message"), "metadata"), "skill")
  return typeof skill === "string" && card.skills.some((s) => s.id === skill) ? skill : undefined
}
