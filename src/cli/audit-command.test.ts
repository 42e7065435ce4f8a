import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuditEvent } from "../audit/audit-event.ts"
import { hashChainSink, type ChainHead } from "../audit/hash-chain-sink.ts"
import { verifyChainAsync, ChainReadError } from "../audit/verify-chain.ts"
import { ExitCode, run } from "./run.ts"

const at = "2025-01-01T00:00:00.000Z"
const events: ReadonlyArray<AuditEvent> = [
  { kind: "request", at, method: "message/send", principal: "alice", outcome: "ok", durationMs: 4, requestId: 1 },
  { kind: "task-transition", at, taskId: "t1", from: null, to: "submitted" },
  { kind: "task-transition", at, taskId: "t1", from: "submitted", to: "working" }
]

const writeChain = (hmacKey?: CryptoKey) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const lines: Array<string> = []
      const sink = yield* hashChainSink({ write: async (line) => void lines.push(line), ...(hmacKey === undefined ? {} : { hmacKey }) })
      for (const event of events) yield* sink.record(event)
      return { lines, head: yield* sink.head }
    })
  )

let dir: string
let lines: ReadonlyArray<string>
let head: ChainHead
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "a2a-audit-verify-"))
  ;({ lines, head } = await writeChain())
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const file = async (name: string, content: string) => {
  const path = join(dir, name)
  await writeFile(path, content)
  return path
}

const cli = async (...argv: Array<string>) => {
  let stdout = ""
  let stderr = ""
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } })
  return { code, stdout, stderr }
}

describe("verifyChainAsync", () => {
  it("answers as verifyChain does, as a Promise", async () => {
    expect(await verifyChainAsync(lines, { expectedHead: head })).toEqual({ ok: true, count: 3, head })
    expect(await verifyChainAsync([lines[0]!, lines[2]!])).toMatchObject({ ok: false, line: 2, reason: "seq" })
  })

  it("rejects with ChainReadError when reading the lines fails", async () => {
    async function* failing(): AsyncGenerator<string> {
      yield lines[0]!
      throw new Error("disk gone")
    }
    const error = await verifyChainAsync(failing()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChainReadError)
    expect((error as ChainReadError).cause).toEqual(new Error("disk gone"))
  })
})

describe("a2a-actors audit verify", () => {
  it("says an intact log is intact, with its record count and head, and exits 0", async () => {
    const path = await file("intact.jsonl", lines.join(""))
    const result = await cli("audit", "verify", path)
    expect(result).toEqual({ code: ExitCode.Ok, stdout: `${path}: intact, 3 records; head 3:${head.hash}\n`, stderr: "" })
  })

  it("names the first bad line of a log with a removed line, and exits 1", async () => {
    const path = await file("removed.jsonl", [lines[0], lines[2]].join(""))
    const result = await cli("audit", "verify", path)
    expect(result).toEqual({ code: 1, stdout: `${path}: broken at line 2: seq (expected seq 2, found 3)\n`, stderr: "" })
  })

  it("finds a changed line ending (\\r\\n), which a line reader would hide", async () => {
    const path = await file("crlf.jsonl", lines.map((line) => line.replace("\n", "\r\n")).join(""))
    expect(await cli("audit", "verify", path)).toMatchObject({ code: 1, stdout: expect.stringContaining("broken at line 1: non-canonical") })
  })

  it("with --head, reports a log cut off before the head kept elsewhere", async () => {
    const path = await file("cut.jsonl", lines.slice(0, 2).join(""))
    const result = await cli("audit", "verify", path, "--head", `${head.seq}:${head.hash}`)
    expect(result).toMatchObject({ code: 1, stdout: `${path}: broken at line 3: truncated (log ends at seq 2, expected 3)\n` })
  })

  it("with --json, prints the verification", async () => {
    const path = await file("json.jsonl", lines.join(""))
    const result = await cli("audit", "verify", path, "--json")
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, count: 3, head })
  })

  it("with --hmac-key-file, verifies a chain written with that HMAC key (and without it, does not)", async () => {
    const raw = crypto.getRandomValues(new Uint8Array(32))
    const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    const keyed = await writeChain(key)
    const path = await file("hmac.jsonl", keyed.lines.join(""))
    const keyFile = await file("hmac.key", "")
    await writeFile(keyFile, raw)
    expect(await cli("audit", "verify", path, "--hmac-key-file", keyFile)).toMatchObject({ code: 0, stdout: expect.stringContaining("intact, 3 records") })
    expect(await cli("audit", "verify", path)).toMatchObject({ code: 1, stdout: expect.stringContaining("broken at line 1: hash") })
  })

  it("exits 2 on a file it cannot read", async () => {
    const missing = join(dir, "missing.jsonl")
    expect(await cli("audit", "verify", missing)).toEqual({ code: ExitCode.Usage, stdout: "", stderr: `a2a: cannot read ${missing}: ENOENT\n` })
    expect(await cli("audit", "verify", await file("ok.jsonl", lines.join("")), "--hmac-key-file", missing))
      .toEqual({ code: ExitCode.Usage, stdout: "", stderr: `a2a: cannot read the HMAC key ${missing}: ENOENT\n` })
  })

  it("refuses a malformed command line with a usage error", async () => {
    const cases: ReadonlyArray<[ReadonlyArray<string>, string]> = [
      [["audit"], "audit needs an action: audit verify <file>"],
      [["audit", "check", "x.jsonl"], 'unknown audit action "check"'],
      [["audit", "verify"], "audit verify needs the audit log's file"],
      [["audit", "verify", "a.jsonl", "b.jsonl"], 'unexpected argument "b.jsonl"'],
      [["audit", "verify", "a.jsonl", "--head", "3"], "--head expects <seq>:<64 hex digits>"],
      [["audit", "verify", "a.jsonl", "--token", "t"], "--token does not apply to audit"],
      [["send", "http://127.0.0.1:1", "hi", "--head", `1:${"0".repeat(64)}`], "--head does not apply to send (it applies to audit)"]
    ]
    for (const [argv, message] of cases) {
      const result = await cli(...argv)
      expect(result.code, argv.join(" ")).toBe(ExitCode.Usage)
      expect(result.stderr, argv.join(" ")).toContain(message)
    }
  })
})
