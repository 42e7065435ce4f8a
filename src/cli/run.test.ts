import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approvalMachine, reviewEventFromText } from "../../machines/approval.ts"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { messageText } from "../agent/messages.ts"
import { type MemoryAuditSink, memoryAuditSink } from "../audit/audit-sink.ts"
import { type HostileAgent, hostileAgent } from "../../testing/client/hostile-agent.ts"
import { serveWebHandler, type TestServer } from "../../testing/client/node-server.ts"
import { testCard } from "../../testing/runtime/fixtures.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { Workflow } from "../workflow/index.ts"
import { approvalExtension } from "../../testing/workflow/fixtures.ts"
import { ExitCode, run } from "./run.ts"

let agent: HostileAgent
let server: TestServer
let htmlSite: TestServer
/** Our server running the approval workflow, whose card declares the approval extension; it audits. */
let approval: Listening
let audit: MemoryAuditSink

// The server fills in the card's URL from the address it listens on.
const { url: _url, ...approvalCard } = testCard()
const approvalAgent = Workflow.toAgent({
  card: approvalCard,
  machine: approvalMachine,
  input: (message) => ({ request: messageText(message), maxRevisions: 2 }),
  toEvent: (reply) => reviewEventFromText(messageText(reply)),
  extensions: [approvalExtension]
})

beforeAll(async () => {
  agent = hostileAgent()
  server = await serveWebHandler(agent.handler)
  htmlSite = await serveWebHandler(async () => new Response("<html>hi</html>", { headers: { "content-type": "text/html" } }))
  audit = await Effect.runPromise(memoryAuditSink())
  approval = await serveNode(await A2AServer.make(approvalAgent, { audit }))
})
afterAll(async () => {
  await server.close()
  await htmlSite.close()
  await approval.close({ graceMs: 0 })
})

/** Runs the command; `writes` are stdout's writes one by one, to see what is printed when. */
const cli = async (...argv: Array<string>) => {
  let stdout = ""
  let stderr = ""
  const writes: Array<string> = []
  const code = await run(argv, {
    stdout: { write: (s: string) => (writes.push(s), stdout += s) },
    stderr: { write: (s: string) => (stderr += s) }
  })
  return { code, stdout, stderr, writes }
}

/** A server in front of the scripted agent that records each JSON-RPC body it receives. */
const recordingAgent = async () => {
  const bodies: Array<{ method?: string; params?: any }> = []
  const recording = await serveWebHandler(async (request) => {
    if (request.method === "POST") bodies.push(await request.clone().json())
    return agent.handler(request)
  })
  return { bodies, url: recording.url, close: recording.close }
}

/** A task of the approval workflow waiting for review. */
const draft = async (): Promise<string> => {
  const sent = await cli("send", approval.url, "Write a launch note", "--json")
  const task = JSON.parse(sent.stdout) as { id: string; status: { state: string } }
  expect(task.status.state).toBe("input-required")
  return task.id
}

