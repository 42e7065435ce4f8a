// examples/async-agent.ts — the same kind of agent with plain async functions, no Effect needed.
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"

const agent = Agent.fromAsync({
  card: {
    name: "Shouter",
    description: "Asks for confirmation, then shouts your text",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "shout", name: "Shout", description: "Upper-cases text", tags: ["text"] }]
  },
  execute: async (ctx) => {
    // A resumed run (the one that asked was lost with its server) gets the answer as its message.
    const text = messageText(ctx.resumed ? ctx.history[0]! : ctx.message)
    const answer = ctx.resumed ? ctx.message : await ctx.requestInput(`Shout "${text}"? (yes/no)`)
    if (messageText(answer).trim().toLowerCase() !== "yes") return ctx.reject("Not shouting")
    // ctx.signal aborts when the task is canceled: pass it to fetch and friends.
    await ctx.artifact(text.toUpperCase(), { name: "shout" })
    await ctx.complete()
  }
})

const listening = await serveNode(await A2AServer.make(agent), { port: Number(process.env["PORT"] ?? 0) })
console.log(`A2A server listening on ${listening.url}`)
process.once("SIGTERM", () => void listening.close().then(() => process.exit(0)))
