import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { clientChecks } from "./client-checks.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const here = "conformance/client-runtimes"

/** How each runtime runs the check program; Bun and Deno come from the npm dev dependencies. */
const runtimes = {
  node: [process.execPath, ["--import", "tsx", `${here}/run-node.ts`]],
  bun: [`${root}node_modules/bun/bin/bun.exe`, [`${here}/run-bun.ts`]],
  deno: [`${root}node_modules/deno/deno`, ["run", "--allow-net", "--allow-env", "--allow-read", `${here}/run-deno.ts`]]
} as const satisfies Record<string, readonly [string, ReadonlyArray<string>]>

/** Bound of one whole program run (it takes a few seconds; a cold Deno or Bun start adds some). */
const RUN_TIMEOUT_MS = 90_000

interface ProgramRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const runProgram = (command: string, args: ReadonlyArray<string>): Promise<ProgramRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (data: Buffer) => void (stdout += data.toString()))
    child.stderr.on("data", (data: Buffer) => void (stderr += data.toString()))
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${command} did not finish within ${RUN_TIMEOUT_MS} ms:\n${stdout}\n${stderr}`))
    }, RUN_TIMEOUT_MS)
    child.once("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.once("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

describe.each(Object.entries(runtimes))("the client on %s", (runtime, [command, args]) => {
  it("passes every client check against the runtime's own server", async () => {
    const { code, stdout, stderr } = await runProgram(command, args)
    const lines = stdout.split("\n").filter((line) => line !== "")
    const failing = lines.filter((line) => line.startsWith(`[${runtime}] FAIL`))
    const passing = new Set(
      lines.flatMap((line) => {
        const match = new RegExp(`^\\[${runtime}\\] ok - (.*) \\(\\d+ ms\\)$`).exec(line)
        return match === null ? [] : [match[1]!]
      })
    )
    const missing = clientChecks.map((c) => c.name).filter((name) => !passing.has(name))
    const report = [`exit code ${code}`, ...failing, ...(failing.length === 0 ? [stdout, stderr.slice(-2_000)] : [])].join("\n")
    expect(failing, report).toEqual([])
    expect(missing, report).toEqual([])
    expect(lines.at(-1), report).toBe(`${clientChecks.length} passed, 0 failed`)
    expect(code, report).toBe(0)
  }, RUN_TIMEOUT_MS + 5_000)
})