const activations = async () =>
  (await Effect.runPromise(audit.snapshot)).map((r) => r.event).filter((e) => e.kind === "extension-activated")

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

  it("stream prints each event as it comes, an artifact's chunks appended on one line; --json one document per event", async () => {
    const readable = await cli("stream", server.url, "go")
    expect(readable.code).toBe(ExitCode.Ok)
    expect(readable.stdout.trim().split("\n").filter((l) => l.startsWith("["))).toEqual([
      "[task] Task task-1 (context ctx-1): submitted",
      "[status] working",
      "[artifact] a-1: abc",
      "[status] completed (final)"
    ])
    // Each chunk is written when it arrives, not once the artifact is whole.
    const line = readable.writes.findIndex((w) => w.startsWith("[artifact] a-1: a"))
    expect(readable.writes.slice(line, line + 4)).toEqual(["[artifact] a-1: a", "b", "c", "\n"])
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

  it("--version (or -V) prints the package's name and version", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
    for (const flag of ["--version", "-V"]) {
      expect(await cli(flag)).toMatchObject({ code: ExitCode.Ok, stdout: `a2a-actors ${pkg.version}\n`, stderr: "" })
    }
    expect(await cli("card", server.url, "--version")).toMatchObject({ code: ExitCode.Ok, stdout: `a2a-actors ${pkg.version}\n` })
  })

  it("card lists the interfaces, the security and the extensions with their methods' params", async () => {
    const readable = await cli("card", approval.url)
    expect(readable.code).toBe(ExitCode.Ok)
    const lines = readable.stdout.split("\n")
    /** The indented lines under a heading. */
    const section = (title: string) => {
      const after = lines.slice(lines.indexOf(title) + 1)
      const end = after.findIndex((l) => !l.startsWith("  "))
      return end === -1 ? after : after.slice(0, end)
    }
    expect(section("Interfaces:")).toEqual([
      `  - JSONRPC ${approval.url}/ (A2A 1.0) (preferred, in use)`,
      `  - HTTP+JSON ${approval.url}/ (A2A 1.0)`,
      `  - JSONRPC ${approval.url}/ (A2A 0.3)`,
      `  - HTTP+JSON ${approval.url}/ (A2A 0.3)`
    ])
    expect(lines).toContain(`Endpoint: ${approval.url}/ (JSONRPC, A2A 1.0)`)
    const pinned = (await cli("card", approval.url, "--protocol", "0.3")).stdout.split("\n")
    expect(pinned).toContain(`Endpoint: ${approval.url}/ (JSONRPC, A2A 0.3)`)
    expect(pinned).toContain(`  - JSONRPC ${approval.url}/ (A2A 0.3) (in use)`)
    expect(section("Extensions:")).toEqual([
      `  - ${approvalExtension.uri} - ${approvalExtension.declaration.description}`,
      "    methods:",
      "      approval/approve { taskId: string }",
      "      approval/reject { taskId: string, reason: string }",
      "      approval/revise { taskId: string, comment: string }"
    ])
    expect(lines).toContain("Security: none required")
    expect((await cli("card", server.url)).stdout).toContain("Extensions:\n  (none)\n")
  })

  it("list shows your tasks newest first, one page at a time, filtered; --json gives the page", async () => {
    const first = await draft()
    const second = await draft()
    const page = await cli("list", approval.url, "--status", "input-required", "--page-size", "1")
    expect(page.code).toBe(ExitCode.Ok)
    const lines = page.stdout.trimEnd().split("\n")
    expect(lines[0]).toMatch(/^1 of \d+ tasks, newest first$/)
    expect(lines[1]).toMatch(new RegExp(`^  ${second}  input-required  \\d{4}-\\d\\d-\\d\\dT\\S+  context \\S+  `))
    const token = /^Next page: --page-token (\S+)$/.exec(lines.at(-1)!)?.[1]
    expect(token).toBeDefined()
    const next = JSON.parse((await cli("list", approval.url, "--status", "TASK_STATE_INPUT_REQUIRED", "--page-size", "1", "--page-token", token!, "--json")).stdout)
    expect(next).toMatchObject({ pageSize: 1, tasks: [{ kind: "task", id: first, status: { state: "input-required" } }] })
    const withHistory = JSON.parse((await cli("list", approval.url, "--history", "1", "--artifacts", "--json", "--page-size", "1")).stdout)
    expect(withHistory.tasks[0].history).toHaveLength(1)
    expect(withHistory.tasks[0]).toHaveProperty("artifacts")
    const since = JSON.parse((await cli("list", approval.url, "--since", "2999-01-01T00:00:00Z", "--json")).stdout)
    expect(since).toMatchObject({ tasks: [], totalSize: 0, nextPageToken: "" })
  })

  it("list over A2A 0.3 (which has no ListTasks) exits 1; bad list options exit 2", async () => {
    const old = await cli("list", approval.url, "--protocol", "0.3")
    expect(old.code).toBe(ExitCode.AgentError)
    expect(old.stderr).toContain("UnsupportedOperation")
    expect(old.stderr).toContain("ListTasks is an A2A 1.0 operation")
    for (const [args, message] of [
      [["--status", "sleeping"], "--status expects a task state"],
      [["--since", "yesterday"], "--since expects an ISO 8601 time"],
      [["--page-size", "0"], "--page-size expects a positive integer"],
      [["--protocol", "2.0"], "--protocol expects 1.0 or 0.3"],
      [["--task", "t"], "--task does not apply to list"]
    ] as const) {
      const result = await cli("list", approval.url, ...args)
      expect(result.code, args.join(" ")).toBe(ExitCode.Usage)
      expect(result.stderr).toContain(message)
    }
    expect((await cli("list", approval.url, "--page-size", "500")).stderr).toContain("InvalidParams")
  })

  it("call runs an extension method with the extension activated, and prints the Task", async () => {
    const taskId = await draft()
    const before = (await activations()).length
    const readable = await cli("call", approval.url, "approval/approve", JSON.stringify({ taskId }))
    expect(readable).toMatchObject({ code: ExitCode.Ok, stderr: "" })
    expect(readable.stdout).toContain(`Task ${taskId} (context `)
    expect(readable.stdout).toContain("): completed")
    expect((await activations()).slice(before)).toMatchObject([{ uri: approvalExtension.uri, method: "approval/approve" }])
    const machine = await cli("call", approval.url, "approval/approve", JSON.stringify({ taskId: await draft() }), "--json")
    expect(JSON.parse(machine.stdout)).toMatchObject({ kind: "task", status: { state: "completed" } })
  })

  it("call reports the agent's refusal with exit code 1", async () => {
    const refused = await cli("call", approval.url, "approval/reject", JSON.stringify({ taskId: await draft() }))
    expect(refused.code).toBe(ExitCode.AgentError)
    expect(refused.stderr).toContain("error -32602 (InvalidParams)")
    expect(refused.stderr).toContain("reason")
  })

  it("call of a method no card extension lists needs --extension (exit 2); with it, the agent decides", async () => {
    const unlisted = await cli("call", approval.url, "billing/charge", "{}")
    expect(unlisted.code).toBe(ExitCode.Usage)
    expect(unlisted.stderr).toContain("declares no extension with the method billing/charge")
    expect(unlisted.stderr).toContain("--extension <uri>")
    const named = await cli("call", approval.url, "billing/charge", "{}", "--extension", "https://example.com/ext/billing/v1")
    expect(named.code).toBe(ExitCode.AgentError)
    expect(named.stderr).toContain("error -32601 (MethodNotFound)")
  })

  it("call's method and params are checked before anything is sent (exit 2)", async () => {
    const cases: ReadonlyArray<[Array<string>, string]> = [
      [["approval/approve"], "call needs the params as JSON"],
      [["approval/approve", "{taskId: 1}"], "call's params are not JSON"],
      [["approval/approve", "42"], "must be a JSON object or array"],
      [["approve", "{}"], "call expects a method {namespace}/{action}"],
      [["approval/approve", "{}", "extra"], 'unexpected argument "extra"']
    ]
    for (const [args, message] of cases) {
      const result = await cli("call", approval.url, ...args)
      expect(result.code, args.join(" ")).toBe(ExitCode.Usage)
      expect(result.stderr).toContain(message)
    }
  })

  it("--history asks send for configuration.historyLength and get for historyLength", async () => {
    const recording = await recordingAgent()
    try {
      expect((await cli("send", recording.url, "hi", "--history", "2")).code).toBe(ExitCode.Ok)
      expect((await cli("get", recording.url, "task-1", "--history", "0")).code).toBe(ExitCode.Ok)
    } finally {
      await recording.close()
    }
    expect(recording.bodies.map((b) => [b.method, b.params?.configuration?.historyLength ?? b.params?.historyLength])).toEqual([
      ["message/send", 2],
      ["tasks/get", 0]
    ])
    // Against our server, the answer keeps only the last message of the task's history.
    const taskId = await draft()
    const revised = await cli("send", approval.url, "revise add the date", "--task", taskId, "--history", "1", "--json")
    expect(JSON.parse(revised.stdout).history).toHaveLength(1)
  })

  it("a flag given to a command it does not apply to is a usage error, not ignored", async () => {
    const cases: ReadonlyArray<[Array<string>, string]> = [
      [["stream", server.url, "hi", "--history", "1"], "--history does not apply to stream (it applies to send, get, list)"],
      [["cancel", server.url, "task-1", "--history", "1"], "--history does not apply to cancel"],
      [["card", server.url, "--history", "1"], "--history does not apply to card"],
      [["call", server.url, "a/b", "{}", "--history", "1"], "--history does not apply to call"],
      [["get", server.url, "task-1", "--task", "t"], "--task does not apply to get"],
      [["cancel", server.url, "task-1", "--skill", "s"], "--skill does not apply to cancel"],
      [["card", server.url, "--context", "c"], "--context does not apply to card"],
      [["get", server.url, "t", "--status", "working"], "--status does not apply to get (it applies to list)"],
      [["send", server.url, "hi", "--artifacts"], "--artifacts does not apply to send"]
    ]
    for (const [args, message] of cases) {
      const result = await cli(...args)
      expect(result.code, args.join(" ")).toBe(ExitCode.Usage)
      expect(result.stderr).toContain(message)
    }
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
