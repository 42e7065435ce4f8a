import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Task, TaskState } from "../schemas/index.ts"
import { PushSender } from "../src/push/delivery-queue.ts"
import { jwksResponse, makePushKeySet, type PushKeySet } from "../src/push/jwks.ts"
import { fetchTransport } from "../src/push/push-transport.ts"
import { makePushSigner } from "../src/push/signer.ts"
import { makeUrlGuard } from "../src/push/url-guard.ts"
import { startReceiver } from "./push-receiver.ts"

// The agent side of the test: its JWKS endpoint on a real loopback port.
const serveJwks = async (keys: PushKeySet) => {
  const server = createServer(async (_req, res) => {
    const response = await Effect.runPromise(jwksResponse(keys))
    res.writeHead(200, { "content-type": response.headers.get("content-type")! }).end(await response.text())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const snapshot = (state: TaskState): Task => ({ kind: "task", id: "task-7", contextId: "ctx-7", status: { state } })

describe("push receiver example", () => {
  it("verifies and prints every notification the sender delivers, in order; refuses forgeries", async () => {
    const keys = await Effect.runPromise(makePushKeySet())
    const jwks = await serveJwks(keys)
    const printed: Array<string> = []
    const receiver = await startReceiver({ jwksUrl: jwks.url, token: "tok-7", onTask: (t) => printed.push(t.status.state) })
    try {
      const lifecycle: Array<TaskState> = ["submitted", "working", "completed"]
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const sender = yield* PushSender.make({
          transport: fetchTransport(),
          guard: makeUrlGuard({ resolve: async () => [], allow: ["127.0.0.1/32"] }),
          signer: makePushSigner({ issuer: "http://agent.test", keys }),
          retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 }
        })
        for (const state of lifecycle) yield* sender.enqueue(snapshot(state), [{ url: receiver.url, token: "tok-7" }])
        yield* Effect.timeout(sender.idle, "10 seconds")
      })))
      expect(printed).toEqual(lifecycle)
      expect(receiver.received.map((t) => t.id)).toEqual(["task-7", "task-7", "task-7"])

      const forger = await Effect.runPromise(makePushKeySet())
      const headers = await Effect.runPromise(
        makePushSigner({ issuer: "http://agent.test", keys: forger }).headers({ taskId: "task-7", config: { url: receiver.url, token: "tok-7" }, body: JSON.stringify(snapshot("failed")) })
      )
      const forged = await fetch(receiver.url, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(snapshot("failed"))
      })
      expect(forged.status).toBe(401)
      expect(await forged.text()).toBe("bad-signature\n")
      expect(printed).toEqual(lifecycle)
    } finally {
      await Promise.all([receiver.close(), jwks.close()])
    }
  })
})
