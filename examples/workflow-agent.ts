// examples/workflow-agent.ts — an XState machine as an agent, driven by replies and by an extension method.
import { Schema } from "effect"
import { assign, emit, setup } from "xstate"
import { createA2AClient, userText } from "../src/client/index.ts"
import { A2AServer, messageText, Workflow, type A2AArtifactEmitted, type Task } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"

type TripEvent =
  | { readonly type: "trip.city"; readonly city: string }
  | { readonly type: "trip.confirm" }
  | { readonly type: "trip.drop"; readonly reason: string }

// A pure machine. meta.a2a tells the task what a state means; emit() sends the task its output.
const tripMachine = setup({
  types: {
    input: {} as { traveller: string },
    context: {} as { traveller: string; city: string; reason: string },
    events: {} as TripEvent,
    emitted: {} as A2AArtifactEmitted
  }
}).createMachine({
  context: ({ input }) => ({ traveller: input.traveller, city: "", reason: "" }),
  initial: "askCity",
  on: { "trip.drop": { target: ".dropped", actions: assign({ reason: ({ event }) => event.reason }) } },
  states: {
    // input-required: the task asks the user its prompt, and the reply becomes the next event.
    askCity: {
      meta: { a2a: "input-required", prompt: "Where to?" },
      on: { "trip.city": { target: "confirm", actions: assign({ city: ({ event }) => event.city }) } }
    },
    confirm: {
      meta: { a2a: "input-required", prompt: ({ city }: { city: string }) => `Book a trip to ${city}? (yes, or another city)` },
      on: { "trip.confirm": "booked", "trip.city": { target: "confirm", actions: assign({ city: ({ event }) => event.city }) } }
    },
    // A final state ends the task: completed (the default), rejected or failed, with a message.
    booked: {
      type: "final",
      meta: { a2a: "completed", message: "Booked" },
      // An emitted a2a.artifact event becomes an artifact of the task.
      entry: emit(({ context }) => ({ type: "a2a.artifact", name: "ticket", text: `${context.traveller} to ${context.city}` }))
    },
    dropped: { type: "final", meta: { a2a: "rejected", message: ({ reason }: { reason: string }) => `Dropped: ${reason}` } }
  }
})

// An A2A extension whose method trip/drop sends an event to a waiting task's machine.
const tripExtension = Workflow.extension({
  uri: "https://example.com/ext/trip/v1",
  namespace: "trip",
  machine: tripMachine,
  description: "Drop a trip with trip/drop",
  methods: {
    drop: Workflow.method(Schema.Struct({ reason: Schema.String }), ({ reason }) => ({ type: "trip.drop", reason }))
  }
})

const agent = Workflow.toAgent({
  card: {
    name: "Trips", description: "Books a trip after asking where to", version: "1.0.0",
    capabilities: { streaming: true }, defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: []
  },
  machine: tripMachine,
  // The first message starts the machine; each reply while it waits becomes an event.
  input: (message) => ({ traveller: messageText(message) }),
  toEvent: (reply): TripEvent => {
    const text = messageText(reply).trim()
    return text === "yes" ? { type: "trip.confirm" } : { type: "trip.city", city: text }
  },
  extensions: [tripExtension]
})

const listening = await serveNode(await A2AServer.make(agent))
const client = await createA2AClient({ url: listening.url })
const prompt = (task: Task) => task.status.message?.parts.map((p) => (p.kind === "text" ? p.text : "")).join("")

const trip = (await client.sendMessage(userText("Ada"))) as Task
console.log(`${trip.status.state}: ${prompt(trip)}`)
const asked = (await client.sendMessage(userText("Lisbon", { taskId: trip.id }))) as Task
console.log(`${asked.status.state}: ${prompt(asked)}`)
const booked = (await client.sendMessage(userText("yes", { taskId: trip.id }))) as Task
console.log(`${booked.status.state}: ${booked.artifacts?.[0]?.name} "${booked.artifacts?.[0]?.parts.map((p) => (p.kind === "text" ? p.text : "")).join("")}"`)

// The extension's method reaches the machine of another waiting task.
const other = (await client.sendMessage(userText("Grace"))) as Task
// The client activates the extension whose card declaration lists the method (A2A-Extensions in 1.0).
const dropped = await client.callExtension<Task>("trip/drop", { taskId: other.id, reason: "plans changed" })
console.log(`${dropped.status.state}: ${prompt(dropped)}`)

await listening.close()
