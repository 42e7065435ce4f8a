// examples/client.ts — the Promise client: send, stream, and continue a task that asks for input.
import { createA2AClient, userText } from "../src/client/index.ts"
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"

// An agent to talk to: "greet" asks for a name; any other text is streamed back word by word.
const agent = Agent.fromAsync({
  card: {
    name: "Greeter", description: "Streams your text back, or greets you", version: "1.0.0",
    capabilities: { streaming: true }, defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: []
  },
  execute: async (ctx) => {
    const text = messageText(ctx.message)
    if (text === "greet") {
      const name = await ctx.requestInput("What is your name?")
      return ctx.complete(`Hello, ${messageText(name)}!`)
    }
    await ctx.working()
    const words = text.split(" ")
    for (const [i, word] of words.entries()) {
      await ctx.artifact(i === 0 ? word : ` ${word}`, { artifactId: "echo", append: i > 0, lastChunk: i === words.length - 1 })
    }
    await ctx.complete()
  }
})

const listening = await serveNode(await A2AServer.make(agent))
const client = await createA2AClient({ url: listening.url }) // reads /.well-known/agent-card.json

// A blocking send answers once the task is finished (or waiting for input).
const task = await client.sendMessage(userText("hello from the client"))
if (task.kind === "task") console.log(`send: ${task.status.state}, artifact "${task.artifacts?.[0]?.parts.map((p) => (p.kind === "text" ? p.text : "")).join("")}"`)

// A stream yields the Task, then status and artifact updates, until the final one.
for await (const event of client.streamMessage(userText("stream these words"))) {
  console.log(`stream: ${event.kind}${event.kind === "status-update" ? ` ${event.status.state}` : ""}`)
}

// A task that asks for input is continued by sending to its taskId.
const asking = await client.sendMessage(userText("greet"))
if (asking.kind === "task") {
  console.log(`greet: ${asking.status.state}`)
  const done = await client.sendMessage(userText("Ada", { taskId: asking.id }))
  if (done.kind === "task") console.log(`greet: ${done.status.state}, "${done.status.message?.parts[0]?.kind === "text" ? done.status.message.parts[0].text : ""}"`)
}

await listening.close()
