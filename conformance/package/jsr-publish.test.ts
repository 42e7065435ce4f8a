/**
 * The package as JSR would take it: `deno publish --dry-run` from the same source that npm's build compiles,
 * with deno.json's exports, type-checked by Deno and checked for slow types (every export's type written
 * out, so that JSR users' type checks need not infer it). The dry run needs no network: Deno reads the
 * npm packages from node_modules.
 *
 * When it fails, the test names each problem by file, line and symbol. Slow types are fixed with an
 * explicit type on the export: schemas as `Schema.Struct<{ readonly id: Schema.String; ... }>` (see
 * schemas/task.ts), machines as a `StateMachine<...>` alias (machines/task-machine.ts), tagged error classes
 * through a base variable of an explicit type (schemas/error-catalogue.ts, src/runtime/task-store.ts).
 */
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { childEnv } from "./fresh-project.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const deno = `${root}node_modules/deno/deno`

interface DryRun {
  readonly code: number | null
  /** Deno's output without colours. */
  readonly output: string
}

const dryRun = () =>
  new Promise<DryRun>((resolve) => {
    execFile(deno, ["publish", "--dry-run", "--allow-dirty"], {
      cwd: root,
      env: { ...childEnv(), NO_COLOR: "1" },
      timeout: 240_000,
      maxBuffer: 64 * 1024 * 1024
    }, (error, stdout, stderr) =>
      resolve({
        code: error === null ? 0 : typeof error.code === "number" ? error.code : null,
        output: `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, "")
      }))
  })

/** Each problem as one line: `file:line: kind: the source line` (type errors: Deno's own first line). */
const problems = (output: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const match of output.matchAll(/^error\[([\w-]+)\]: .*\n\s*--> (?:file:\/\/)?(\S+?):(\d+):\d+\n(?:.*\n){1,2}?\s*\d+ \| (.*)$/gm)) {
    found.push(`${match[2]!.replace(root, "")}:${match[3]}: ${match[1]}: ${match[4]!.trim()}`)
  }
  for (const match of output.matchAll(/^(TS\d+) \[ERROR\]: (.*)\n(?:[\s\S]*?)at (?:file:\/\/)?(\S+?):(\d+):\d+/gm)) {
    found.push(`${match[3]!.replace(root, "")}:${match[4]}: ${match[1]}: ${match[2]}`)
  }
  return found
}

describe("deno publish --dry-run (JSR)", () => {
  it("passes from the same source: Deno's type check, no slow types, only the published files", async () => {
    const ran = await dryRun()
    const found = problems(ran.output)
    expect(found, `deno publish --dry-run found problems (fix each; see this file's comment):\n${found.join("\n")}`).toEqual([])
    expect(ran.output, ran.output.slice(-4000)).toContain("Success Dry run complete")
    expect(ran.code).toBe(0)
    // What it would publish: the sources of the entry points, the docs and the license, no tests or test support.
    const files = [...ran.output.matchAll(/^\s+file:\/\/\S*?\/((?:src|schemas|machines|docs|testing|conformance|bench|examples)\/\S+|[\w.-]+) \(/gm)].map((m) => m[1]!)
    expect(files).toEqual(expect.arrayContaining(["README.md", "LICENSE", "deno.json", "src/index.ts", "schemas/index.ts", "docs/agents.md"]))
    expect(files.filter((file) => /\.test\.ts$|^(testing|conformance|bench|examples)\/|^package(-lock)?\.json$/.test(file))).toEqual([])
  }, 300_000)
})
