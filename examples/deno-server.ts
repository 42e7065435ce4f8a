/**
 * Embedding in Deno: `npx deno run --unstable-no-legacy-abort --allow-net --allow-env examples/deno-server.ts`
 * (PORT, HOST, PUBLIC_URL, AGENT=demo|conformance, PUSH_ALLOW, REQUEST_TIMEOUT_MS and the store settings of
 * store-from-env.ts from the environment).
 * `--unstable-no-legacy-abort` makes `request.signal` abort only when a client goes away; without it
 * Deno aborts it after every response too and warns once at start, which is harmless.
 */
import { denoDnsResolver, serveDeno } from "../src/adapters/deno.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { pickAgent } from "./agents/pick.ts"
import { runtimeFromEnv } from "./store-from-env.ts"

const server = await A2AServer.make(pickAgent(process.env["AGENT"]), {
  ...(process.env["PUBLIC_URL"] === undefined ? {} : { publicUrl: process.env["PUBLIC_URL"] }),
  push: { resolveDns: denoDnsResolver, allow: (process.env["PUSH_ALLOW"] ?? "").split(",").filter(Boolean) },
  runtime: runtimeFromEnv()
})
const listening = await serveDeno(server, {
  port: Number(process.env["PORT"] ?? 0),
  host: process.env["HOST"] ?? "127.0.0.1",
  ...(process.env["REQUEST_TIMEOUT_MS"] === undefined ? {} : { requestTimeoutMs: Number(process.env["REQUEST_TIMEOUT_MS"]) })
})
console.log(`A2A server listening on ${listening.url}`)
process.once("SIGTERM", () => void listening.close().then(() => process.exit(0)))
