// examples/both-versions.ts — one server, both protocol versions: a task sent over A2A 1.0, read back over 0.3.
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"

const agent = Agent.make({
  card: {
    name: "Hello",
    description: "Greets whoever writes to it",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "greet", name: "Greet", description: "Answers with a greeting", tags: ["demo"] }]
  },
  execute: (ctx) => ctx.complete(`Hello, ${messageText(ctx.message)}!`)
})

const listening = await serveNode(await A2AServer.make(agent), { port: 0 })

/** A JSON-RPC call; `version` goes in the A2A-Version header (none: A2A 0.3). */
const call = async (method: string, params: unknown, version?: string) => {
  const response = await fetch(`${listening.url}/`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(version === undefined ? {} : { "a2a-version": version }) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  return (await response.json()).result
}

const card = await (await fetch(`${listening.url}/.well-known/agent-card.json`, { headers: { "a2a-version": "1.0" } })).json()
console.log(`1.0 card: ${card.supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.protocolVersion}`).join(", ")}`)

const sent = await call("SendMessage", { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "Ada" }] } }, "1.0")
console.log(`1.0 SendMessage: ${sent.task.status.state}, "${sent.task.status.message.parts[0].text}"`)

const read = await call("tasks/get", { id: sent.task.id })
console.log(`0.3 tasks/get: ${read.kind} ${read.status.state}, "${read.status.message.parts[0].text}"`)

await listening.close()
