/**
 * The command as a process: how it ends when its reader goes away.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { Agent } from "../agent/agent.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { testCard } from "../../testing/runtime/fixtures.ts"

const main = fileURLToPath(new URL("./main.ts", import.meta.url))
const { url: _url, ...card } = testCard()

/** Streams 200 chunks, one every 10 ms: the stream is still going when the reader leaves. */
const chatty = Agent.fromAsync({
  card,
  execute: async (ctx) => {
    for (let i = 0; i < 200; i++) {
      await ctx.artifact(`chunk ${i}\n`, { artifactId: "lines", append: i > 0 })
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await ctx.complete("done")
  }
})

let listening: Listening
beforeAll(async () => {
  listening = await serveNode(await A2AServer.make(chatty))
})
afterAll(async () => {
  await listening.close({ graceMs: 0 })
})

describe("a2a-actors as a process", () => {
  it("stream exits quietly with 0 when its reader stops reading (| head)", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", main, "stream", listening.url, "go"], { stdio: ["ignore", "pipe", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()))
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
    // The reader takes the first output, then goes away, as `head -1` does.
    let first = ""
    await new Promise<void>((resolve) => child.stdout.once("data", (data: Buffer) => (first = data.toString(), resolve())))
    child.stdout.destroy()
    const code = await exited
    clearTimeout(timer)
    expect(first).toMatch(/^\[task\] Task /)
    expect(stderr).toBe("")
    expect(code).toBe(0)
  })
})
