import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { connect, type AddressInfo, type Socket } from "node:net"
import { join } from "node:path"
import { createServer as createTlsServer, type Server as TlsServer } from "node:tls"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { demoAgent } from "../../examples/agents/demo.ts"
import type { Listening } from "../adapters/listening.ts"
import { serveNode } from "../adapters/node.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { makeTlsFixture, opensslAvailable } from "../../testing/server/tls-fixture.ts"
import { ExitCode, run } from "./run.ts"

let demo: Listening
let dir: string
const main = fileURLToPath(new URL("./main.ts", import.meta.url))

beforeAll(async () => {
  demo = await serveNode(await A2AServer.make(demoAgent))
  dir = await mkdtemp(join(tmpdir(), "a2a-bench-"))
})
afterAll(async () => {
  await demo.close({ graceMs: 0 })
  await rm(dir, { recursive: true, force: true })
})

/** Runs the real command (tsx and src/cli/main.ts) to its end. */
const a2a = (...args: Array<string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, ["--import", "tsx", main, ...args], { timeout: 30_000 }, (_e, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }))
  })

/** Runs `run` in this process, stderr a terminal or not. */
const cli = async (tty: boolean, ...argv: Array<string>) => {
  let stdout = ""
  let stderr = ""
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s), isTTY: tty } })
  return { code, stdout, stderr }
}

