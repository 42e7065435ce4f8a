/**
 * `PORT=<n> npm run start:conformance`: the conformance agent on Node (default port 41242). It
 * behaves like the official TCK's reference agent: see `agents/conformance.ts`.
 */
import { nodeDnsResolver, serveNode } from "../src/adapters/node.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { conformanceAgent } from "./agents/conformance.ts"

// Push is declared on the card, so webhooks go through the guard with the system resolver (public
// addresses only; PUSH_ALLOW=<cidr,...> admits others, e.g. a kit's receiver on 127.0.0.1).
const server = await A2AServer.make(conformanceAgent, {
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
