// examples/client-versions.ts — one client for A2A 1.0 and 0.3 agents: what it picks, a pinned version, ListTasks pages.
import { createA2AClient, userText } from "../src/client/index.ts"
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"

const agent = Agent.make({
  card: {
    name: "Hello",
    description: "Greets whoever writes to it",
    version: "1.0.0",
    capabilities: {},
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "greet", name: "Greet", description: "Answers with a greeting", tags: ["demo"] }]
  },
  execute: (ctx) => ctx.complete(`Hello, ${messageText(ctx.message)}!`)
})
const listening = await serveNode(await A2AServer.make(agent), { port: 0 })

// The card lists both versions, 1.0 first: the client takes the first 1.0 interface it speaks.
const client = await createA2AClient({ url: listening.url })
const listed = client.interfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`).join(", ")
console.log(`picked: ${client.transport} ${client.protocolVersion} (the card lists ${listed})`)

// Pinned to 0.3: the same calls give the same results, in the same types.
const pinned = await createA2AClient({ url: listening.url }, { protocolVersion: "0.3" })
for (const c of [client, pinned]) {
  const result = await c.sendMessage(userText("Ada"))
  const reply = result.kind === "task" ? result.status.message?.parts[0] : undefined
  console.log(`${c.protocolVersion}: ${result.kind} ${result.kind === "task" ? result.status.state : ""}, "${reply?.kind === "text" ? reply.text : ""}"`)
}

// ListTasks (A2A 1.0): your tasks, newest first, one page at a time until nextPageToken is "".
for (const name of ["Grace", "Alan", "Edsger"]) await client.sendMessage(userText(name))
let pageToken = ""
for (let page = 1; page === 1 || pageToken !== ""; page++) {
  const result = await client.listTasks({ pageSize: 2, ...(pageToken === "" ? {} : { pageToken }) })
  console.log(`page ${page}: ${result.tasks.length} of ${result.totalSize} tasks`)
  pageToken = result.nextPageToken
}

// A2A 0.3 has no ListTasks: the call fails without a request.
await pinned.listTasks().catch((e: { _tag: string }) => console.log(`0.3 listTasks: ${e._tag}`))

await listening.close()
