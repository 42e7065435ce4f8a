// examples/hello-node.ts — a complete agent, on Node.
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"

const agent = Agent.fromAsync({
  card: {
    name: "Hello",
    description: "Greets whoever writes to it",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "greet", name: "Greet", description: "Answers with a greeting", tags: ["demo"] }]
  },
  execute: async (ctx) => {
    await ctx.complete(`Hello, ${messageText(ctx.message)}!`)
  }
})

const listening = await serveNode(await A2AServer.make(agent), { port: Number(process.env["PORT"] ?? 41241) })
console.log(`A2A server listening on ${listening.url}`)
// Ctrl-C (or SIGTERM) closes gracefully: open streams end, running tasks get a few seconds to finish.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void listening.close().then(() => process.exit(0)))
}
