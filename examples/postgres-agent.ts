// examples/postgres-agent.ts — tasks in PostgreSQL: they outlive a restart, and instances on one database share them.
import { Effect } from "effect"
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"
import { postgresStore } from "../src/store/postgres/index.ts"

const agent = Agent.make({
  card: {
    name: "Notes",
    description: "Writes down what you say, one line at a time",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "note", name: "Note", description: "Keeps a note", tags: ["notes"] }]
  },
  // Safe to start over: if its instance stops mid-task, another instance runs the task again.
  retrySafe: true,
  execute: (ctx) =>
    Effect.gen(function* () {
      yield* ctx.artifact(messageText(ctx.message), { name: "note" })
      yield* ctx.complete("Noted")
    })
})

const server = await A2AServer.make(agent, {
  runtime: {
    // Opened (and its tables created or upgraded) when the server starts, closed when it stops.
    store: postgresStore({
      url: process.env["A2A_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres",
      schema: process.env["A2A_DATABASE_SCHEMA"] ?? "a2a"
    })
  }
})
const listening = await serveNode(server, { port: Number(process.env["PORT"] ?? 0) })
console.log(`A2A server listening on ${listening.url}`)
process.once("SIGTERM", () => void listening.close().then(() => process.exit(0)))
