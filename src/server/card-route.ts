/**
 * The published agent card.
 *
 * The card a user writes may leave out what the server knows better: the protocol version, the
 * endpoint URL and the transports. Those are filled in here, from `publicUrl` when configured or
 * else from the origin the request came to, so a server on an ephemeral port still publishes a
 * card that points at itself.
 */
import type { AgentCard } from "../../schemas/index.ts"
import type { ResolvedServerOptions } from "./options.ts"

/** The well-known card paths: the current one first, then the legacy one. */
export const cardPaths = ["/.well-known/agent-card.json", "/.well-known/agent.json"] as const

/** The card as served at `base` (scheme, host, port and optional prefix, no trailing slash). */
export const publishCard = (card: AgentCard, base: string, options: ResolvedServerOptions): AgentCard => {
  const url = card.url !== "" ? card.url : `${base}${options.rpcPath === "/" ? "/" : options.rpcPath}`
  const interfaces = card.additionalInterfaces ?? [{ url, transport: "JSONRPC" }]
  return {
    ...card,
    protocolVersion: "0.3.0",
    url,
    preferredTransport: card.preferredTransport ?? "JSONRPC",
    additionalInterfaces: interfaces
  }
}

/** The base URL of a request: the configured public URL, or the request's own origin. */
export const baseUrlOf = (requestUrl: string, host: string | undefined, options: ResolvedServerOptions): string => {
  if (options.publicUrl !== undefined) return options.publicUrl
  if (requestUrl.startsWith("http://") || requestUrl.startsWith("https://")) return new URL(requestUrl).origin
  return `http://${host ?? "localhost"}`
}