describe("a2a bench", () => {
  it("runs, prints its bounds first, the figures and a histogram; --json saves a result that --compare reads", async () => {
    const text = await a2a("bench", demo.url, "--requests", "40", "--concurrency", "4")
    expect(text.code).toBe(ExitCode.Ok)
    expect(text.stderr).toMatch(/^a2a bench: send over JSON-RPC \(A2A 1\.0\) to http:\/\/127\.0\.0\.1:\d+\/: at most 4 in flight, at most 40 requests; each request times out after 30 s\n$/)
    expect(text.stdout).toContain("requests     40 ok, 0 failed")
    expect(text.stdout).toMatch(/latency      p50 [\d.]+ ms {2}p90 [\d.]+ ms {2}p99 [\d.]+ ms {2}max [\d.]+ ms/)
    expect(text.stdout).toContain("latency histogram")
    expect(text.stdout).toMatch(/\| █+ +\d+ +[\d.]+%/)
    // Piped: no progress line.
    expect(text.stderr).not.toContain("\r")

    const files = [join(dir, "a.json"), join(dir, "b.json")] as const
    for (const [file, transport] of [[files[0], "jsonrpc"], [files[1], "rest"]] as const) {
      const saved = await a2a("bench", demo.url, "--workload", "stream", "--transport", transport, "--message", "count 2", "--numbered-chunks", "--requests", "8", "--concurrency", "4", "--json")
      expect(saved.code).toBe(ExitCode.Ok)
      const result = JSON.parse(saved.stdout)
      expect(result).toMatchObject({ format: "a2a-bench/1", workload: "stream", requests: { ok: 8, failed: 0 }, events: { chunks: 16 } })
      await writeFile(file, saved.stdout)
    }
    const compared = await a2a("bench", "--compare", ...files)
    expect(compared.code).toBe(ExitCode.Ok)
    expect(compared.stdout).toContain("a: " + files[0])
    expect(compared.stdout).toMatch(/throughput \/s +[\d.]+ +[\d.]+ +[\d.]+x/)
    expect(compared.stdout).toMatch(/first event p99 ms/)
  }, 60_000)

  it("draws a live progress line on a terminal only", async () => {
    const tty = await cli(true, "bench", demo.url, "--duration", "700ms", "--concurrency", "2")
    expect(tty.code).toBe(ExitCode.Ok)
    // Counts and rates are grouped by thousands ("1,104/s") on a fast machine.
    expect(tty.stderr).toMatch(/\r\x1b\[2K {2}[\d.]+ s {2}[\d,]+ ok {2}0 errors {2}[\d,]+\/s/)
    const piped = await cli(false, "bench", demo.url, "--duration", "300ms", "--concurrency", "2")
    expect(piped.stderr).not.toContain("\r")
  })

  it("reports failures by kind and exits 1", async () => {
    // count takes 1 to 1000: "count 0" is rejected by the agent, so every send ends rejected.
    const failed = await cli(false, "bench", demo.url, "--message", "count 0", "--requests", "3")
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain("0 ok, 3 failed")
    expect(failed.stdout).toMatch(/3 {2}validation: final state: the task ended rejected/)
  })

  it("refuses a remote target and bad options with exit code 2, before sending anything", async () => {
    const remote = await a2a("bench", "http://192.0.2.1:8080/")
    expect(remote.code).toBe(ExitCode.Usage)
    expect(remote.stderr).toContain("refusing to load-test 192.0.2.1: it is not this machine")
    expect(remote.stderr).toContain("--allow-remote")
    const cases: ReadonlyArray<[Array<string>, string]> = [
      [["--concurrency", "0"], "--concurrency expects a positive whole number"],
      [["--concurrency", "1001"], "concurrency must be a whole number from 1 to 1,000"],
      [["--duration", "11m"], "duration (ms) must be a whole number from 100 to 600,000"],
      [["--duration", "soon"], "--duration expects a time such as 30s"],
      [["--workload", "fly"], "--workload expects one of send, stream, resubscribe"],
      [["--transport", "grpc"], "--transport expects jsonrpc, rest or auto"],
      [["--drop-after", "2"], "--drop-after applies to --workload resubscribe"],
      [["--message", "a", "--message-file", "m.json"], "give --message or --message-file, not both"],
      [["--message-file", join(dir, "missing.json")], "cannot read --message-file"],
      [["--history", "1"], "--history does not apply to bench"]
    ]
    for (const [args, message] of cases) {
      const result = await cli(false, "bench", demo.url, ...args)
      expect(result.code, args.join(" ")).toBe(ExitCode.Usage)
      expect(result.stderr).toContain(message)
    }
    const notResult = join(dir, "not-a-result.json")
    await writeFile(notResult, "{}")
    expect((await cli(false, "bench", "--compare", notResult, notResult)).stderr).toContain("is not a result of a2a bench --json")
  })

  it("sends the JSON Message of --message-file", async () => {
    const file = join(dir, "message.json")
    await writeFile(file, JSON.stringify({ kind: "message", role: "user", parts: [{ kind: "text", text: "count 2" }], metadata: { skill: "count" } }))
    const result = await cli(false, "bench", demo.url, "--workload", "stream", "--message-file", file, "--numbered-chunks", "--requests", "2", "--json")
    expect(JSON.parse(result.stdout)).toMatchObject({ requests: { ok: 2 }, events: { chunks: 4 }, options: { message: "count 2" } })
  })
})

describe.skipIf(!opensslAvailable())("a2a bench against an agent behind TLS with a self-signed certificate (openssl)", () => {
  // A TLS front on 127.0.0.1 with a self-signed certificate, passing the bytes to the demo agent, whose
  // card names the front's https URL.
  let front: TlsServer
  let behind: Listening
  let url: string
  const sockets = new Set<Socket>()

  beforeAll(async () => {
    const { selfSignedServer } = makeTlsFixture()
    front = createTlsServer({ key: selfSignedServer.key, cert: selfSignedServer.cert }, (socket) => {
      const upstream = connect(Number(new URL(behind.url).port), "127.0.0.1")
      for (const s of [socket, upstream]) {
        sockets.add(s)
        s.on("error", () => s.destroy())
        s.on("close", () => sockets.delete(s))
      }
      socket.on("close", () => upstream.destroy())
      upstream.on("close", () => socket.destroy())
      socket.pipe(upstream).pipe(socket)
    })
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve))
    url = `https://127.0.0.1:${(front.address() as AddressInfo).port}/`
    behind = await serveNode(await A2AServer.make(demoAgent, { publicUrl: url }))
  })
  afterAll(async () => {
    for (const s of sockets) s.destroy()
    await new Promise<void>((resolve) => (front === undefined ? resolve() : front.close(() => resolve())))
    await behind?.close({ graceMs: 0 })
  })

  it("refuses the certificate with a clear message and exit 3, and accepts it with --insecure", async () => {
    const refused = await cli(false, "bench", url, "--requests", "5")
    expect(refused.code).toBe(ExitCode.Transport)
    expect(refused.stdout).toBe("")
    expect(refused.stderr).toContain(`a2a: the TLS certificate of ${new URL(url).host} does not verify: self-signed certificate`)
    expect(refused.stderr).toMatch(/If this is your own agent with a self-signed certificate, add --insecure \(insecure: true\) to accept it\.\n$/)
    expect(refused.stderr).not.toContain("Is the agent running")

    const sent = await cli(false, "bench", url, "--insecure", "--requests", "10", "--concurrency", "2", "--json")
    expect(sent.code).toBe(ExitCode.Ok)
    expect(JSON.parse(sent.stdout)).toMatchObject({ endpoint: url, workload: "send", requests: { started: 10, ok: 10, failed: 0 }, errors: [] })
    const streamed = await cli(false, "bench", url, "--insecure", "--workload", "stream", "--message", "count 2", "--numbered-chunks", "--requests", "4", "--concurrency", "4", "--json")
    expect(streamed.code).toBe(ExitCode.Ok)
    expect(JSON.parse(streamed.stdout)).toMatchObject({ endpoint: url, requests: { ok: 4, failed: 0 }, events: { chunks: 8 } })
  })
})
