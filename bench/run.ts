/**
 * The bench: every contender in its own process, the same load client, the workloads of
 * PERFORMANCE.md, contenders interleaved round-robin and the median round reported.
 *
 * Usage:
 *   npm run bench                              full run (about 5 minutes on 2 cores)
 *   npm run bench -- --quick                   a smoke test: every workload, reduced (under a minute); its
 *                                              ratios are not the full run's, and it says so
 *   npm run bench -- --only a2a-js             one contender (repeatable; `a2a-actors:bun` picks a runtime,
 *                                              `a2a-actors:node:1.0` the A2A 1.0 rows, `a2a-js-v1` the SDK 1.3)
 *   npm run bench -- --workload one-stream     one workload (repeatable)
 *   npm run bench -- --profile a2a-actors:node writes `node --cpu-prof` profiles of that contender to bench/results/profiles/
 *   npm run bench -- --log-window default     this project's server with its default event-log window
 *   npm run bench -- --cluster                memory vs PostgreSQL, one instance vs three (see cluster.ts)
 *
 * This project's server runs with terminal tasks living 2 s (so the memory workload sees eviction)
 * and, unless told otherwise, an event-log window larger than the longest stream: with a smaller
 * one, a reader that falls behind a fast agent is resynchronised with a Task snapshot and never
 * sees the chunks in between, which the load client rejects as a wrong answer.
 *
 * Prints a table (contender by workload, with ratios to the JS SDK and to the batched raw ceiling)
 * and writes the rows to bench/results/latest.json (a full run), quick.json (`--quick`) or
 * partial.json (a run narrowed by `--only`, `--workload`, `--profile` or `--log-window`).
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { contenderSpecs, labelOf, startContender, type ContenderSpec, type RunningContender } from "./contender-process.ts"
import { makeTarget, type Target } from "../src/bench/load-client.ts"
import { formatTable, unitOf, withRatios, workloadNames, type Row, type WorkloadName } from "./report.ts"
import { manyStreams, memory, oneStream, taskThroughput, withServerCpu, type Measurement } from "./workloads.ts"
import { runClusterMain } from "./cluster.ts"
import { startOtlpSink } from "./otlp-sink.ts"

/** How big each workload is. */
export interface Sizes {
  readonly rounds: number
  readonly oneStreamChunks: number
  readonly streams: number
  readonly streamChunks: number
  readonly concurrency: number
  readonly throughputMs: number
  readonly memoryTasks: number
  /** The memory workload stops sending after this long even if `memoryTasks` were not all done. */
  readonly memoryMaxMs: number
  /** Time to live of terminal tasks in this project's store during the bench. */
  readonly ttlMs: number
  /** Whether each contender gets a short unmeasured run of each workload first. */
  readonly warmup: boolean
  /**
   * How long that run lasts for task throughput. A server's CPU per task keeps falling for its first few
   * seconds under load (this project's Node server: 446, 374 and 278 us in three rounds after 0.3 s), so a
   * full run warms each contender until it is steady.
   */
  readonly taskWarmupMs: number
}

/** The full run: the sizes PERFORMANCE.md names. */
export const fullSizes: Sizes = {
  rounds: 3,
  oneStreamChunks: 100_000,
  streams: 64,
  streamChunks: 1_000,
  concurrency: 32,
  throughputMs: 2_500,
  memoryTasks: 100_000,
  memoryMaxMs: 15_000,
  ttlMs: 2_000,
  warmup: true,
  taskWarmupMs: 5_000
}

/** `--quick`: every workload, reduced. */
export const quickSizes: Sizes = {
  rounds: 1,
  oneStreamChunks: 20_000,
  streams: 16,
  streamChunks: 500,
  concurrency: 32,
  throughputMs: 1_000,
  memoryTasks: 2_000,
  memoryMaxMs: 3_000,
  ttlMs: 500,
  warmup: true,
  taskWarmupMs: 300
}

