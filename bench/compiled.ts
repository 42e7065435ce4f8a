/**
 * Runs an in-process bench script as compiled JavaScript: a TypeScript loader (tsx) wraps every function
 * with name-keeping and source-map shims, which costs a large share of a microsecond-scale step and would
 * be measured instead of the code. Node runs what users deploy, so the script is bundled once with
 * esbuild (its packages left as imports) and re-run under plain node.
 */
import { spawnSync } from "node:child_process"
import { rmSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { buildSync } from "esbuild"

const marker = "--compiled"
// The bundle lives elsewhere, so the compiled run learns the repository root from the loader run.
const root = process.env["A2A_BENCH_ROOT"] ?? fileURLToPath(new URL("../", import.meta.url))

/** Where bench results are recorded (the same in the loader run and the compiled one). */
export const resultsDir = `${root}bench/results/`

/**
 * In the run started with tsx: bundles `script` (the caller's `import.meta.url`), runs it under node with
 * the same arguments, and exits with its status; it never returns. In the compiled run: returns, and the
 * caller measures.
 */
export const runCompiled = (script: string): void => {
  if (process.argv.includes(marker)) return
  const path = fileURLToPath(script)
  // One bundle per run (another checkout sharing node_modules may be running the same script), removed after.
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.ts$/, `-${process.pid}.mjs`)
  const out = `${root}node_modules/.cache/a2a-actors-bench/${name}`
  buildSync({ entryPoints: [path], outfile: out, bundle: true, platform: "node", format: "esm", target: "node24", packages: "external", logLevel: "error" })
  const run = spawnSync(process.execPath, [out, ...process.argv.slice(2), marker], {
    stdio: "inherit",
    env: { ...process.env, A2A_BENCH_ROOT: root }
  })
  rmSync(out, { force: true })
  process.exit(run.status ?? 1)
}
