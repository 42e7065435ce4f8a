/**
 * In-process cost of one streamed artifact chunk, from the agent's `ctx.artifact` to the JSON-RPC frame
 * text a stream reader gets: no socket, so what the runtime itself adds per event shows. Three shapes of
 * chunk: text (the common case), the same as a Part object, and a Part with metadata (both go through
 * the wire-schema check at entry).
 *
 * Run: `npx tsx bench/agent-output.ts [--chunks 100000] [--rounds 5]`. Prints the median microseconds
 * per event of each shape, of CPU time (steadier on a shared machine) and of wall time.
 */
import process from "node:process"
import { Effect, Stream } from "effect"
import type { PartsInput } from "../src/agent/messages.ts"
import { Agent } from "../src/agent/agent.ts"
import { messageText } from "../src/agent/messages.ts"
import { TaskRuntime } from "../src/runtime/task-runtime.ts"
import { makeEventJson } from "../src/server/sse-event-json.ts"
import { resultPrefix } from "../src/server/json-rpc-envelope.ts"
import { argValue } from "./contenders/control.ts"

const chunks = Number(argValue("chunks") ?? "100000")
const rounds = Number(argValue("rounds") ?? "5")

const shapes: Record<string, (i: number) => PartsInput> = {
  text: (i) => String(i),
  part: (i) => ({ kind: "text", text: String(i) }),
  "part+metadata": (i) => ({ kind: "text", text: String(i), metadata: { seq: i } })
}

const card = {
  name: "bench",
  description: "streams chunks",
  version: "1.0.0",
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: []
}

/** Microseconds per event of one stream of `chunks` chunks of `shape`. */
const once = (shape: string) =>
  Effect.scoped(Effect.gen(function*() {
    const make = shapes[shape]!
    const runtime = yield* TaskRuntime.make(Agent.make({
      card,
      execute: (ctx) =>
        Effect.gen(function*() {
          const n = Number(messageText(ctx.message))
          for (let i = 0; i < n; i++) yield* ctx.artifact(make(i), { artifactId: "a", append: i > 0, lastChunk: i === n - 1 })
          yield* ctx.complete()
        })
    }), { logWindow: chunks + 16 })
    const json = makeEventJson()
    const prefix = resultPrefix(1)
    let bytes = 0
    const cpu = process.cpuUsage()
    const started = performance.now()
    const events = yield* runtime.stream({
      message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text: String(chunks) }] }
    }, { principal: { id: "bench" }, extensions: [] })
    yield* Stream.runForEach(events, ({ event }) => Effect.sync(() => {
      bytes += prefix.length + json(event).length + 1
    }))
    const wall = ((performance.now() - started) * 1000) / (chunks + 2)
    const used = process.cpuUsage(cpu)
    if (bytes === 0) throw new Error("nothing streamed")
    return { cpu: (used.user + used.system) / (chunks + 2), wall }
  }))

/** A full collection between runs (with --expose-gc), so one run's garbage is not the next one's cost. */
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.()

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const main = Effect.gen(function*() {
  const results: Record<string, Array<{ readonly cpu: number; readonly wall: number }>> = {}
  for (let r = 0; r < rounds + 1; r++) {
    for (const shape of Object.keys(shapes)) {
      const us = yield* once(shape)
      if (r > 0) (results[shape] ??= []).push(us) // round 0 warms up
      collectGarbage()
    }
  }
  for (const [shape, xs] of Object.entries(results)) {
    const cpu = median(xs.map((x) => x.cpu))
    const wall = median(xs.map((x) => x.wall))
    console.log(`${shape.padEnd(14)} cpu ${cpu.toFixed(2)} us/event, wall ${wall.toFixed(2)} us/event`)
  }
})

Effect.runPromise(main).catch((e) => {
  console.error(e)
  process.exitCode = 1
})
