// examples/secured-agent.ts — an API-key protected agent with an audit trail and a signed card.
import { createServer, type AddressInfo } from "node:net"
import { Effect } from "effect"
import { authHeader, createA2AClient, discoverVerifiedCard, userText } from "../src/client/index.ts"
import { serveNode } from "../src/adapters/node.ts"
import { A2AServer, Agent, apiKeyAuthenticator, jsonLinesSink } from "../src/index.ts"

const agent = Agent.make({
  card: {
    name: "Vault", description: "Answers only to key holders", version: "1.0.0",
    capabilities: { streaming: true }, defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: [],
    // Declared only because it is enforced: every request needs an X-API-Key header.
    securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
    security: [{ partnerKey: [] }]
  },
  execute: (ctx) => ctx.complete(`Hello, ${ctx.principal.id}`)
})

const audit: Array<string> = []
const signingKey = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])
// A signed card names the configured public URL (never the request's Host), so the port is chosen first.
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as AddressInfo
    probe.close(() => resolve(port))
  })
})
const server = await A2AServer.make(agent, {
  publicUrl: `http://127.0.0.1:${port}`,
  authentication: { authenticators: { partnerKey: apiKeyAuthenticator({ keys: { "key-123": { id: "partner-a" } } }) } },
  audit: { sink: await Effect.runPromise(jsonLinesSink({ write: async (line) => { audit.push(line) } })), required: true },
  cardSigning: { key: signingKey.privateKey, kid: "card-2026", alg: "ES256" }
})
const listening = await serveNode(server, { port })

// The card verifies against the key its publisher shares out of band.
const publicJwk = { ...(await crypto.subtle.exportKey("jwk", signingKey.publicKey)), kid: "card-2026" }
const { card } = await Effect.runPromise(discoverVerifiedCard(listening.url, { keys: { keys: [publicJwk] } }))
console.log(`card verified: ${card.name}, signed by ${card.signatures?.[0] ? "card-2026" : "nobody"}`)

// Without the key: 401 before any task exists, with a challenge naming the scheme.
const refused = await fetch(`${listening.url}/`, {
  method: "POST", headers: { "content-type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: userText("hi") })
})
console.log(`without key: ${refused.status} ${refused.headers.get("www-authenticate")}`)

// With the key, through the client's auth interceptor.
const client = await createA2AClient({ card }, { interceptors: [authHeader({ header: "X-API-Key", scheme: "", token: "key-123" })] })
const task = await client.sendMessage(userText("hi"))
if (task.kind === "task") console.log(`with key: ${task.status.state}, "${task.status.message?.parts[0]?.kind === "text" ? task.status.message.parts[0].text : ""}"`)

await listening.close()
console.log(`audit: ${audit.map((line) => JSON.parse(line).kind).join(", ")}`)
