/**
 * `GET /healthz` and `GET /readyz`, for load balancers: live while the process serves; ready while it
 * takes new tasks, not ready (503, saying why) from the moment a graceful stop begins.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { A2AServer, type A2AServerHandle } from "./a2a-server.ts"
import { testCard } from "../../testing/server/test-agent.ts"
import { textMessage, wireCall } from "../../testing/server/wire-call.ts"

const agent = Agent.make({
  card: testCard(),
  execute: (ctx) =>
    messageText(ctx.message) === "run"
      ? Effect.andThen(ctx.working(), Effect.andThen(Effect.sleep("10 seconds"), ctx.complete()))
      : ctx.complete("done")
})

const get = async (server: A2AServerHandle, path: string) => {
  const response = await server.handler(new Request(`http://127.0.0.1${path}`))
  return { status: response.status, cache: response.headers.get("cache-control"), body: response.status === 404 ? undefined : await response.json() }
}

describe("health checks", () => {
  it("are live and ready while serving, and not ready once a graceful stop begins", async () => {
    const server = await A2AServer.make(agent)
    expect(await get(server, "/healthz")).toEqual({ status: 200, cache: "no-store", body: { status: "ok" } })
    expect(await get(server, "/readyz")).toEqual({ status: 200, cache: "no-store", body: { status: "ready" } })
    const running = await wireCall(server.handler, "message/send", { ...textMessage("run"), configuration: { blocking: false } })
    expect(running.body.result.status.state).toBe("working")
    const stopping = server.dispose({ graceMs: 2_000 })
    try {
      expect(await get(server, "/readyz")).toEqual({ status: 503, cache: "no-store", body: { status: "not ready", reason: "stopping" } })
      expect((await get(server, "/healthz")).status).toBe(200)
      // New tasks are refused meanwhile; the running one is still served.
      expect((await wireCall(server.handler, "message/send", textMessage("hi"))).body.error.code).toBe(-32004)
      expect((await wireCall(server.handler, "tasks/get", { id: running.body.result.id })).body.result.status.state).toBe("working")
    } finally {
      await stopping
    }
  })

  it("leave both paths to the app with healthChecks: false", async () => {
    const server = await A2AServer.make(agent, { healthChecks: false })
    try {
      expect((await get(server, "/healthz")).status).toBe(404)
      expect((await get(server, "/readyz")).status).toBe(404)
    } finally {
      await server.dispose({ graceMs: 0 })
    }
  })
})
