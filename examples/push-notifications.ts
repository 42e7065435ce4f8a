// examples/push-notifications.ts — signed push notifications to a webhook that verifies them.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { createA2AClient, userText } from "../src/client/index.ts"
import { nodeDnsResolver, nodePushTransport, serveNode } from "../src/adapters/node.ts"
import { A2AServer, Agent, makePushVerifier } from "../src/index.ts"

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

// The webhook checks each notification: the JWT's signature against the server's JWKS, its audience,
// time and jti (no replays), the body's digest and the task's token.
const states: Array<string> = []
let finished!: () => void
const done = new Promise<void>((resolve) => { finished = resolve })
const webhook = createServer(async (request, response) => {
  let body = ""
  for await (const chunk of request) body += chunk
  const header = (name: string) => [request.headers[name]].flat()[0]
  try {
    const { task } = await Effect.runPromise(verifier.verify({ authorization: header("authorization"), token: header("x-a2a-notification-token"), body }))
    states.push(task.status.state)
    if (task.status.state === "completed") finished()
    response.writeHead(204).end()
  } catch {
    response.writeHead(401).end()
  }
})
await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve))
const webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/notifications`
const verifier = makePushVerifier({
  audience: webhookUrl,
  keys: { jwksUrl: `${listening.url}/.well-known/jwks.json` },
  token: "secret-per-task-token"
})

const client = await createA2AClient({ url: listening.url })
await client.sendMessage(userText("report back", {
  configuration: { blocking: false, pushNotificationConfig: { url: webhookUrl, token: "secret-per-task-token" } }
}))
await done
console.log(`verified notifications: ${states.join(" -> ")}`)

webhook.closeAllConnections()
webhook.close()
await listening.close()
