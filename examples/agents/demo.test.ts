/**
 * The demo agent's `count` skill, served for real on 127.0.0.1 and read through the client:
 * n numbered chunks of one artifact, in order, then `completed`; a count it cannot do is rejected
 * with a message that says what it takes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveNode } from "../../src/adapters/node.ts"
import type { Listening } from "../../src/adapters/listening.ts"
import { createA2AClient, userText, type A2APromiseClient } from "../../src/client/index.ts"
import { A2AServer } from "../../src/server/a2a-server.ts"
import { countLimit, demoAgent } from "./demo.ts"

let listening: Listening
let client: A2APromiseClient

beforeAll(async () => {
  listening = await serveNode(await A2AServer.make(demoAgent), { port: 0, host: "127.0.0.1" })
  client = await createA2AClient({ url: listening.url })
})
afterAll(async () => {
  await listening?.close({ graceMs: 0 })
})

const textOf = (parts: ReadonlyArray<{ kind: string; text?: string }>): string =>
  parts.map((p) => (p.kind === "text" ? p.text : "")).join("")

describe("the demo agent's count skill", () => {
  it("streams n numbered chunks of one artifact, one at a time, then completes", async () => {
    const chunks: Array<{ text: string; append: boolean | undefined; lastChunk: boolean | undefined }> = []
    let finalState: string | undefined
    const started = Date.now()
    for await (const event of client.streamMessage(userText("count 4"), { signal: AbortSignal.timeout(10_000) })) {
      if (event.kind === "artifact-update") {
        chunks.push({ text: textOf(event.artifact.parts), append: event.append, lastChunk: event.lastChunk })
        expect(event.artifact.artifactId).toBe("count")
      }
      if (event.kind === "status-update" && event.final) finalState = event.status.state
    }
    expect(chunks.map((c) => c.text)).toEqual(["1\n", "2\n", "3\n", "4\n"])
    expect(chunks.map((c) => c.append === true)).toEqual([false, true, true, true])
    expect(chunks.map((c) => c.lastChunk === true)).toEqual([false, false, false, true])
    expect(finalState).toBe("completed")
    // Three pauses of 100 ms between four chunks: the stream is paced, not sent at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
  })

  it.each(["count 0", `count ${countLimit + 1}`, "count ten", "count -3", "count 2.5"])(
    "rejects %j and says what it takes",
    async (text) => {
      const task = await client.sendMessage(userText(text))
      expect(task.kind).toBe("task")
      if (task.kind !== "task") return
      expect(task.status.state).toBe("rejected")
      expect(textOf(task.status.message?.parts ?? [])).toContain(`from 1 to ${countLimit}`)
      expect(task.artifacts ?? []).toEqual([])
    }
  )

  it("leaves other text that starts with the letters of count to echo", async () => {
    const task = await client.sendMessage(userText("counting sheep"))
    expect(task.kind === "task" && task.status.state).toBe("completed")
    expect(task.kind === "task" && textOf(task.artifacts?.[0]?.parts ?? [])).toBe("counting sheep")
  })
})
