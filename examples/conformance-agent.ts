/**
 * `PORT=<n> npm run start:conformance`: the conformance agent on Node (default port 41242), serving A2A 0.3
 * and 1.0. It behaves like the official kits' reference agents: see `agents/conformance.ts`.
 *
 * Both kits read the card without an `A2A-Version` header, and the 1.0 kit refuses 0.3's members in it:
 * `A2A_CARD_VERSION=1.0` (or `0.3`) says which card such requests get; without it, the server's default
 * (0.3, the spec's reading of a header-less request).
 */
import { nodeDnsResolver, serveNode } from "../src/adapters/node.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { conformanceAgent } from "./agents/conformance.ts"

// Push is declared on the card, so webhooks go through the guard with the system resolver (public
// addresses only; PUSH_ALLOW=<cidr,...> admits others, e.g. a kit's receiver on 127.0.0.1).
const cardVersion = process.env["A2A_CARD_VERSION"]
if (cardVersion !== undefined && cardVersion !== "0.3" && cardVersion !== "1.0") {
  throw new Error(`A2A_CARD_VERSION must be 0.3 or 1.0, got ${JSON.stringify(cardVersion)}`)
}
const server = await A2AServer.make(conformanceAgent, {
  ...(cardVersion === undefined ? {} : { cardVersion }),
  push: { resolveDns: nodeDnsResolver, allow: (process.env["PUSH_ALLOW"] ?? "").split(",").filter(Boolean) }
})
const listening = await serveNode(server, {
  port: Number(process.env["PORT"] ?? 41242),
  host: process.env["HOST"] ?? "127.0.0.1"
})
process.stdout.write(`Conformance agent card: ${listening.url}/.well-known/agent-card.json\n`)
const stop = () => void listening.close({ graceMs: 0 }).then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
