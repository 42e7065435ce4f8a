/**
 * Agent card discovery: from a base URL or a card URL to a decoded card, in either version (a 1.0 card
 * becomes the model's card through `cardFromV1`), with the interfaces it lists and the version of each;
 * and from those interfaces to the one to talk to (its binding, URL, version and tenant).
 *
 * @module
 */
import { Effect, Result, Schema } from "effect"
import { AgentCard } from "../../schemas/agent-card.ts"
import type { InvalidAgentResponse } from "../../schemas/error-catalogue.ts"
import { AgentInterface as V1AgentInterface } from "../../schemas/v1/agent-card.ts"
import { cardFromV1 } from "../../schemas/v1/card.ts"
import { decodeV1Response } from "../../schemas/v1/decode.ts"
import { readTextCapped } from "./body-reader.ts"
import { A2AClientTransportError, excerpt, invalidAnswer } from "./errors.ts"
import { exchange, type HttpConfig, timeoutError } from "./http.ts"
import { type ProtocolVersion, supportedProtocols, type TransportChoice, type TransportProtocol, type VersionChoice } from "./transport.ts"

/** The well-known card path of A2A 0.3.0. */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json"
/** The card path of earlier A2A versions, still served by many agents. */
export const LEGACY_AGENT_CARD_PATH = "/.well-known/agent.json"

/** Limits for fetching a card. */
export interface DiscoveryConfig extends HttpConfig {
  readonly timeoutMs: number
  readonly idleTimeoutMs: number
  readonly maxResponseBytes: number
  /** The version the card is asked for in (`A2A-Version`); default 1.0, which 0.3-only agents ignore. */
  readonly cardVersion?: ProtocolVersion
}

/**
 * One interface an agent's card lists: a binding at a URL, for one A2A version (`"1.0"`, `"0.3"`), under a
 * tenant when it names one. A 1.0 card lists them in `supportedInterfaces`; a 0.3 card's `url`,
 * `preferredTransport` and `additionalInterfaces` are read as interfaces of its `protocolVersion`.
 */
export type CardInterface = V1AgentInterface

/** A card together with where it was found and the interfaces it lists, the preferred first. */
export interface DiscoveredCard {
  readonly card: AgentCard
  readonly cardUrl: string
  readonly interfaces: ReadonlyArray<CardInterface>
}

const decodeInterfaces = Schema.decodeUnknownResult(Schema.Array(V1AgentInterface))

/**
 * The interfaces a model card lists: its `supportedInterfaces` (a 0.3 card may carry 1.0's list, which
 * names both versions) when `raw` has a valid, non-empty one; else its `url` with `preferredTransport`,
 * then `additionalInterfaces`, all of the card's `protocolVersion`.
 *
 * @example
 * ```ts
 * cardInterfaces(card) // [{ url: card.url, protocolBinding: "JSONRPC", protocolVersion: "0.3.0" }, ...]
 * ```
 */
export const cardInterfaces = (card: AgentCard, raw?: unknown): ReadonlyArray<CardInterface> => {
  const listed = typeof raw === "object" && raw !== null ? (raw as { readonly supportedInterfaces?: unknown }).supportedInterfaces : undefined
  if (listed !== undefined) {
    const decoded = decodeInterfaces(listed)
    if (Result.isSuccess(decoded) && decoded.success.length > 0) return decoded.success
  }
  const version = card.protocolVersion
  return [
    { url: card.url, protocolBinding: card.preferredTransport ?? "JSONRPC", protocolVersion: version },
    ...(card.additionalInterfaces ?? []).map((i) => ({ url: i.url, protocolBinding: i.transport, protocolVersion: version }))
  ]
}

/** True for a card written in 1.0's shape: `supportedInterfaces` and none of 0.3's required `url`, `protocolVersion`. */
const isV1Card = (json: unknown): boolean =>
  typeof json === "object" && json !== null && Array.isArray((json as Record<string, unknown>)["supportedInterfaces"]) &&
  typeof (json as Record<string, unknown>)["url"] !== "string" && typeof (json as Record<string, unknown>)["protocolVersion"] !== "string"

/**
 * A parsed card document in either version as the model's card and its interfaces; the schema's refusal when
 * it is neither a valid 1.0 card nor a valid 0.3 one.
 */
