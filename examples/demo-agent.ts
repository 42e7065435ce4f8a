/**
 * `PORT=<n> npm start`: the demo agent on Node (default port 41241). With `A2A_DATABASE_URL` its tasks live
 * in PostgreSQL (see store-from-env.ts) and survive a restart; without it, in memory.
 */
import { serveNode } from "../src/adapters/node.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { demoAgent } from "./agents/demo.ts"
import { runtimeFromEnv } from "./store-from-env.ts"

const listening = await serveNode(await A2AServer.make(demoAgent, { runtime: runtimeFromEnv() }), {
  port: Number(process.env["PORT"] ?? 41241),
  host: process.env["HOST"] ?? "127.0.0.1"
})
process.stdout.write(`Demo agent card: ${listening.url}/.well-known/agent-card.json\n`)
const stop = () => void listening.close({ graceMs: 1_000 }).then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