/** What to run. */
export interface BenchOptions {
  readonly sizes: Sizes
  /** Contender filters: `a2a-js`, `a2a-actors`, or `a2a-actors:bun` (contender:runtime). Empty = all. */
  readonly only?: ReadonlyArray<string>
  readonly workloads?: ReadonlyArray<WorkloadName>
  /** Replaces the contender list (tests use it to plant a wrong answer). */
  readonly specs?: ReadonlyArray<ContenderSpec>
  /**
   * Events a task's log keeps in this project's server. Default: room for the whole one-stream
   * workload, so a full-speed reader is never resynchronised; `"default"`: the runtime's own.
   */
  readonly logWindow?: number | "default"
  /** Node flags for the contenders matched by `profile` (e.g. `--cpu-prof`). */
  readonly profile?: { readonly match: string; readonly runtimeArgs: ReadonlyArray<string> }
  readonly log?: (line: string) => void
}

/** `contender`, `contender:runtime` or `contender:runtime:version` (`a2a-actors:node:1.0`). */
const matches = (filter: string, spec: ContenderSpec) => {
  const [contender, runtime, version] = filter.split(":")
  return spec.contender === contender && (runtime === undefined || runtime === "" || spec.runtime === runtime) &&
    (version === undefined || (spec.protocol ?? "0.3") === version)
}

/** Whether `spec` runs `workload` (the 1.0 rows run some only). */
const runs = (spec: ContenderSpec, workload: WorkloadName) => spec.workloads === undefined || spec.workloads.includes(workload)

const primaryMetric: Record<WorkloadName, string> = {
  "one-stream": "events_per_s",
  "many-streams": "events_per_s",
  "task-throughput": "tasks_per_s",
  memory: "rss_mb"
}

/** Rows of one contender on one workload from its rounds: the median round by the primary metric. */
const rowsOf = (workload: WorkloadName, spec: ContenderSpec, rounds: ReadonlyArray<Measurement>): Array<Row> => {
  const primary = primaryMetric[workload]
  const bad = rounds.find((m) => !m.ok)
  const sorted = [...rounds].sort((a, b) => (a.values[primary] ?? 0) - (b.values[primary] ?? 0))
  const median = sorted[Math.floor((sorted.length - 1) / 2)]
  if (median === undefined) return []
  return Object.entries(median.values).map(([metric, value]) => ({
    workload,
    contender: spec.contender,
    runtime: spec.runtime,
    protocol: spec.protocol ?? "0.3",
    metric,
    value: bad === undefined ? value : 0,
    unit: unitOf(metric),
    ...(metric === primary && median.p50_ms !== undefined ? { p50_ms: median.p50_ms } : {}),
    ...(metric === primary && median.p99_ms !== undefined ? { p99_ms: median.p99_ms } : {}),
    valid: bad === undefined,
    ...(bad?.error === undefined ? {} : { error: bad.error }),
    rounds: rounds.map((m) => m.values[metric] ?? 0)
  }))
}

const measure = (workload: WorkloadName, target: Target, sizes: Sizes, warm: boolean): Promise<Measurement> => {
  switch (workload) {
    case "one-stream":
      return oneStream(target, warm ? Math.min(2_000, sizes.oneStreamChunks) : sizes.oneStreamChunks)
    case "many-streams":
      return manyStreams(target, warm ? Math.min(8, sizes.streams) : sizes.streams, warm ? 100 : sizes.streamChunks)
    default:
      return taskThroughput(target, sizes.concurrency, warm ? sizes.taskWarmupMs : sizes.throughputMs)
  }
}

/** The gist of a start failure: the first line and the first line that names an error. */
const gist = (reason: unknown): string => {
  const text = reason instanceof Error ? reason.message : String(reason)
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "")
  const named = lines.find((l, i) => i > 0 && /\w*Error\b/.test(l))
  return [lines[0], named].filter((l) => l !== undefined).join(": ").slice(0, 300)
}

const start = (spec: ContenderSpec, options: BenchOptions) =>
  startContender(spec, options.profile !== undefined && matches(options.profile.match, spec) ? { runtimeArgs: options.profile.runtimeArgs } : {})

