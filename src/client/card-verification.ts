/**
 * Agent card signatures checked by the client: the card is verified exactly as it arrived (the
 * parsed JSON, before schema decoding drops members the schema does not know, which the signature
 * also covers), against keys the caller trusts, and only then decoded.
 *
 * @example
 * ```ts
 * const { card } = yield* discoverVerifiedCard("https://agent.example", { keys: publishedJwks })
 * const client = yield* A2AClient.make({ card })
 * ```
 *
 * @module
 */
import { Effect, Schema } from "effect"
import type { JSONWebKeySet } from "jose"
import { AgentCard } from "../../schemas/agent-card.ts"
import type { InvalidAgentResponse } from "../../schemas/error-catalogue.ts"
import {
  CardVerificationError,
  jwksKeyResolver,
  verifyCard,
  type CardKeyResolver,
  type VerifiedCardSignature
} from "../card/verify-card.ts"
import { cardCandidates } from "./discovery.ts"
import { A2AClientTransportError, excerpt, invalidAnswer } from "./errors.ts"

export { CardVerificationError } from "../card/verify-card.ts"

/** Which keys vouch for an agent's card. */
export interface CardVerificationOptions {
  /**
   * The signer's public keys: a JWKS held in memory, the URL of a JWKS you trust (never the card's
   * own `jku`: a card must not pick the key that vouches for it), or your own resolver.
   */
  readonly keys: JSONWebKeySet | URL | CardKeyResolver
  /** Refuse unsigned cards. Default true; with false an unsigned card passes, a signed one must verify. */
  readonly required?: boolean
  /** Accepted JWS algorithms; default the asymmetric ones. */
  readonly algorithms?: ReadonlyArray<string>
  /** The fetch for a JWKS URL and for discovery; default the global one. */
  readonly fetch?: typeof globalThis.fetch
}

/** A decoded card with the signatures that verified (empty when unsigned and not `required`). */
export interface VerifiedAgentCard {
  readonly card: AgentCard
  readonly signatures: ReadonlyArray<VerifiedCardSignature>
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const resolverOf = (options: CardVerificationOptions): CardKeyResolver =>
  typeof options.keys === "function"
    ? options.keys
    : jwksKeyResolver(options.keys, options.fetch === undefined ? {} : { fetch: options.fetch })

/**
 * Verifies a card as received (`raw`: the parsed JSON) and decodes it. A card that is not an
 * A2A card is `InvalidAgentResponse`; a signature problem is {@link CardVerificationError}.
 */
export const verifyAgentCard = (
  raw: unknown,
  options: CardVerificationOptions,
  where = "agent card"
): Effect.Effect<VerifiedAgentCard, CardVerificationError | InvalidAgentResponse> =>
  Effect.gen(function* () {
    if (!isRecord(raw)) {
      return yield* invalidAnswer("WrongShape", `${where} is not a JSON object`, { url: where })
    }
    const unsigned = raw["signatures"] === undefined || (Array.isArray(raw["signatures"]) && raw["signatures"].length === 0)
    const signatures = unsigned && options.required === false
      ? []
      : yield* verifyCard(raw, resolverOf(options), options.algorithms === undefined ? {} : { algorithms: options.algorithms })
    const card = yield* Schema.decodeUnknownEffect(AgentCard)(raw).pipe(
      Effect.mapError((e: Schema.SchemaError) =>
        invalidAnswer("WrongShape", `${where} is not a valid A2A agent card`, {
          url: where,
          detail: excerpt(e.message, 400)
        }))
    )
    return { card, signatures }
  })

/** {@link verifyAgentCard} on the card's text as it came over the wire. */
export const verifyAgentCardText = (
  text: string,
  options: CardVerificationOptions,
  where = "agent card"
): Effect.Effect<VerifiedAgentCard, CardVerificationError | InvalidAgentResponse> =>
  Effect.suspend(() => {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      return Effect.fail(invalidAnswer("NotJson", `${where} is not JSON`, { url: where, detail: excerpt(text) }))
    }
    return verifyAgentCard(raw, options, where)
  })

/** Options of {@link discoverVerifiedCard}. */
export interface DiscoverVerifiedCardOptions extends CardVerificationOptions {
  /** Headers for the card requests. */
  readonly headers?: Readonly<Record<string, string>>
  /** Deadline of each card request, body included. Default 30 s. */
  readonly timeoutMs?: number
  /** Largest card accepted. Default 1 MiB. */
  readonly maxBytes?: number
}

type Fetched =
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Text"; readonly text: string }

const fetchText = (url: string, options: DiscoverVerifiedCardOptions): Effect.Effect<Fetched, A2AClientTransportError | InvalidAgentResponse> => {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxBytes = options.maxBytes ?? 1024 * 1024
  return Effect.tryPromise({
    try: async (signal): Promise<Fetched | "TooLarge"> => {
      const response = await fetchImpl(url, {
        headers: { accept: "application/json", ...options.headers },
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
      })
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel().catch(() => {})
        return { _tag: "Missing" }
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {})
        throw new A2AClientTransportError({
          reason: "HttpStatus",
          message: `${url} answered the agent card request with HTTP ${response.status}`,
          url,
          status: response.status
        })
      }
      const reader = response.body?.getReader()
      const chunks: Array<Uint8Array> = []
      let size = 0
      for (;;) {
        const next = reader === undefined ? { done: true as const, value: undefined } : await reader.read()
        if (next.done) break
        size += next.value.byteLength
        if (size > maxBytes) {
          await reader?.cancel().catch(() => {})
          return "TooLarge"
        }
        chunks.push(next.value)
      }
      const bytes = new Uint8Array(size)
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.byteLength
      }
      return { _tag: "Text", text: new TextDecoder().decode(bytes) }
    },
    catch: (cause) =>
      cause instanceof A2AClientTransportError
        ? cause
        : new A2AClientTransportError({
          reason: (cause as { name?: unknown } | null)?.name === "TimeoutError" ? "Timeout" : "Unreachable",
          message: `the agent card at ${url} could not be fetched`,
          url,
          cause
        })
  }).pipe(
    Effect.flatMap((fetched) =>
      fetched === "TooLarge"
        ? Effect.fail(invalidAnswer("TooLarge", `the agent card at ${url} exceeds ${maxBytes} bytes`, { url }))
        : Effect.succeed(fetched))
  )
}

/**
 * Finds an agent's card (the same candidate URLs as `A2AClient.discover`), verifies its signature
 * on the bytes received and decodes it. The first card found is final: a card that fails
 * verification is not replaced by one from a later candidate.
 */
export const discoverVerifiedCard = (
  url: string,
  options: DiscoverVerifiedCardOptions
): Effect.Effect<
  VerifiedAgentCard & { readonly cardUrl: string },
  CardVerificationError | InvalidAgentResponse | A2AClientTransportError
> =>
  Effect.gen(function* () {
    const candidates = yield* Effect.try({
      try: () => cardCandidates(url),
      catch: (cause) => new A2AClientTransportError({ reason: "Request", message: `not a valid URL: ${url}`, url, cause })
    })
    for (const candidate of candidates) {
      const fetched = yield* fetchText(candidate, options)
      if (fetched._tag === "Missing") continue
      const verified = yield* verifyAgentCardText(fetched.text, options, candidate)
      return { ...verified, cardUrl: candidate }
    }
    return yield* invalidAnswer("NoAgentCard", `no A2A agent card found at ${candidates.join(", ")}`, { url })
  })
