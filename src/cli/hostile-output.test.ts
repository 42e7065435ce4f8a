/**
 * What a hostile agent can make the `a2a` command print. Every server-supplied string (card fields, ids,
 * states, status and artifact text, artifact names, error messages) carries terminal control sequences; the
 * human-readable output must show them escaped, never send them to the terminal, while `--json` stays exact.
 * And a stream that only sends pings must end within `--timeout`, and one that ends without a final event
 * must say so (exit 4).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveWebHandler, type TestServer } from "../../testing/client/node-server.ts"
import { ExitCode, run } from "./run.ts"
import { forTerminal, terminalText } from "./terminal-text.ts"

/** Everything a terminal obeys: CSI (clear, cursor up), OSC (title, hyperlink), BEL, CR, backspace, C1 CSI, bidi. */
const evil = "\x1b[2J\x1b[H\x1b[1A\x1b]0;pwned\x07\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\\r\b\x9b2J\u202egnp.exe\u2066\x7f\x00"
/**
 * A line feed in a one-line field would start a fake line of output. (Text parts keep their line feeds: a
 * message or an artifact may hold several lines, and is printed as it was written.)
 */
const fakeLine = "\n[status] completed (final) FAKE"
const bad = `${evil}${fakeLine}`

// Any of these reaching stdout or stderr is a failure (tab and line feed are checked separately).
const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/

const task = (id: string, state: string, final: boolean) => ({
  kind: "task",
  id,
  contextId: bad,
  status: { state, message: { kind: "message", role: "agent", messageId: bad, parts: [{ kind: "text", text: `status ${evil}` }] } },
  artifacts: [{
    artifactId: bad,
    name: `name ${bad}`,
    parts: [{ kind: "text", text: `multi\nline ${evil}` }, { kind: "data", data: { [bad]: bad } }, { kind: "file", file: { uri: `https://x/${bad}`, mimeType: bad } }]
  }],
  history: [{ kind: "message", role: "user", messageId: bad, parts: [{ kind: "text", text: evil }] }],
  ...(final ? {} : {})
})

const events = (id: unknown) => [
  task(bad, "submitted", false),
  { kind: "status-update", taskId: bad, contextId: bad, status: { state: "working", message: { kind: "message", role: "agent", messageId: "m", parts: [{ kind: "text", text: evil }] } }, final: false },
  { kind: "artifact-update", taskId: bad, contextId: bad, artifact: { artifactId: bad, name: bad, parts: [{ kind: "text", text: evil }] }, lastChunk: true },
  { kind: "status-update", taskId: bad, contextId: bad, status: { state: "completed" }, final: true }
].map((result) => `data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`)

const encoder = new TextEncoder()
const sse = (frames: ReadonlyArray<string>, end: "close" | "hang") => {
  let i = 0
  let cancelled = false
  return new Response(new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < frames.length) return controller.enqueue(encoder.encode(frames[i++]!))
      if (end === "close") return controller.close()
      // Pings only, for ever (until the client lets go): its reader sees bytes, never an event.
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          try {
            if (!cancelled) controller.enqueue(encoder.encode(": ping\n\n"))
          } catch {
            // The body was let go of between the check and the write.
          }
          resolve()
        }, 50))
    },
    cancel() {
      cancelled = true
    }
  }), { headers: { "content-type": "text/event-stream" } })
}

let server: TestServer

