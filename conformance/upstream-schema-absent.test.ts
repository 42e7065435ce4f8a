import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { upstreamDefinitionNames } from "./upstream-definitions.ts"

/*
 * A clone without the upstream folder, simulated with A2A_SCHEMA_DIR: a child vitest runs the coverage test
 * (the one with the most generated tests) and the presence check, and the report must show every test
 * registered, skipped with the reason, or the one failure CI needs.
 */

const root = fileURLToPath(new URL("..", import.meta.url))
const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs")
const files = ["schemas/coverage.test.ts", "conformance/upstream-schema.test.ts"]
const out = mkdtempSync(path.join(tmpdir(), "a2a-absent-"))
afterAll(() => rmSync(out, { recursive: true, force: true }))

interface Report {
  readonly numTotalTests: number
  readonly numPassedTests: number
  readonly numFailedTests: number
  readonly numPendingTests: number
  readonly testResults: ReadonlyArray<{
    readonly assertionResults: ReadonlyArray<{ readonly fullName: string; readonly status: string; readonly failureMessages: ReadonlyArray<string> }>
  }>
}

const runWithout = (ci: boolean) =>
  new Promise<{ readonly code: number | null; readonly stdout: string; readonly report: Report }>((resolve, reject) => {
    // The child is a fresh run: nothing of this worker's vitest environment, and CI exactly as asked.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "CI" && k !== "NODE_ENV"))
    const json = path.join(out, `report-${ci ? "ci" : "local"}.json`)
    const child = execFile(
      process.execPath,
      [vitest, "run", ...files, "--reporter=verbose", "--reporter=json", `--outputFile.json=${json}`, "--color=false"],
      { cwd: root, env: { ...env, A2A_SCHEMA_DIR: "/nonexistent/a2a-0.3.0", ...(ci ? { CI: "true" } : {}) }, timeout: 90_000 },
      (error, stdout) => {
        try {
          resolve({ code: child.exitCode, stdout, report: JSON.parse(readFileSync(json, "utf8")) as Report })
        } catch (e) {
          reject(new Error(`the child vitest left no report (${String(error ?? e)}):\n${stdout}`))
        }
      }
    )
  })

const tests = (report: Report) => report.testResults.flatMap((file) => file.assertionResults)

// 1 list check + 93 "is exported" + 93 "names itself", then the presence check.
const coverageTests = 1 + 2 * upstreamDefinitionNames.length

describe("without the upstream folder", () => {
  it("a developer's run registers every test that needs it as skipped, with the reason", async () => {
    const { code, report, stdout } = await runWithout(false)
    expect(code).toBe(0)
    expect(report.numFailedTests).toBe(0)
    const skipped = tests(report).filter((t) => t.status === "pending" || t.status === "skipped")
    const needing = skipped.filter((t) => t.fullName.startsWith("every upstream A2A 0.3.0 definition has a schema"))
    expect(needing).toHaveLength(coverageTests)
    expect(needing.map((t) => t.fullName)).toContain("every upstream A2A 0.3.0 definition has a schema AgentCard is exported as an Effect Schema")
    expect(skipped.some((t) => t.fullName.includes("is beside the project"))).toBe(true)
    // The verbose reporter prints each skip's note: the folder looked in and the variable to set.
    const notes = stdout.split("\n").filter((line) => line.includes("[the pinned upstream A2A 0.3.0 schema is absent"))
    expect(notes.length).toBe(coverageTests + 1)
    expect(notes.every((line) => line.includes("/nonexistent/a2a-0.3.0") && line.includes("A2A_SCHEMA_DIR"))).toBe(true)
  })

  it("a CI run (CI=true) fails with one test naming the expected folder and A2A_SCHEMA_DIR", async () => {
    const { code, report } = await runWithout(true)
    expect(code).toBe(1)
    const failed = tests(report).filter((t) => t.status === "failed")
    expect(failed.map((t) => t.fullName)).toEqual(["the pinned upstream A2A 0.3.0 schema is beside the project for the tests that check against it"])
    expect(failed[0]!.failureMessages.join("\n")).toMatch(/\/nonexistent\/a2a-0\.3\.0[\s\S]*A2A_SCHEMA_DIR/)
    expect(tests(report).filter((t) => t.status === "pending" || t.status === "skipped")).toHaveLength(coverageTests)
  })
})
