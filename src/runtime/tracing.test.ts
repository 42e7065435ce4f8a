/**
 * Spans appear as soon as a tracer is installed, for requests and for tasks, and cost nothing
 * without one.
 */
import { HttpEffect } from "effect/http"
import { Effect, Layer, ManagedRuntime, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { TaskRuntime } from "./task-runtime.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"

const recordingTracer = () => {
  const spans: Array<{ name: string; attributes: Record<string, unknown> }> = []
  const native = Tracer.nativeTracer
  const tracer = Tracer.make({
    span(options) {
      const span = native.span(options)
      const entry = { name: options.name, attributes: {} as Record<string, unknown> }
      spans.push(entry)
      const setAttribute = span.attribute.bind(span)
      span.attribute = (key, value) => {
        entry.attributes[key] = value
        setAttribute(key, value)
      }
      return span
    }
  })
  return { spans, tracer }
}

describe("tracing", () => {
  it("records a request span and a task span when a tracer is installed", async () => {
    const { spans, tracer } = recordingTracer()
    const agent = Agent.make({ card: testCard(), execute: (ctx) => ctx.complete("done") })
    const runtime = ManagedRuntime.make(Layer.succeed(Tracer.Tracer, tracer))
    const server = await A2AServer.make(agent)
    // The request runs on a runtime with the tracer; the task's fiber is forked from it.
    const handler = HttpEffect.toWebHandlerWith<never, Effect.Services<typeof server.app>>(await runtime.context())(server.app)
    const response = await handler(new Request("http://127.0.0.1/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: userMessage("hi") } })
    }))
    expect((await response.json()).result.status.state).toBe("completed")
    const request = spans.find((s) => s.name === "a2a.request")
    expect(request?.attributes).toMatchObject({ "a2a.method": "message/send", "a2a.binding": "jsonrpc", "a2a.principal": "anonymous" })
    await server.dispose({ graceMs: 0 })
    await runtime.dispose()
  })

  it("runs each task's agent in a span naming the task and its principal", async () => {
    const { spans, tracer } = recordingTracer()
    const agent = Agent.make({ card: testCard(), execute: (ctx) => ctx.complete("done") })
    const task = await Effect.runPromise(
      Effect.scoped(Effect.gen(function* () {
        const runtime = yield* TaskRuntime.make(agent)
        return yield* runtime.send({ message: userMessage("hi") }, as("alice"))
      })).pipe(Effect.withTracer(tracer))
    )
    expect(task.kind).toBe("task")
    const span = spans.find((s) => s.name === "a2a.agent.run")
    expect(span?.attributes).toEqual({ "a2a.task.id": (task as { id: string }).id, "a2a.principal": "alice" })
  })
})
