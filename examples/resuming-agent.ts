// examples/resuming-agent.ts — an agent that asks a question and finishes wherever the answer arrives: after a restart, or on another instance.
import { Effect } from "effect"
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"
import { postgresOptionsFromEnv, postgresStore } from "../src/store/postgres/index.ts"

/** What the first run works out and a later run needs: kept with the task, never shown to the client. */
interface Booking {
  readonly what: string
  readonly reference: string
}

const agent = Agent.make({
  card: {
    name: "Bookings",
    description: "Books what you ask for, once you say for how many",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "book", name: "Book", description: "Books a table, a room, a trip", tags: ["booking"] }]
  },
  execute: (ctx) =>
    Effect.gen(function* () {
      // A resumed run has no memory of the run that asked: it reads what that run saved, and its
      // message is the answer. A first run saves what it works out before it asks.
      const booking = ctx.resumed ? (ctx.saved as Booking) : { what: messageText(ctx.message), reference: crypto.randomUUID().slice(0, 8) }
      if (!ctx.resumed) yield* ctx.save(booking)
      const answer = ctx.resumed ? ctx.message : yield* ctx.requestInput(`For how many people is "${booking.what}"?`)
      yield* ctx.complete(`Booked "${booking.what}" for ${messageText(answer).trim()} (reference ${booking.reference})`)
    })
})

const server = await A2AServer.make(agent, {
  runtime: { store: postgresStore(postgresOptionsFromEnv(process.env) ?? { url: "postgres://postgres@127.0.0.1:5432/postgres" }) }
})
const listening = await serveNode(server, { port: Number(process.env["PORT"] ?? 0) })
console.log(`A2A server listening on ${listening.url}`)
// A graceful stop leaves a task waiting for its answer to the next server on the same database.
process.once("SIGTERM", () => void listening.close().then(() => process.exit(0)))
