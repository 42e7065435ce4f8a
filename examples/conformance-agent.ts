/**
 * `PORT=<n> npm run start:conformance`: the conformance agent on Node (default port 41242).
 */
import { serveNode } from "../src/adapters/node.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { conformanceAgent } from "./agents/conformance.ts"

const listening = await serveNode(await A2AServer.make(conformanceAgent), {
  port: Number(process.env["PORT"] ?? 41242),
  host: process.env["HOST"] ?? "127.0.0.1"
})
process.stdout.write(`Conformance agent card: ${listening.url}/.well-known/agent-card.json\n`)
const stop = () => void listening.close({ graceMs: 0 }).then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
