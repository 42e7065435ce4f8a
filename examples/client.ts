// examples/client.ts — the Promise client against the demo agent: send, stream, a multi-turn task.
import { createA2AClient, userText } from "../src/client/index.ts"
import { serveNode } from "../src/adapters/node.ts"
import { A2AServer } from "../src/index.ts"
import { demoAgent } from "./agents/demo.ts"

const listening = await serveNode(await A2AServer.make(demoAgent))
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
