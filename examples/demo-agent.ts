/**
 * `PORT=<n> npm start`: the demo agent on Node (default port 41241).
 */
import { serveNode } from "../src/adapters/node.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { demoAgent } from "./agents/demo.ts"

const listening = await serveNode(await A2AServer.make(demoAgent), {
  port: Number(process.env["PORT"] ?? 41241),
  host: process.env["HOST"] ?? "127.0.0.1"
})
process.stdout.write(`Demo agent card: ${listening.url}/.well-known/agent-card.json\n`)
const stop = () => void listening.close({ graceMs: 1_000 }).then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
