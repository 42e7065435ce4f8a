// examples/effect-router.ts — the A2A routes inside an app that already runs an Effect HTTP router.
import { createServer } from "node:http"
import { HttpRouter, HttpServerResponse } from "effect/http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Layer } from "effect"
import { A2AServer, Agent, messageText } from "../src/index.ts"

const agent = Agent.make({
  card: {
    name: "Routed", description: "Answers beside the app's own routes", version: "1.0.0",
    capabilities: { streaming: true }, defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: []
  },
  execute: (ctx) => ctx.complete(`You said: ${messageText(ctx.message)}`)
})

const health = HttpRouter.add("GET", "/health", HttpServerResponse.text("ok"))
const app = Layer.mergeAll(A2AServer.layer(agent), health)

const port = Number(process.env["PORT"] ?? 0)
HttpRouter.serve(app).pipe(
  Layer.provide(NodeHttpServer.layer(() => {
    const server = createServer()
    server.once("listening", () => {
      const address = server.address()
      if (typeof address === "object" && address !== null) console.log(`A2A server listening on http://127.0.0.1:${address.port}`)
    })
    return server
  }, { port, host: "127.0.0.1" })),
  Layer.launch,
  NodeRuntime.runMain
)
