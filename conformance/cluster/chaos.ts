/**
 * `npm run chaos`: the cluster's race, chaos, hand-over and restart tests, round after round
 * (`CHAOS_ROUNDS`, default 20), beside a CPU hog that keeps every core busy. Each round starts
 * fresh clusters (Node, Bun and Deno instances on PostgreSQL, `A2A_TEST_DATABASE_URL`, default the
 * local server), runs cancels racing completions, mixed load while an instance's database
 * connections are cut, an instance stopped (SIGSTOP) past its lease and resumed, one killed
 * (SIGKILL) under a stream, a graceful stop, and a restart on each runtime, checking every answer
 * against what the database holds. After each round it prints the result and the size of each
 * PostgreSQL table of the chaos schema; at the end, how many rounds failed (the exit code is 1 if any).
 *
 * It is not part of `npm test` (which runs each of these tests once): a round takes a minute or two.
 *
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))
const files = [
  "conformance/cluster/cluster-chaos.test.ts",
  "conformance/cluster/handover.test.ts",
  "src/store/postgres/lost-tasks.test.ts",
  "src/store/postgres/restart.test.ts"
]

const rounds = Number(process.env["CHAOS_ROUNDS"] ?? 20)
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(`CHAOS_ROUNDS must be a whole number of at least 1, got ${JSON.stringify(process.env["CHAOS_ROUNDS"])}\n`)
  process.exit(2)
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`

/** One busy loop per core, at the same priority as everything else. */
const startHog = (): Array<ChildProcess> =>
  Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }))

const runRound = (env: NodeJS.ProcessEnv, log: string) =>
  new Promise<{ readonly code: number; readonly output: string }>((resolve) => {
    const child = spawn(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", ...files], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (d: Buffer) => { output += d.toString() })
    child.stderr.on("data", (d: Buffer) => { output += d.toString() })
    child.once("exit", (code) => {
      void writeFile(log, output).then(() => resolve({ code: code ?? 1, output }))
    })
  })

const main = async () => {
  const dir = await mkdtemp(join(tmpdir(), "a2a-chaos-"))
  const hog = startHog()
  const stopHog = () => {
    for (const p of hog) p.kill("SIGKILL")
  }
  process.once("SIGINT", () => {
    stopHog()
    process.exit(130)
  })
  process.stdout.write(`chaos: ${rounds} rounds of ${files.length} test files beside ${hog.length} busy loops; logs in ${dir}\n`)
  let failed = 0
  try {
    for (let round = 1; round <= rounds; round++) {
      const sizes = join(dir, `sizes-${round}.jsonl`)
      const log = join(dir, `round-${round}.log`)
      const started = Date.now()
      const { code, output } = await runRound({
        ...process.env,
        A2A_TEST_DATABASE_URL: process.env["A2A_TEST_DATABASE_URL"] || "postgres://postgres@127.0.0.1:5432/test",
        A2A_TABLE_SIZES_FILE: sizes,
        NO_COLOR: "1",
        FORCE_COLOR: "0"
      }, log)
      const seconds = ((Date.now() - started) / 1000).toFixed(0)
      const tests = /Tests\s+(.*)/.exec(output)?.[1]?.trim() ?? "no summary"
      if (code !== 0) failed++
      process.stdout.write(`round ${round}/${rounds}: ${code === 0 ? "passed" : "FAILED"} in ${seconds} s (${tests})\n`)
      if (code !== 0) {
        const failures = output.split("\n").filter((l) => /FAIL|AssertionError|Error:|×/.test(l)).slice(0, 30)
        process.stdout.write(`${failures.map((l) => `  ${l}`).join("\n")}\n  (whole output: ${log})\n`)
      }
      const measured = await readFile(sizes, "utf8").catch(() => "")
      for (const line of measured.split("\n").filter(Boolean)) {
        const { file, tables } = JSON.parse(line) as { file: string; tables: Array<{ table: string; rows: number; bytes: number }> }
        process.stdout.write(`  tables of ${file}: ${tables.map((t) => `${t.table} ${t.rows} rows ${kib(t.bytes)}`).join(", ")}\n`)
      }
    }
  } finally {
    stopHog()
  }
  process.stdout.write(`chaos: ${rounds - failed} of ${rounds} rounds passed, ${failed} failed\n`)
  if (failed === 0) await rm(dir, { recursive: true, force: true })
  process.exit(failed === 0 ? 0 : 1)
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
  process.exit(1)
})
