// examples/push-notifications.ts — signed push notifications to a webhook that verifies them.
import { createA2AClient, userText } from "../src/client/index.ts"
import { nodeDnsResolver, nodePushTransport, serveNode } from "../src/adapters/node.ts"
import { A2AServer, Agent, type Task } from "../src/index.ts"
import { startReceiver } from "./push-receiver.ts"

const agent = Agent.make({
  card: {
    name: "Reporter", description: "Works a little, then completes", version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: []
  },
  execute: (ctx) => ctx.complete("All done")
})

const server = await A2AServer.make(agent, {
  // Webhooks are checked before every delivery and the connection goes to the checked address
  // (http and https); this one lives on loopback, so it must be allowed.
  push: { resolveDns: nodeDnsResolver, transport: nodePushTransport(), allow: ["127.0.0.1"] }
})
const listening = await serveNode(server)

// The receiver checks each notification's JWT against the server's JWKS, its audience and jti.
const states: Array<string> = []
let finished!: () => void
const done = new Promise<void>((resolve) => { finished = resolve })
const receiver = await startReceiver({
  jwksUrl: `${listening.url}/.well-known/jwks.json`,
  token: "secret-per-task-token",
  onTask: (task: Task) => {
    states.push(task.status.state)
    if (task.status.state === "completed") finished()
  }
})

const client = await createA2AClient({ url: listening.url })
await client.sendMessage(userText("report back", {
  configuration: { blocking: false, pushNotificationConfig: { url: receiver.url, token: "secret-per-task-token" } }
}))
await done
console.log(`verified notifications: ${states.join(" -> ")}`)

await receiver.close()
await listening.close()