export const readCard = (json: unknown): Result.Result<{ readonly card: AgentCard; readonly interfaces: ReadonlyArray<CardInterface> }, Schema.SchemaError> => {
  if (isV1Card(json)) return Result.map(decodeV1Response.card(json), (v1) => ({ card: cardFromV1(v1), interfaces: v1.supportedInterfaces }))
  return Result.map(Schema.decodeUnknownResult(AgentCard)(json), (card) => ({ card, interfaces: cardInterfaces(card, json) }))
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
  | { readonly _tag: "Found"; readonly card: AgentCard; readonly interfaces: ReadonlyArray<CardInterface> }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Invalid"; readonly error: InvalidAgentResponse }

const fetchCandidate = (config: DiscoveryConfig, url: string): Effect.Effect<Attempt, A2AClientTransportError | InvalidAgentResponse> =>
  Effect.scoped(
    Effect.gen(function*() {
      const response = yield* exchange(config, { url, method: "GET", operation: "agent/card", accept: "application/json", version: config.cardVersion ?? "1.0" })
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
      const read = readCard(json)
      if (Result.isSuccess(read)) return { _tag: "Found", ...read.success } as const
      return {
        _tag: "Invalid",
        error: invalidAnswer("WrongShape", `${url} is not a valid A2A agent card`, { url, detail: excerpt(read.failure.message, 400) })
      } as const
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
      if (attempt._tag === "Found") return { card: attempt.card, cardUrl: candidate, interfaces: attempt.interfaces }
      if (attempt._tag === "Invalid") firstInvalid ??= attempt.error
    }
    return yield* Effect.fail(
      firstInvalid ??
        invalidAnswer("NoAgentCard", `no A2A agent card found at ${candidates.join(", ")}`, { url })
    )
  })

/** The interface a client talks to: its binding, URL (as the card has it, possibly relative), version and tenant. */
export interface ChosenInterface {
  readonly transport: TransportProtocol
  readonly url: string
  readonly version: ProtocolVersion
  readonly tenant?: string
}

/**
 * The version of this client's that speaks an interface's `protocolVersion`: 1.0 for `1.x`, 0.3 for `0.x`
 * (0.3 clients talk to every 0.x agent); none for any other.
 */
export const spokenVersion = (protocolVersion: string): ProtocolVersion | undefined =>
  /^1(\.\d+){0,2}$/.test(protocolVersion.trim()) ? "1.0" : /^0(\.\d+){0,2}$/.test(protocolVersion.trim()) ? "0.3" : undefined

/** Which interface to pick: a binding (or `auto`) and a version (or `auto`). */
export interface InterfaceChoice {
  readonly transport: TransportChoice
  readonly version: VersionChoice
}

const describe = (i: CardInterface) => `${i.protocolBinding} ${i.protocolVersion}`

/**
 * The interface to use, among those a card lists (preferred first): with `version: "auto"`, the first 1.0
 * interface of a binding this client speaks (or of the binding asked for), else the first 0.3 one; with a
 * version, the first of that version. Binding names compare case-insensitively. None: undefined.
 */
export const pickInterface = (interfaces: ReadonlyArray<CardInterface>, choice: InterfaceChoice): ChosenInterface | undefined => {
  const bindings: ReadonlyArray<string> = choice.transport === "auto" ? supportedProtocols : [choice.transport]
  const usable = interfaces.flatMap((i) => {
    const binding = i.protocolBinding.toUpperCase()
    const version = spokenVersion(i.protocolVersion)
    if (!bindings.includes(binding) || version === undefined) return []
    const chosen: ChosenInterface = { transport: binding as TransportProtocol, url: i.url, version }
    return [i.tenant === undefined || i.tenant === "" ? chosen : { ...chosen, tenant: i.tenant }]
  })
  return choice.version === "auto" ? usable.find((i) => i.version === "1.0") ?? usable[0] : usable.find((i) => i.version === choice.version)
}

/** {@link pickInterface}, failing with what the card offers when it offers nothing usable. */
export const selectInterface = (
  card: AgentCard,
  interfaces: ReadonlyArray<CardInterface>,
  choice: InterfaceChoice
): Effect.Effect<ChosenInterface, A2AClientTransportError> => {
  const found = pickInterface(interfaces, choice)
  if (found !== undefined) return Effect.succeed(found)
  const bindings: ReadonlyArray<string> = choice.transport === "auto" ? supportedProtocols : [choice.transport]
  const names = interfaces.map(describe).join(", ")
  const binding = choice.transport === "auto" ? supportedProtocols.join(" or ") : choice.transport
  const ofBinding = interfaces.some((i) => bindings.includes(i.protocolBinding.toUpperCase()))
  return Effect.fail(
    new A2AClientTransportError({
      reason: ofBinding && choice.version !== "auto"
        ? "NoVersionInterface"
        : choice.transport === "HTTP+JSON" ? "NoRestInterface" : "NoJsonRpcInterface",
      message: choice.version === "auto"
        ? `agent ${card.name} offers no ${binding} interface of an A2A version this client speaks (1.0, 0.3); it offers ${names}`
        : `agent ${card.name} offers no ${binding} interface of A2A ${choice.version} (it offers ${names})`,
      url: card.url
    })
  )
}