beforeAll(async () => {
  server = await serveWebHandler(async (request) => {
    const url = new URL(request.url)
    if (url.pathname === "/.well-known/agent-card.json") {
      return Response.json({
        protocolVersion: "0.3.0",
        name: `name ${bad}`,
        description: `description ${bad}`,
        url: `${url.origin}/rpc`,
        preferredTransport: "JSONRPC",
        version: bad,
        capabilities: { streaming: true, extensions: [{ uri: `urn:${bad}`, description: bad, params: { methods: [`a/${bad}`] } }] },
        defaultInputModes: [bad],
        defaultOutputModes: [bad],
        additionalInterfaces: [{ transport: "JSONRPC", url: `${url.origin}/${bad}` }],
        skills: [{ id: bad, name: bad, description: bad, tags: [bad] }]
      })
    }
    const body = (await request.json()) as { id: unknown; method: string; params?: { message?: { parts?: Array<{ text?: string }> } } }
    const word = body.params?.message?.parts?.[0]?.text
    switch (body.method) {
      case "message/send":
      case "tasks/cancel":
        return Response.json({ jsonrpc: "2.0", id: body.id, result: task("t", "working", false) })
      case "tasks/get":
        return Response.json({ jsonrpc: "2.0", id: body.id, error: { code: -32001, message: `Task ${bad} not found` } })
      case "tasks/resubscribe":
        // Resuming finds nothing more: the stream is over without its final event.
        return sse([], "close")
      case "message/stream":
        if (word === "pings") return sse([], "hang")
        if (word === "unfinished") return sse(events(body.id).slice(0, 2), "close")
        return sse(events(body.id), "close")
      default:
        return Response.json({ jsonrpc: "2.0", id: body.id, result: { note: bad } })
    }
  })
})
afterAll(() => server.close())

const cli = async (...argv: Array<string>) => {
  let stdout = ""
  let stderr = ""
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } })
  return { code, stdout, stderr }
}