/** Runs the bench and returns its rows (with ratios). Contenders that fail to start are reported, not fatal. */
export const runBench = async (options: BenchOptions): Promise<Array<Row>> => {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const { sizes } = options
  const logWindow = options.logWindow === "default" ? undefined : options.logWindow ?? 2 ** Math.ceil(Math.log2(sizes.oneStreamChunks + 2))
  // The traced contender's collector lives here, so its work is not counted as the server's.
  const sink = options.specs === undefined ? await startOtlpSink() : undefined
  const specs = (options.specs ?? contenderSpecs({ ttlMs: sizes.ttlMs, logWindow, ...(sink !== undefined ? { otlpEndpoint: sink.url } : {}) }))
    .filter((s) => options.only === undefined || options.only.length === 0 || options.only.some((f) => matches(f, s)))
  const workloads = workloadNames.filter((w) => options.workloads === undefined || options.workloads.length === 0 || options.workloads.includes(w))
  const rows: Array<Row> = []
  const failed = (workload: WorkloadName, spec: ContenderSpec, error: string) =>
    rows.push({
      workload,
      contender: spec.contender,
      runtime: spec.runtime,
      protocol: spec.protocol ?? "0.3",
      metric: primaryMetric[workload],
      value: 0,
      unit: unitOf(primaryMetric[workload]),
      valid: false,
      error
    })

  const shared = workloads.filter((w) => w !== "memory")
  const sharedSpecs = specs.filter((s) => shared.some((w) => runs(s, w)))
  const memorySpecs = workloads.includes("memory") ? specs.filter((s) => runs(s, "memory")) : []
  // The memory workload wants fresh processes (so idle is idle); they start alongside the others and wait.
  const startAll = (list: ReadonlyArray<ContenderSpec>) => Promise.allSettled(list.map((s) => start(s, options)))
  const [sharedStarts, memoryStarts] = await Promise.all([
    sharedSpecs.length > 0 ? startAll(sharedSpecs) : Promise.resolve([]),
    memorySpecs.length > 0 ? startAll(memorySpecs) : Promise.resolve([])
  ])
  try {
    await runShared(shared, sharedSpecs, sharedStarts)
    await runMemory(memorySpecs, memoryStarts)
  } finally {
    await Promise.all([...sharedStarts, ...memoryStarts].map((r) => (r.status === "fulfilled" ? r.value.stop() : undefined)))
    await sink?.close()
  }
  return withRatios(rows)

  async function runShared(
    shared: ReadonlyArray<WorkloadName>,
    specs: ReadonlyArray<ContenderSpec>,
    started: ReadonlyArray<PromiseSettledResult<RunningContender>>
  ) {
    if (shared.length === 0) return
    const up: Array<{ readonly spec: ContenderSpec; readonly proc: RunningContender; readonly target: Target }> = []
    started.forEach((r, i) => {
      const spec = specs[i] as ContenderSpec
      const connections = Math.max(sizes.streams, sizes.concurrency)
      if (r.status === "fulfilled") up.push({ spec, proc: r.value, target: makeTarget(r.value.url, { connections, version: spec.protocol ?? "0.3" }) })
      else {
        log(`! ${labelOf(spec)} did not start: ${String(r.reason)}`)
        for (const w of shared) if (runs(spec, w)) failed(w, spec, gist(r.reason))
      }
    })
    try {
      for (const workload of shared) {
        const these = up.filter((c) => runs(c.spec, workload))
        const results = new Map<ContenderSpec, Array<Measurement>>()
        if (sizes.warmup) for (const c of these) await measure(workload, c.target, sizes, true)
        for (let round = 0; round < sizes.rounds; round++) {
          // Rotating the order each round keeps any one contender from always following the same neighbour.
          for (let k = 0; k < these.length; k++) {
            const c = these[(k + round) % these.length]
            if (c === undefined) continue
            const cpuBefore = c.proc.cpuMicros()
            const measured = await measure(workload, c.target, sizes, false).catch((e: unknown): Measurement => ({ ok: false, error: String(e), values: {} }))
            const m = withServerCpu(measured, c.proc.cpuMicros() - cpuBefore)
            log(`${workload} round ${round + 1} ${labelOf(c.spec)}: ${JSON.stringify(m.values)}${m.ok ? "" : ` INVALID ${m.error ?? ""}`}`)
            results.set(c.spec, [...(results.get(c.spec) ?? []), m])
          }
        }
        for (const c of these) rows.push(...rowsOf(workload, c.spec, results.get(c.spec) ?? []))
      }
    } finally {
      for (const c of up) c.target.close()
      await Promise.all(up.map((c) => c.proc.stop()))
    }
  }

  async function runMemory(specs: ReadonlyArray<ContenderSpec>, started: ReadonlyArray<PromiseSettledResult<RunningContender>>) {
    for (const [i, r] of started.entries()) {
      const spec = specs[i] as ContenderSpec
      if (r.status === "rejected") {
        failed("memory", spec, gist(r.reason))
        continue
      }
      const target = makeTarget(r.value.url, { connections: sizes.concurrency })
      try {
        const m = await memory(target, r.value, { tasks: sizes.memoryTasks, maxMs: sizes.memoryMaxMs, concurrency: sizes.concurrency, settleMs: sizes.ttlMs * 2 + 500 })
          .catch((e: unknown): Measurement => ({ ok: false, error: String(e), values: {} }))
        log(`memory ${labelOf(spec)}: ${JSON.stringify(m.values)}${m.ok ? "" : ` INVALID ${m.error ?? ""}`}`)
        if (Object.keys(m.values).length === 0) failed("memory", spec, m.error ?? "no figures")
        else rows.push(...rowsOf("memory", spec, [m]))
      } finally {
        target.close()
        await r.value.stop()
      }
    }
  }
}

