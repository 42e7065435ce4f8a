/**
 * Embedding in Deno: `npx deno run --allow-net --allow-env examples/deno-server.ts` (PORT, HOST
 * and AGENT=demo|conformance from the environment).
 */
import { denoDnsResolver, serveDeno } from "../src/adapters/deno.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { pickAgent } from "./agents/pick.ts"

const server = await A2AServer.make(pickAgent(process.env["AGENT"]), {
  push: { resolveDns: denoDnsResolver, allow: (process.env["PUSH_ALLOW"] ?? "").split(",").filter(Boolean) }
})
const listening = await serveDeno(server, {
  port: Number(process.env["PORT"] ?? 0),
  host: process.env["HOST"] ?? "127.0.0.1"
})
console.log(`A2A server listening on ${listening.url}`)
process.once("SIGTERM", () => void listening.close().then(() => process.exit(0)))
