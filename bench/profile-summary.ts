/**
 * Summarises V8 `.cpuprofile` files (from `npm run bench -- --profile <contender>`): the functions
 * with the most self time, and self time per package.
 *
 * Usage: npx tsx bench/profile-summary.ts bench/results/profiles/*.cpuprofile [--top 25]
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}

interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** Self time (ms) by function and by package across `files`, most expensive first. */
export const summarise = (files: ReadonlyArray<string>) => {
  const byFunction = new Map<string, number>()
  const byPackage = new Map<string, number>()
  let total = 0
  for (const path of files) {
    const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000
      const frame = nodes.get(id)?.callFrame
      if (frame === undefined) return
      total += ms
      const where = frame.url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "")
      const key = `${frame.functionName || "(anonymous)"}  ${where.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`
      byFunction.set(key, (byFunction.get(key) ?? 0) + ms)
      const pkg = frame.url === "" ? frame.functionName : where.startsWith("/") || where.startsWith(".cache/") ? "(project)" : where.startsWith("@") ? where.split("/").slice(0, 2).join("/") : where.split("/")[0] ?? where
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms)
    })
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1])
  return { total, functions: sorted(byFunction), packages: sorted(byPackage) }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2)
  const topAt = args.indexOf("--top")
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 25
  const files = args.filter((a, i) => a.endsWith(".cpuprofile") && (topAt < 0 || i !== topAt + 1))
  const { total, functions, packages } = summarise(files)
  const pct = (ms: number) => `${((ms / total) * 100).toFixed(1).padStart(5)}%`
  process.stdout.write(`total sampled ${total.toFixed(0)} ms\n\nself time by package\n`)
  for (const [name, ms] of packages.slice(0, 12)) process.stdout.write(`${pct(ms)}  ${ms.toFixed(0).padStart(7)} ms  ${name}\n`)
  process.stdout.write(`\nself time by function\n`)
  for (const [name, ms] of functions.slice(0, top)) process.stdout.write(`${pct(ms)}  ${ms.toFixed(0).padStart(7)} ms  ${name}\n`)
}
