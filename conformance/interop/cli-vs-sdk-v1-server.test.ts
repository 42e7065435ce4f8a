/**
 * Interop: the `a2a` command (and `a2a bench`) against the official JS SDK 1.3 server serving A2A 1.0 only,
 * over JSON-RPC (the card's first interface) and REST (`--header` cannot pick a binding, so REST is reached
 * through a card URL listing it first: see `restFirst`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExitCode, run } from "../../src/cli/run.ts"
import { benchmark } from "../../src/bench/benchmark.ts"
import { serveWebHandler, type TestServer } from "../../testing/client/node-server.ts"
import { type SdkV1EchoAgent, shoutExtension, startSdkV1EchoAgent } from "./sdk-v1-server/echo-agent.ts"

let sdk: SdkV1EchoAgent
/** The SDK's card with its REST interface first, served on its own: a client reading it picks REST. */
let restFirst: TestServer

beforeAll(async () => {
  sdk = await startSdkV1EchoAgent()
  restFirst = await serveWebHandler(async () => {
    const card = await (await fetch(`${sdk.url}/.well-known/agent-card.json`, { headers: { "a2a-version": "1.0" } })).json() as {
      supportedInterfaces: Array<unknown>
    }
    return Response.json({ ...card, supportedInterfaces: [...card.supportedInterfaces].reverse() })
  })
})
afterAll(async () => {
  await restFirst?.close()
  await sdk?.close()
})

const cli = async (...argv: Array<string>) => {
  let stdout = ""
  let stderr = ""
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } })
  return { code, stdout, stderr }
}

describe.each([
  { binding: "JSONRPC", at: () => sdk.url },
  { binding: "HTTP+JSON", at: () => `${restFirst.url}/.well-known/agent-card.json` }
] as const)("a2a over $binding against the JS SDK 1.3 server in A2A 1.0", ({ binding, at }) => {
  it("card shows the 1.0 interfaces with their versions and the one in use", async () => {
    const card = await cli("card", at())
    expect(card.code).toBe(ExitCode.Ok)
    expect(card.stdout).toContain("SDK 1.3 echo agent 1.3.0 (A2A 1.0)")
    const endpoint = binding === "JSONRPC" ? sdk.rpcUrl : `${sdk.restUrl}/`
    expect(card.stdout).toContain(`Endpoint: ${endpoint} (${binding}, A2A 1.0)`)
    expect(card.stdout).toContain(`  - JSONRPC ${sdk.rpcUrl} (A2A 1.0)`)
    expect(card.stdout).toContain(`  - HTTP+JSON ${sdk.restUrl} (A2A 1.0)`)
    expect(card.stdout).toMatch(new RegExp(`- ${binding.replace("+", "\\+")} \\S+ \\(A2A 1\\.0\\) \\(preferred, in use\\)`))
  })

  it("send, get, stream, list and cancel", async () => {
    const sent = await cli("send", at(), "hello there", "--json")
    expect(sent.code).toBe(ExitCode.Ok)
    const task = JSON.parse(sent.stdout) as { id: string; contextId: string; status: { state: string } }
    expect(task.status.state).toBe("completed")
    const got = await cli("get", at(), task.id, "--history", "1")
    expect(got.stdout).toContain(`Task ${task.id} (context ${task.contextId}): completed`)
    expect(got.stdout).toContain("agent: echo: hello there")
    const streamed = await cli("stream", at(), "stream one two")
    expect(streamed.code).toBe(ExitCode.Ok)
    expect(streamed.stdout).toContain("[artifact] words: onetwo")
    expect(streamed.stdout).toContain("[status] completed (final)")
    const listed = await cli("list", at(), "--context", task.contextId)
    expect(listed.code).toBe(ExitCode.Ok)
    expect(listed.stdout).toMatch(new RegExp(`^1 of 1 task, newest first\\n  ${task.id}  completed  `))
    const waiting = JSON.parse((await cli("send", at(), "ask", "--json")).stdout) as { id: string }
    const filtered = JSON.parse((await cli("list", at(), "--status", "input-required", "--json")).stdout) as { tasks: Array<{ id: string }> }
    expect(filtered.tasks.map((t) => t.id)).toContain(waiting.id)
    const canceled = await cli("cancel", at(), waiting.id)
    expect(canceled.stdout).toContain(`Task ${waiting.id}`)
    expect(canceled.stdout).toContain(": canceled")
  })

  it("errors: an unknown task exits 1 with the class; a 0.3 pin finds no interface (exit 3)", async () => {
    const missing = await cli("get", at(), "no-such-task")
    expect(missing.code).toBe(ExitCode.AgentError)
    expect(missing.stderr).toContain("error -32001 (TaskNotFound)")
    const pinned = await cli("card", at(), "--protocol", "0.3")
    expect(pinned.code).toBe(ExitCode.Transport)
    expect(pinned.stderr).toContain("offers no")
    expect(pinned.stderr).toContain("A2A 0.3")
  })

  it("call: an extension method over 1.0 JSON-RPC with A2A-Extensions", async () => {
    const before = sdk.headersSeen().length
    const called = await cli("call", at(), "echo/shout", '{"text":"hi"}', "--json")
    expect(called.code).toBe(ExitCode.Ok)
    expect(JSON.parse(called.stdout)).toEqual({ shout: "HI" })
    expect(sdk.headersSeen().slice(before).filter((h) => h.path === "/a2a/jsonrpc")).toEqual([
      { path: "/a2a/jsonrpc", version: "1.0", extensions: shoutExtension }
    ])
  })
})

describe("a2a bench against the JS SDK 1.3 server in A2A 1.0", () => {
  it.each(["JSONRPC", "HTTP+JSON"] as const)("send and stream over %s, every answer accepted", async (transport) => {
    const send = await benchmark(sdk.url, { transport, requests: 20, concurrency: 4, timeoutMs: 10_000 })
    expect(send).toMatchObject({ protocolVersion: "1.0", transport, requests: { ok: 20, failed: 0 }, errors: [] })
    // stream a b c: the Task, working, three chunks, completed.
    const stream = await benchmark(sdk.url, { transport, workload: "stream", message: "stream a b c", requests: 10, concurrency: 4, timeoutMs: 10_000 })
    expect(stream).toMatchObject({ requests: { ok: 10, failed: 0 }, errors: [], events: { total: 60, chunks: 30 } })
  })

  it("a2a bench prints the version it spoke", async () => {
    const result = await cli("bench", sdk.url, "--requests", "5", "--concurrency", "1")
    expect(result.code).toBe(ExitCode.Ok)
    expect(result.stderr).toContain(`a2a bench: send over JSON-RPC (A2A 1.0) to ${sdk.rpcUrl}`)
    expect(result.stdout).toContain(`send over JSON-RPC (A2A 1.0) to ${sdk.rpcUrl}`)
  })
})
