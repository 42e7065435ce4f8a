// examples/bench-agent.ts — load-test an agent with benchmark(url, options) and read the figures.
import { benchmark, formatResult } from "../src/client/index.ts"
import { A2AServer, Agent, messageText } from "../src/index.ts"
import { serveNode } from "../src/adapters/node.ts"

// An agent that streams the numbers 1 to n as chunks of one artifact.
const agent = Agent.fromAsync({
  card: {
    name: "Counter", description: "Streams 1..n", version: "1.0.0",
    capabilities: { streaming: true }, defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: []
  },
  execute: async (ctx) => {
    const n = Number(messageText(ctx.message))
    for (let i = 1; i <= n; i++) await ctx.artifact(`${i}\n`, { artifactId: "count", append: i > 1, lastChunk: i === n })
    await ctx.complete()
  }
})
const listening = await serveNode(await A2AServer.make(agent))

// 200 streams, 8 at a time; each must carry 1, 2, 3, 4, 5 in order and end with a final status-update.
const result = await benchmark(listening.url, { workload: "stream", message: "5", numberedChunks: true, requests: 200, concurrency: 8 })
console.log(`${result.requests.ok} streams ok, ${result.requests.failed} failed, ${result.events?.chunks} chunks`)
console.log(`latency p50 ${result.latencyMs?.p50} ms, p99 ${result.latencyMs?.p99} ms`)
console.log(formatResult(result)) // the text a2a bench prints, histogram included

await listening.close()
