import type { AgentCard } from "../../schemas/index.ts"

/**
 * A card as an agent author writes it: `protocolVersion` defaults to "0.3.0" and `url` to "" (the server
 * publishes the card with the URL it is served at).
 */
export type AgentCardInput = Omit<AgentCard, "protocolVersion" | "url"> & {
  readonly protocolVersion?: string
  readonly url?: string
}

/** The full card of a card input. */
export const completeCard = (card: AgentCardInput): AgentCard => ({
  ...card,
  protocolVersion: card.protocolVersion ?? "0.3.0",
  url: card.url ?? ""
})
