import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HostileAgent, hostileAgent } from "../client/testing/hostile-agent.ts"
import { serveWebHandler, type TestServer } from "../client/testing/node-server.ts"
import { ExitCode, run } from "./run.ts"

let agent: HostileAgent
let server: TestServer
let htmlSite: TestServer

beforeAll(async () => {
  agent = hostileAgent()
  server = await serveWebHandler(agent.handler)
  htmlSite = await serveWebHandler(async () => new Response("<html>hi</html>", { headers: { "content-type": "text/html" } }))
})
afterAll(async () => {
  await server.close()
  await htmlSite.close()
})

const cli = async (...argv: Array<string>) => {
  let stdout = ""
  let stderr = ""
  const code = await run(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) }
  })
  return { code, stdout, stderr }
}

describe("a2a command", () => {
  it("card shows the agent found from its base URL, or from the card URL", async () => {
    const readable = await cli("card", server.url)
    expect(readable.code).toBe(ExitCode.Ok)
    expect(readable.stdout).toContain("Scripted agent 1.0.0 (A2A 0.3.0)")
    expect(readable.stdout).toContain(`Endpoint: ${server.url}/rpc`)
    const machine = await cli("card", `${server.url}/.well-known/agent-card.json`, "--json")
    expect(machine.code).toBe(ExitCode.Ok)
    expect(JSON.parse(machine.stdout)).toMatchObject({ name: "Scripted agent", capabilities: { streaming: true } })
  })

  it("send prints the answer; --json prints the result document", async () => {
    const readable = await cli("send", server.url, "hello")
    expect(readable).toMatchObject({ code: ExitCode.Ok, stderr: "" })
    expect(readable.stdout).toContain("Task task-1 (context ctx-1): working")
    const machine = await cli("send", server.url, "hello", "--json")
    expect(JSON.parse(machine.stdout)).toMatchObject({ kind: "task", id: "task-1" })
  })

  it("stream prints each event as it comes, one JSON document per line with --json", async () => {
    const readable = await cli("stream", server.url, "go")
    expect(readable.code).toBe(ExitCode.Ok)
    expect(readable.stdout.trim().split("\n").filter((l) => l.startsWith("["))).toEqual([
      "[task] Task task-1 (context ctx-1): submitted",
      "[status] working",
      "[artifact] a-1: a",
      "[artifact] a-1 (append): b",
      "[artifact] a-1 (append, last): c",
      "[status] completed (final)"
    ])
    const machine = await cli("stream", server.url, "go", "--json")
    const kinds = machine.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { kind: string }).kind)
    expect(kinds).toEqual(["task", "status-update", "artifact-update", "artifact-update", "artifact-update", "status-update"])
  })

  it("get and cancel report the agent's errors with exit code 1", async () => {
    const get = await cli("get", server.url, "nope")
    expect(get.code).toBe(ExitCode.AgentError)
    expect(get.stderr).toContain("error -32001 (TaskNotFound)")
    const cancel = await cli("cancel", server.url, "task-1", "--json")
    expect(cancel.code).toBe(ExitCode.AgentError)
    expect(JSON.parse(cancel.stderr)).toMatchObject({ error: { type: "TaskNotCancelable", code: -32002 } })
    const ok = await cli("get", server.url, "task-1")
    expect(ok.stdout).toContain("Task task-1 (context ctx-1): completed")
  })

  it("an unreachable host exits 3 with a clear message", async () => {
    const dead = await serveWebHandler(async () => new Response(null))
    await dead.close()
    const result = await cli("card", dead.url)
    expect(result.code).toBe(ExitCode.Transport)
    expect(result.stderr).toMatch(/cannot reach .*Is the agent running/)
  })

  it("a site that is not an A2A agent exits 4", async () => {
    const result = await cli("send", htmlSite.url, "hello")
    expect(result.code).toBe(ExitCode.InvalidAnswer)
    expect(result.stderr).toContain("did not answer as an A2A agent")
  })

  it("usage errors exit 2 and print the usage; --help exits 0", async () => {
    const bare = await cli()
    expect(bare.code).toBe(ExitCode.Usage)
    expect(bare.stderr).toContain("Usage: a2a <command> <url>")
    const unknown = await cli("fly", server.url)
    expect(unknown.code).toBe(ExitCode.Usage)
    expect(unknown.stderr).toContain('unknown command "fly"')
    expect((await cli("get", server.url)).stderr).toContain("get needs the task id")
    expect((await cli("send", "ftp://x", "hi")).code).toBe(ExitCode.Usage)
    const help = await cli("--help")
    expect(help.code).toBe(ExitCode.Ok)
    expect(help.stdout).toContain("Exit codes:")
  })

  it("forwards --token, --header and --extension", async () => {
    const before = agent.requestHeaders.length
    const result = await cli("get", server.url, "task-1", "--token", "t0k", "--header", "X-Trace: 42", "--extension", "urn:ext:x")
    expect(result.code).toBe(ExitCode.Ok)
    const headers = agent.requestHeaders[before]!
    expect(headers.get("authorization")).toBe("Bearer t0k")
    expect(headers.get("x-trace")).toBe("42")
    expect(headers.get("x-a2a-extensions")).toBe("urn:ext:x")
  })

  it("--skill asks for the skill in the message's metadata.skill", async () => {
    const bodies: Array<{ method?: string; params?: { message?: { metadata?: unknown } } }> = []
    const recording = await serveWebHandler(async (request) => {
      if (request.method === "POST") bodies.push(await request.clone().json())
      return agent.handler(request)
    })
    try {
      expect((await cli("send", recording.url, "hi", "--skill", "admin")).code).toBe(ExitCode.Ok)
      expect((await cli("send", recording.url, "hi")).code).toBe(ExitCode.Ok)
    } finally {
      await recording.close()
    }
    const sends = bodies.filter((b) => b.method === "message/send")
    expect(sends.map((b) => b.params?.message?.metadata)).toEqual([{ skill: "admin" }, undefined])
  })

  it("the entry file runs under tsx and exits with run's code", async () => {
    const main = fileURLToPath(new URL("./main.ts", import.meta.url))
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, ["--import", "tsx", main, "get", server.url, "nope"], { timeout: 20_000 }, (_e, stdout) =>
        resolve({ code: child.exitCode, stdout }))
    })
    expect(result.code).toBe(ExitCode.AgentError)
  })
})
