// examples/echo-agent.ts — an agent written with Effect, served on Node.
import { Effect } from "effect"
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"

const agent = Agent.make({
  card: {
    name: "Echo",
    description: "Streams your text back, then completes",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Echoes text", tags: ["echo"] }]
  },
  execute: (ctx) =>
    Effect.gen(function* () {
      yield* ctx.working("Echoing")
      const words = messageText(ctx.message).split(" ")
      for (const [i, word] of words.entries()) {
        yield* ctx.artifact(`${word} `, { artifactId: "echo", append: i > 0, lastChunk: i === words.length - 1 })
      }
      yield* ctx.complete("Done")
    })
})

const listening = await serveNode(await A2AServer.make(agent), { port: Number(process.env["PORT"] ?? 0) })
console.log(`A2A server listening on ${listening.url}`)
process.once("SIGTERM", () => void listening.close().then(() => process.exit(0)))
