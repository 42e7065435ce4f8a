/**
 * Agent card discovery: from a base URL or a card URL to a decoded `AgentCard`, and from the card to the
 * interface (JSON-RPC or REST) to talk to.
 *
 * @module
 */
import { Effect, Schema } from "effect"
import { AgentCard } from "../../schemas/agent-card.ts"
import type { InvalidAgentResponse } from "../../schemas/error-catalogue.ts"
import { readTextCapped } from "./body-reader.ts"
import { A2AClientTransportError, excerpt, invalidAnswer } from "./errors.ts"
import { exchange, type HttpConfig, timeoutError } from "./http.ts"
import { supportedProtocols, type TransportChoice, type TransportProtocol } from "./transport.ts"

/** The well-known card path of A2A 0.3.0. */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json"
/** The card path of earlier A2A versions, still served by many agents. */
export const LEGACY_AGENT_CARD_PATH = "/.well-known/agent.json"

/** Limits for fetching a card. */
export interface DiscoveryConfig extends HttpConfig {
  readonly timeoutMs: number
  readonly idleTimeoutMs: number
  readonly maxResponseBytes: number
}

/** A card together with where it was found. */
export interface DiscoveredCard {
  readonly card: AgentCard
  readonly cardUrl: string
}

/**
 * The URLs to try, in order. A URL whose path ends in `.json` is taken as the card itself; otherwise the
 * well-known paths are tried below the given path (agents mounted under a prefix), then at the origin root
 * where the spec puts them, the current name before the legacy one.
 */
export const cardCandidates = (url: string): ReadonlyArray<string> => {
  const parsed = new URL(url)
  if (parsed.pathname.endsWith(".json")) return [parsed.href]
  const bases = new Set<string>()
  const path = parsed.pathname.replace(/\/+$/, "")
  if (path !== "") bases.add(`${parsed.origin}${path}`)
  bases.add(parsed.origin)
  return [...bases].flatMap((base) => [`${base}${AGENT_CARD_PATH}`, `${base}${LEGACY_AGENT_CARD_PATH}`])
}

type Attempt =
  | { readonly _tag: "Found"; readonly card: AgentCard }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Invalid"; readonly error: InvalidAgentResponse }

const fetchCandidate = (config: DiscoveryConfig, url: string): Effect.Effect<Attempt, A2AClientTransportError | InvalidAgentResponse> =>
  Effect.scoped(
    Effect.gen(function*() {
      const response = yield* exchange(config, { url, method: "GET", operation: "agent/card", accept: "application/json" })
      if (response.status === 404 || response.status === 410) return { _tag: "Missing" } as const
      const text = yield* readTextCapped(response, {
        url,
        idleTimeoutMs: config.idleTimeoutMs,
        maxBytes: config.maxResponseBytes
      })
      if (!response.ok) {
        return yield* new A2AClientTransportError({
          reason: "HttpStatus",
          message: `${url} answered the agent card request with HTTP ${response.status}`,
          url,
          status: response.status
        })
      }
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        return {
          _tag: "Invalid",
          error: invalidAnswer("NotJson", `${url} is not an A2A agent card: the answer is not JSON`, { url, detail: excerpt(text) })
        } as const
      }
      return yield* Schema.decodeUnknownEffect(AgentCard)(json).pipe(
        Effect.map((card): Attempt => ({ _tag: "Found", card })),
        Effect.catch((e: Schema.SchemaError) =>
          Effect.succeed<Attempt>({
            _tag: "Invalid",
            error: invalidAnswer("WrongShape", `${url} is not a valid A2A agent card`, {
              url,
              detail: excerpt(e.message, 400)
            })
          })
        )
      )
    })
  ).pipe(Effect.timeoutOrElse({ duration: config.timeoutMs, orElse: () => Effect.fail(timeoutError(url, "agent/card", config.timeoutMs)) }))

/**
 * Finds and decodes the agent card. Unreachable hosts and server errors stop the search at once; a
 * missing card moves on to the next candidate; when no candidate holds a valid card the first invalid
 * answer is reported, or `NoAgentCard` listing every URL tried.
 */
export const discoverCard = (
  config: DiscoveryConfig,
  url: string
): Effect.Effect<DiscoveredCard, A2AClientTransportError | InvalidAgentResponse> =>
  Effect.gen(function*() {
    const candidates = yield* Effect.try({
      try: () => cardCandidates(url),
      catch: (cause) =>
        new A2AClientTransportError({ reason: "Request", message: `not a valid URL: ${url}`, url, cause })
    })
    let firstInvalid: InvalidAgentResponse | undefined
    for (const candidate of candidates) {
      const attempt = yield* fetchCandidate(config, candidate)
      if (attempt._tag === "Found") return { card: attempt.card, cardUrl: candidate }
      if (attempt._tag === "Invalid") firstInvalid ??= attempt.error
    }
    return yield* Effect.fail(
      firstInvalid ??
        invalidAnswer("NoAgentCard", `no A2A agent card found at ${candidates.join(", ")}`, { url })
    )
  })

/** The interface a client talks to: its binding and its URL (as the card has it, possibly relative). */
export interface ChosenInterface {
  readonly transport: TransportProtocol
  readonly url: string
}

/**
 * The interface to use. `auto` takes the card's `preferredTransport` (at the card's `url`) when this client
 * speaks it, else the first entry of `additionalInterfaces` it speaks; a named binding takes the first
 * interface of that binding, the preferred one first. Transport names compare case-insensitively.
 */
export const selectInterface = (card: AgentCard, choice: TransportChoice): Effect.Effect<ChosenInterface, A2AClientTransportError> => {
  const offered = [{ url: card.url, transport: card.preferredTransport ?? "JSONRPC" }, ...(card.additionalInterfaces ?? [])]
  const wanted: ReadonlyArray<string> = choice === "auto" ? supportedProtocols : [choice]
  const found = offered.find((i) => wanted.includes(i.transport.toUpperCase()))
  if (found !== undefined) return Effect.succeed({ transport: found.transport.toUpperCase() as TransportProtocol, url: found.url })
  const names = offered.map((i) => i.transport).join(", ")
  return Effect.fail(
    new A2AClientTransportError({
      reason: choice === "HTTP+JSON" ? "NoRestInterface" : "NoJsonRpcInterface",
      message: choice === "auto"
        ? `agent ${card.name} offers no interface this client speaks (${supportedProtocols.join(", ")}); it offers ${names}`
        : `agent ${card.name} offers no ${choice} interface (it offers ${names})`,
      url: card.url
    })
  )
}

/**
 * The JSON-RPC URL of an agent: the card's `url` when its preferred transport is JSON-RPC (the default),
 * otherwise the first JSON-RPC entry of `additionalInterfaces`.
 */
export const jsonRpcEndpoint = (card: AgentCard): Effect.Effect<string, A2AClientTransportError> =>
  Effect.map(selectInterface(card, "JSONRPC"), (i) => i.url)
