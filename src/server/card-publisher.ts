/**
 * The published agent card.
 *
 * The card a user writes may leave out what the server knows better: the protocol version, the
 * endpoint URL and the transports. Those are filled in here, from the base URL `cardBaseUrl`
 * settles on (`publicUrl`, or the listening address), so a server on an ephemeral port still
 * publishes a card that points at itself. With a signing key, each published card carries a JWS
 * signature; signing needs `publicUrl`, so a signed card never names an address a request chose.
 */
import { Effect } from "effect"
import type { AgentCard, AgentInterface } from "../../schemas/index.ts"
import { signCard, type SignCardOptions } from "../card/sign-card.ts"
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
}

/** The card as served at `base` (scheme, host, port and optional prefix, no trailing slash). */
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

/** Published (and signed) cards by base URL; a handful of bases at most, so the cache stays small. */
export const makeCardPublisher = (
  card: AgentCard,
  options: ResolvedServerOptions,
  facts: CardFacts,
  signing: CardSigning | undefined
) => {
  const cache = new Map<string, AgentCard>()
  return (base: string): Effect.Effect<AgentCard> => {
    const known = cache.get(base)
    if (known !== undefined) return Effect.succeed(known)
    const published = publishCard(card, base, options, facts)
    const signed = signing === undefined
      ? Effect.succeed(published)
      : signCard(published, signing).pipe(Effect.orDie)
    return Effect.tap(signed, (c) =>
      Effect.sync(() => {
        if (cache.size >= 16) cache.delete(cache.keys().next().value!)
        cache.set(base, c)
      }))
  }
}