export const parseArgs = (argv: ReadonlyArray<string>) => {
  const only: Array<string> = []
  const workloads: Array<WorkloadName> = []
  let quick = false
  let cluster = false
  let profile: string | undefined
  let logWindow: number | "default" | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const next = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === "--quick") quick = true
    else if (a === "--cluster") cluster = true
    else if (a === "--only") only.push(...next().split(","))
    else if (a === "--workload") {
      for (const w of next().split(",")) {
        if (!(workloadNames as ReadonlyArray<string>).includes(w)) throw new Error(`unknown workload ${w}; one of ${workloadNames.join(", ")}`)
        workloads.push(w as WorkloadName)
      }
    } else if (a === "--profile") profile = next()
    else if (a === "--log-window") {
      const v = next()
      logWindow = v === "default" ? "default" : Number(v)
    }
    else throw new Error(`unknown option ${a}`)
  }
  return { quick, cluster, only, workloads, profile, logWindow }
}

const main = async () => {
  const args = parseArgs(process.argv.slice(2))
  const results = fileURLToPath(new URL("./results/", import.meta.url))
  if (args.cluster) return runClusterMain(args.quick, results)
  const sizes = args.quick ? quickSizes : fullSizes
  const began = Date.now()
  const rows = await runBench({
    sizes,
    only: args.only,
    workloads: args.workloads,
    ...(args.logWindow === undefined ? {} : { logWindow: args.logWindow }),
    ...(args.profile === undefined ? {} : { profile: { match: args.profile, runtimeArgs: ["--cpu-prof", `--cpu-prof-dir=${results}profiles`] } })
  })
  if (args.quick) process.stdout.write(`${smokeTestBanner}\n`)
  process.stdout.write(`${formatTable(rows)}\n`)
  mkdirSync(results, { recursive: true })
  const file = `${results}${resultsFileOf(args)}`
  writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`)
  process.stdout.write(`${rows.length} rows -> ${file} (${((Date.now() - began) / 1000).toFixed(0)} s, ${args.quick ? "quick: a smoke test" : "full"})\n`)
}

/**
 * What a `--quick` run prints above its table. Its sizes are too small for its ratios to mean what a
 * full run's do (they have differed from the full run's by up to 5x), so it says so.
 */
export const smokeTestBanner =
  "SMOKE TEST (--quick): every workload runs, reduced; a wrong answer still fails it, but its figures and ratios " +
  "are not comparable with a full run's. Only `npm run bench` with no options gives the project's figures."

/**
 * Where a run's rows go: only a full run of every contender and workload replaces `latest.json`, the
 * project's figures; a quick run writes `quick.json`, and a run narrowed by options `partial.json`.
 */
export const resultsFileOf = (args: {
  readonly quick: boolean
  readonly only: ReadonlyArray<string>
  readonly workloads: ReadonlyArray<string>
  readonly profile: string | undefined
  readonly logWindow: number | "default" | undefined
}): string => {
  if (args.quick) return "quick.json"
  const narrowed = args.only.length > 0 || args.workloads.length > 0 || args.profile !== undefined || args.logWindow !== undefined
  return narrowed ? "partial.json" : "latest.json"
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
    process.exit(1)
  })
}