const expectSafe = (output: string) => {
  expect(output).not.toMatch(control)
  // The fake line is shown inside the field it came in, never as a line of its own.
  for (const line of output.split("\n")) expect(line.startsWith("[status] completed (final) FAKE")).toBe(false)
  // Written out: as our escapes, or as JSON's where the printer shows JSON.
  expect(output).toMatch(/\\x1b\[2J|\\u001b\[2J/)
  expect(output).toContain("\\u{202e}")
}

describe("the a2a command's human output against a hostile agent", () => {
  it("card, send, cancel, get, call and stream print every control sequence escaped", async () => {
    const results = [
      await cli("card", server.url),
      await cli("send", server.url, "hello"),
      await cli("cancel", server.url, "t"),
      await cli("stream", server.url, "go"),
      await cli("call", server.url, "z/b", "{}", "--extension", "urn:x")
    ]
    for (const { code, stdout, stderr } of results) {
      expect(code).toBe(ExitCode.Ok)
      expect(stderr).toBe("")
      expectSafe(stdout)
    }
    const failed = await cli("get", server.url, "t")
    expect(failed.code).toBe(ExitCode.AgentError)
    expect(failed.stderr).not.toMatch(control)
    expect(failed.stderr.trim().split("\n")).toHaveLength(1)
    // Text parts keep their own line breaks.
    expect(results[1]!.stdout).toContain("multi\nline \\x1b[2J")
  })

  it("--json stays exact: the documents are the server's, byte for byte through JSON", async () => {
    const sent = await cli("send", server.url, "hello", "--json")
    expect(JSON.parse(sent.stdout)).toEqual(task("t", "working", false))
    const streamed = await cli("stream", server.url, "go", "--json")
    expect(streamed.stdout.trim().split("\n").map((l) => JSON.parse(l))).toEqual(events("x").map((f) => JSON.parse(f.slice(6)).result))
  })
})

describe("terminalText", () => {
  it("escapes C0 (but tab), DEL, C1, separators and bidi controls; line feeds only on one-line fields", () => {
    expect(terminalText("a\x1b[31mb\rc\bd\x07e\x9bf\u202eg\u2028h\x7f\ti\nj")).toBe("a\\x1b[31mb\\rc\\bd\\x07e\\x9bf\\u{202e}g\\u{2028}h\\x7f\ti\\nj")
    expect(terminalText("one\ntwo\r\n", { multiline: true })).toBe("one\ntwo\\r\n")
    expect(terminalText("plain ünïcödé ✓ 日本")).toBe("plain ünïcödé ✓ 日本")
  })

  it("forTerminal escapes every string and key, keeps text parts' lines, leaves data for its printer, and keeps __proto__ a key", () => {
    const value = JSON.parse('{"kind":"task","__proto__":"\\u001b","parts":[{"kind":"text","text":"a\\nb\\u001b"},{"kind":"data","data":{"k":"\\u001b"}}]}')
    const safe = forTerminal(value) as Record<string, unknown>
    expect(Object.getPrototypeOf(safe)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(safe, "__proto__")?.value).toBe("\\x1b")
    expect(safe["parts"]).toEqual([{ kind: "text", text: "a\nb\\x1b" }, { kind: "data", data: { k: "\x1b" } }])
  })
})

describe("a2a stream's end", () => {
  it("a stream that only sends pings ends after --timeout ms without an event: exit 4, saying so", async () => {
    for (const json of [[], ["--json"]]) {
      const result = await cli("stream", server.url, "pings", "--timeout", "300", ...json)
      expect(result.code).toBe(ExitCode.InvalidAnswer)
      expect(result.stdout).toBe("")
      expect(result.stderr).toContain("no stream event for 300 ms")
    }
  }, 20_000)

  it("a stream that ends without a final event exits 4 after printing what came", async () => {
    const readable = await cli("stream", server.url, "unfinished")
    expect(readable.code).toBe(ExitCode.InvalidAnswer)
    expect(readable.stdout.split("\n").filter((l) => /^\[(task|status|artifact|message)\]/.test(l))).toHaveLength(2)
    expect(readable.stderr).toContain("the stream ended before its final event")
    const machine = await cli("stream", server.url, "unfinished", "--json")
    expect(machine.code).toBe(ExitCode.InvalidAnswer)
    expect(machine.stdout.trim().split("\n")).toHaveLength(2)
  }, 20_000)

  it("a stream with its final event exits 0", async () => {
    expect((await cli("stream", server.url, "go", "--timeout", "5000")).code).toBe(ExitCode.Ok)
  })
})

describe("the a2a command's human output against a hostile A2A 1.0 agent", () => {
  let v1: TestServer
  const v1Task = (state: string) => ({
    id: bad,
    contextId: bad,
    status: { state, timestamp: "2026-01-01T00:00:00.000Z", message: { messageId: bad, role: "ROLE_AGENT", parts: [{ text: `status ${evil}` }] } },
    artifacts: [{ artifactId: bad, name: bad, parts: [{ text: evil }] }],
    history: [{ messageId: bad, role: "ROLE_USER", parts: [{ text: evil }] }]
  })
  beforeAll(async () => {
    v1 = await serveWebHandler(async (request) => {
      const url = new URL(request.url)
      if (url.pathname === "/.well-known/agent-card.json") {
        return Response.json({
          name: `name ${bad}`,
          description: bad,
          version: bad,
          supportedInterfaces: [
            { url: `${url.origin}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: bad },
            { url: `${url.origin}/${bad}`, protocolBinding: "HTTP+JSON", protocolVersion: `1.0 ${bad}` },
            { url: bad, protocolBinding: bad, protocolVersion: bad }
          ],
          capabilities: {},
          defaultInputModes: [bad],
          defaultOutputModes: [bad],
          skills: []
        })
      }
      const body = (await request.json()) as { id: unknown; method: string }
      const result = body.method === "ListTasks"
        ? { tasks: [v1Task("TASK_STATE_WORKING"), v1Task("TASK_STATE_COMPLETED")], nextPageToken: bad, pageSize: 2, totalSize: 7 }
        : { note: bad }
      return Response.json({ jsonrpc: "2.0", id: body.id, result })
    })
  })
  afterAll(() => v1.close())

  it("card lists each interface, its version and tenant escaped; list prints each task and the next page token escaped", async () => {
    const card = await cli("card", v1.url)
    expect(card.code).toBe(ExitCode.Ok)
    expectSafe(card.stdout)
    expect(card.stdout).toContain("(A2A 1.0) (preferred, tenant \\x1b[2J")
    const listed = await cli("list", v1.url, "--history", "1", "--artifacts")
    expect(listed.code).toBe(ExitCode.Ok)
    expect(listed.stderr).toBe("")
    expectSafe(listed.stdout)
    expect(listed.stdout.split("\n")[0]).toBe("2 of 7 tasks, newest first")
    expect(listed.stdout).toMatch(/^Next page: --page-token \\x1b\[2J.*$/m)
    const machine = JSON.parse((await cli("list", v1.url, "--json")).stdout) as { nextPageToken: string }
    expect(machine.nextPageToken).toBe(bad)
  })
})
