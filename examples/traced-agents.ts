// examples/traced-agents.ts — one trace through two agents (client → writer → spell checker), exported over OTLP.
import { Effect, Layer, Stream } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { A2AClient, userText } from "../src/client/index.ts"
import { serveNode } from "../src/adapters/node.ts"

// Where the collector is: OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://127.0.0.1:4318), as every server below reads it.
const endpoint = process.env["OTEL_EXPORTER_OTLP_ENDPOINT"]
if (endpoint === undefined) throw new Error("set OTEL_EXPORTER_OTLP_ENDPOINT to a collector's OTLP/HTTP address")

const card = (name: string) => ({
  name,
  description: `The ${name}.`,
  version: "1.0.0",
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "write", name, description: `The ${name}.`, tags: ["demo"] }]
})

// The spell checker answers at once.
const checker = await serveNode(
  await A2AServer.make(
    Agent.make({ card: card("spell checker"), execute: (ctx) => ctx.complete(`checked: ${messageText(ctx.message)}`) }),
    { telemetry: { otlp: { serviceName: "spell checker" } } }
  ),
  { port: 0 }
)

// The writer streams a draft, asks the spell checker (the Effect client carries the trace), then completes.
const writer = await serveNode(
  await A2AServer.make(
    Agent.make({
      card: card("writer"),
      execute: (ctx) =>
        Effect.gen(function*() {
          yield* ctx.working("drafting")
          yield* ctx.artifact("an old silent pond", { artifactId: "poem" })
          const spellChecker = yield* A2AClient.make({ url: checker.url })
          const checked = yield* spellChecker.sendMessage(userText("an old silent pond"))
          yield* ctx.complete(checked.kind === "task" ? "checked and done" : "done")
        }).pipe(Effect.scoped, Effect.orDie)
    }),
    { telemetry: { otlp: { serviceName: "writer" } } }
  ),
  { port: 0 }
)

// The caller traces too, with effect/observability's OTLP tracer: its span is the root of the trace.
const protocol = process.env["OTEL_EXPORTER_OTLP_PROTOCOL"] === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf
const tracing = OtlpTracer.layer({ url: `${endpoint}/v1/traces`, resource: { serviceName: "caller" } }).pipe(
  Layer.provide(Layer.mergeAll(protocol, FetchHttpClient.layer))
)
const traceId = await Effect.runPromise(
  Effect.gen(function*() {
    const client = yield* A2AClient.make({ url: writer.url })
    const events = yield* client.streamMessage(userText("write a haiku")).pipe(Stream.runCollect)
    console.log(`streamed ${events.length} events`)
    return (yield* Effect.currentSpan).traceId
  }).pipe(Effect.scoped, Effect.withSpan("write a haiku"), Effect.provide(tracing))
)
console.log(`trace ${traceId}`)
// Closing a server sends what its exporters still hold.
await writer.close()
await checker.close()
