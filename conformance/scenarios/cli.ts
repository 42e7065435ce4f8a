/**
 * Command line: `npm run conformance -- --url <jsonrpc-url> [--filter <text>] [--timeout <ms>] [--webhook <url>]`,
 * or with `--rest` the REST scenarios against a REST base URL (`npm run conformance:rest -- --url <base-url>/`).
 * Prints one line per scenario and a final `N passed, M failed[, K skipped]`; exits 1 when any failed.
 */
import { runRestScenarios } from "../scenarios-rest/run.ts"
import { resultLine, runScenarios, summaryLine } from "./run.ts"

interface ProcessLike {
  readonly argv: ReadonlyArray<string>
  exitCode?: number | string | undefined
}

const proc = (globalThis as unknown as { process: ProcessLike }).process

const usage = "usage: conformance [--rest] --url <jsonrpc-url | rest-base-url> [--filter <text>] [--timeout <ms>] [--webhook <url>]"

const parse = (argv: ReadonlyArray<string>): Map<string, string> => {
  const out = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith("--")) continue
    if (arg === "--rest") {
      out.set("rest", "true")
      continue
    }
    const eq = arg.indexOf("=")
    if (eq !== -1) out.set(arg.slice(2, eq), arg.slice(eq + 1))
    else out.set(arg.slice(2), argv[++i] ?? "")
  }
  return out
}

const main = async (): Promise<number> => {
  const args = parse(proc.argv.slice(2))
  const url = args.get("url")
  if (url === undefined || url === "") {
    console.error(usage)
    return 2
  }
  const timeout = args.get("timeout")
  const filter = args.get("filter")
  const webhookUrl = args.get("webhook")
  const run = args.has("rest") ? runRestScenarios : runScenarios
  const report = await run({
    url,
    ...(filter !== undefined ? { filter } : {}),
    ...(timeout !== undefined ? { timeoutMs: Number(timeout) } : {}),
    ...(webhookUrl !== undefined ? { webhookUrl } : {}),
    onResult: (r) => console.log(resultLine(r))
  })
  console.log(summaryLine(report))
  return report.failed > 0 ? 1 : 0
}

main().then(
  (code) => {
    proc.exitCode = code
  },
  (e: unknown) => {
    console.error(e)
    proc.exitCode = 1
  }
)
