/**
 * The bench agent on this project's runtime, shared by the Node, Bun and Deno contenders: the
 * message's text says how many chunks of artifact `a` to stream (0 = complete at once).
 */
import process from "node:process"
import { Effect } from "effect"
import type { AgentCard } from "../../schemas/index.ts"
import { Agent } from "../../src/agent/agent.ts"
import { messageText } from "../../src/agent/messages.ts"
import type { TaskContext } from "../../src/agent/task-context.ts"
import { A2AServer, type A2AServerHandle } from "../../src/server/a2a-server.ts"
import { chunksWanted } from "./control.ts"

const card: AgentCard = {
  protocolVersion: "0.3.0",
  name: "bench",
  description: "Streams numbered artifact chunks",
  url: "",
  version: "1.0.0",
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "chunks", name: "chunks", description: "numbered chunks", tags: ["bench"] }]
}

/** The agent every contender of this project serves. */
export const benchAgent = Agent.make({
  card,
  // One generator for every task (docs/agents.md, "Writing execute"): one made per call would keep each
  // task's objects alive until a full collection.
  execute: Effect.fnUntraced(function*(ctx: TaskContext) {
    const n = chunksWanted(messageText(ctx.message))
    for (let i = 0; i < n; i++) {
      yield* ctx.artifact(String(i), { artifactId: "a", append: i > 0, lastChunk: i === n - 1 })
    }
    yield* ctx.complete()
  })
})

/**
 * The server under test. Terminal tasks live `ttlMs` (short, so the memory workload can watch
 * eviction within the run); heartbeats are off so pings never mix into measured streams.
 * `logWindow` (when given) is how many events a task's log keeps: a reader that falls further
 * behind a fast agent gets a Task snapshot instead of the chunks it missed, which the load client
 * rejects, so the stream workloads run with a window larger than the stream.
 */
export const benchServer = async (
  options: { readonly ttlMs: number; readonly logWindow: number | undefined; readonly traced?: boolean }
): Promise<A2AServerHandle> =>
  A2AServer.make(benchAgent, {
    heartbeatMs: 0,
    // `--traced`: OTLP export of traces, metrics and logs, configured from OTEL_EXPORTER_OTLP_ENDPOINT.
    ...(options.traced === true ? { telemetry: { otlp: true } } : {}),
    runtime: {
      memoryStore: { terminalTtl: options.ttlMs },
      ...(options.logWindow === undefined ? {} : { logWindow: options.logWindow }),
      ...await storeFromEnv()
    }
  })

/**
 * With `A2A_DATABASE_URL` set (the cluster rows), tasks live on PostgreSQL. The store's module is
 * loaded only then, so the in-memory contenders carry none of it.
 */
const storeFromEnv = async () => {
  const url = process.env["A2A_DATABASE_URL"]
  if (url === undefined || url === "") return {}
  const { runtimeFromEnv } = await import("../../examples/store-from-env.ts")
  return runtimeFromEnv(process.env)
}

/** The server options given on the command line: `--ttl <ms>`, `--log-window <n>`. */
export const serverArgs = (argValue: (name: string) => string | undefined) => ({
  ttlMs: Number(argValue("ttl") ?? "2000"),
  logWindow: argValue("log-window") === undefined ? undefined : Number(argValue("log-window")),
  traced: process.argv.includes("--traced")
})
