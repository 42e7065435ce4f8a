/**
 * The server's background work runs in its own scope, with the app's services: an Effect app that mounts
 * `A2AServer.layer` with a logger of its own sees the lines of audit records written in the background,
 * and a store that cannot be opened fails the server with the store's typed error, not a defect.
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Cause, Context, Effect, Exit, Layer, Logger, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { describe, expect, it } from "vitest"
import { A2AServer } from "./a2a-server.ts"
import { TaskRuntime } from "../runtime/task-runtime.ts"
import { TaskStoreFailure } from "../runtime/task-store.ts"
import { postgresStore } from "../store/postgres/index.ts"
import { AuditSinkError, type AuditSink } from "../audit/audit-sink.ts"
import { testAgent } from "../../testing/server/test-agent.ts"
import { eventually, textMessage, wireCall } from "../../testing/server/wire-call.ts"

describe("background work of the server", () => {
  it("records task transitions with the app's logger", async () => {
    const lines: Array<string> = []
    const logger = Logger.make(({ message }) => {
      lines.push(Array.isArray(message) ? message.map(String).join(" ") : String(message))
    })
    // A sink that takes requests but cannot write transitions.
    const sink: AuditSink = {
      record: (event) => (event.kind === "task-transition" ? Effect.fail(new AuditSinkError({ message: "disk full" })) : Effect.void)
    }
    const scope = Effect.runSync(Scope.make())
    const served = HttpRouter.serve(A2AServer.layer(testAgent(), { audit: sink }), { disableListenLog: true, disableLogger: true }).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
      Layer.provide(Logger.layer([logger]))
    )
    const context = await Effect.runPromise(Layer.buildWithScope(served, scope))
    const address = Context.get(context, HttpServer.HttpServer).address
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    try {
      const sent = await wireCall(fetch, "message/send", textMessage("finish"), { url: `http://127.0.0.1:${address.port}/` })
      expect(sent.body.result.status.state).toBe("completed")
      await eventually(() => (lines.some((l) => l.includes(`audit event "task-transition" could not be recorded`)) ? true : undefined))
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })

  it("fails with the store's typed error when the store cannot be opened", async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const bad = [
      postgresStore({ url: "postgres://postgres@127.0.0.1:1/none" }),
      postgresStore({ url: "postgres://postgres@127.0.0.1:1/none", schema: "Not A Schema" })
    ]
    for (const store of bad) {
      const exit = await Effect.runPromiseExit(Effect.scoped(TaskRuntime.make(testAgent(), { store })))
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        expect(Cause.hasDies(exit.cause)).toBe(false)
        const error = Cause.findErrorOption(exit.cause)
        expect(error._tag === "Some" && error.value instanceof TaskStoreFailure).toBe(true)
      }
    }
    await expect(A2AServer.make(testAgent(), { runtime: { store: bad[0]! } })).rejects.toBeInstanceOf(TaskStoreFailure)
  })
})
