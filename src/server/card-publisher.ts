/**
 * The published agent card, in each protocol version.
 *
 * The card a user writes may leave out what the server knows better: the protocol version, the
 * endpoint URL and the transports. Those are filled in here, from the base URL `cardBaseUrl`
 * settles on (`publicUrl`, or the listening address), so a server on an ephemeral port still
 * publishes a card that points at itself. One description, two renderings: the 0.3 card (`url`,
 * `preferredTransport`, `additionalInterfaces`), which also lists `supportedInterfaces` for 1.0
 * clients that read it, and the pure 1.0 card (`supportedInterfaces` only, 1.0 first). With a
 * signing key, each published card carries a JWS signature over its own bytes; signing needs
 * `publicUrl`, so a signed card never names an address a request chose.
 */
import { Effect } from "effect"
import type { AgentCard, AgentInterface } from "../../schemas/index.ts"
import { cardToV1 } from "../../schemas/v1/card.ts"
import type { AgentCard as V1AgentCard, AgentInterface as V1AgentInterface } from "../../schemas/v1/agent-card.ts"
import { signCard, type SignCardOptions } from "../card/sign-card.ts"
import type { ProtocolVersion } from "./negotiation.ts"
import type { ResolvedServerOptions } from "./options.ts"

/** The well-known card paths: the current one first, then the legacy one. */
export const cardPaths = ["/.well-known/agent-card.json", "/.well-known/agent.json"] as const

/** Signs every published card (RFC 8785 canonical JSON, detached JWS). */
export type CardSigning = SignCardOptions

/** What the server adds to the card besides URLs. */
export interface CardFacts {
  /** The REST binding's path prefix, when the server serves it (e.g. `/v1` routes under base `/`). */
  readonly rest: boolean
  readonly extendedCard: boolean
  /** The tenant the 1.0 interfaces name (see `A2AServerOptions.tenant`). */
  readonly tenant?: string | undefined
}

/** The card as served at `base` (scheme, host, port and optional prefix, no trailing slash), in 0.3's shape. */
export const publishCard = (card: AgentCard, base: string, options: ResolvedServerOptions, facts: CardFacts): AgentCard => {
  const url = card.url !== "" ? card.url : `${base}${options.rpcPath === "/" ? "/" : options.rpcPath}`
  const interfaces: Array<AgentInterface> = [...(card.additionalInterfaces ?? [{ url, transport: "JSONRPC" }])]
  if (facts.rest && !interfaces.some((i) => i.transport === "HTTP+JSON")) {
    interfaces.push({ url: `${base}/`, transport: "HTTP+JSON" })
  }
  return {
    ...card,
    protocolVersion: "0.3.0",
    url,
    preferredTransport: card.preferredTransport ?? "JSONRPC",
    additionalInterfaces: interfaces,
    ...(facts.extendedCard ? { supportsAuthenticatedExtendedCard: true } : {})
  }
}

/**
 * The interfaces of a published 0.3 card as 1.0 lists them: every binding this server speaks in 1.0, then
 * the same in 0.3, each version in the card's order of preference (its `preferredTransport` first).
 */
export const supportedInterfaces = (published: AgentCard, facts: CardFacts): ReadonlyArray<V1AgentInterface> => {
  const preferred = published.preferredTransport ?? "JSONRPC"
  const ordered = [...(published.additionalInterfaces ?? [])].sort((a, b) =>
    (a.transport === preferred ? 0 : 1) - (b.transport === preferred ? 0 : 1))
  const served = ordered.filter((i) => i.transport === "JSONRPC" || i.transport === "HTTP+JSON")
  const tenant = facts.tenant === undefined ? {} : { tenant: facts.tenant }
  const v1: Array<V1AgentInterface> = served.map((i) => ({ url: i.url, protocolBinding: i.transport, ...tenant, protocolVersion: "1.0" }))
  const v03: Array<V1AgentInterface> = ordered.map((i) => ({ url: i.url, protocolBinding: i.transport, protocolVersion: "0.3" }))
  return [...v1, ...v03]
}

/** The 0.3 card with its 1.0 interfaces (read by 1.0 clients that fetch a card without `A2A-Version`). */
export const publishCard03 = (published: AgentCard, facts: CardFacts): AgentCard =>
  ({ ...published, supportedInterfaces: supportedInterfaces(published, facts) }) as AgentCard

/** The pure 1.0 card of a published 0.3 card. */
export const publishCardV1 = (published: AgentCard, facts: CardFacts): V1AgentCard =>
  cardToV1(published, supportedInterfaces(published, facts))

/** A card of either version, signed when the server signs cards. */
export const renderCard = (
  published: AgentCard,
  version: ProtocolVersion,
  facts: CardFacts,
  signing: CardSigning | undefined
): Effect.Effect<AgentCard | V1AgentCard> => {
  const card = version === "1.0" ? publishCardV1(published, facts) : publishCard03(published, facts)
  return signing === undefined ? Effect.succeed(card) : signCard(card, signing).pipe(Effect.orDie)
}

/** Published (and signed) cards by base URL and version; a handful of bases at most, so the cache stays small. */
export const makeCardPublisher = (
  card: AgentCard,
  options: ResolvedServerOptions,
  facts: CardFacts,
  signing: CardSigning | undefined
) => {
  const cache = new Map<string, AgentCard | V1AgentCard>()
  return (base: string, version: ProtocolVersion = "0.3"): Effect.Effect<AgentCard | V1AgentCard> => {
    const key = `${version} ${base}`
    const known = cache.get(key)
    if (known !== undefined) return Effect.succeed(known)
    return Effect.tap(renderCard(publishCard(card, base, options, facts), version, facts, signing), (c) =>
      Effect.sync(() => {
        if (cache.size >= 32) cache.delete(cache.keys().next().value!)
        cache.set(key, c)
      }))
  }
}
