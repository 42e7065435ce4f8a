/**
 * The figures of a benchmark, as a JSON document (`BenchResult`), as text with a latency histogram drawn
 * in the terminal, and two results side by side with their ratios.
 *
 * @module
 */
import type { BenchPlan } from "./benchmark.ts"
import type { LoadRun } from "./load.ts"
import type { MessageTemplate } from "./load-client.ts"
import { type Histogram, histogram, type LatencySummary, summarize } from "./stats.ts"

/** The identifier of the result format, kept in every result file. */
export const BENCH_RESULT_FORMAT = "a2a-bench/1"

/** The figures of one benchmark. */
export interface BenchResult {
  readonly format: typeof BENCH_RESULT_FORMAT
  /** The URL given, and the endpoint the card named for the binding. */
  readonly url: string
  readonly endpoint: string
  readonly transport: BenchPlan["transport"]
  /** The A2A version the load spoke (absent in results written before 1.0 was benchmarked: 0.3). */
  readonly protocolVersion?: BenchPlan["protocolVersion"]
  readonly workload: BenchPlan["workload"]
  /** The runtime the load ran on, e.g. `node v24.21.0`. */
  readonly runtime: string
  readonly startedAt: string
  readonly options: {
    readonly concurrency: number
    readonly durationMs?: number
    readonly requests?: number
    readonly rate?: number
    readonly timeoutMs: number
    readonly numberedChunks: boolean
    readonly dropAfter?: number
    readonly message: string
  }
  readonly elapsedMs: number
  readonly requests: { readonly started: number; readonly ok: number; readonly failed: number }
  /** Accepted answers per second. */
  readonly throughputPerS: number
  /** Latency of accepted answers (a stream: to its last event); in the open model, from when each was due. */
  readonly latencyMs?: LatencySummary
  /** Time to the first event of accepted streams. */
  readonly firstEventMs?: LatencySummary
  /** Events of accepted streams. */
  readonly events?: { readonly total: number; readonly perS: number; readonly chunks: number }
  /** Open model: the rate asked for and the rate requests actually went out at. */
  readonly offeredRate?: { readonly targetPerS: number; readonly actualPerS: number }
  /** Failures by kind, most frequent first, with the first message of each kind. */
  readonly errors: ReadonlyArray<{ readonly kind: string; readonly count: number; readonly example: string }>
  readonly histogram: Histogram
}

const runtimeName = (): string => {
  const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } }; process?: { version?: string } }
  if (g.Bun !== undefined) return `bun ${g.Bun.version}`
  if (g.Deno !== undefined) return `deno ${g.Deno.version.deno}`
  return `node ${g.process?.version ?? "?"}`
}

const messageSummary = (message: MessageTemplate): string => {
  const texts = message.parts.map((p) => (p.kind === "text" ? p.text : `[${p.kind}]`)).join(" ")
  return texts.length > 80 ? `${texts.slice(0, 79)}…` : texts
}

const perSecond = (n: number, ms: number) => (ms > 0 ? Math.round((n * 1000 * 10) / ms) / 10 : 0)

/** The result of a finished run. */
export const buildResult = (input: {
  readonly url: string
  readonly plan: BenchPlan
  readonly startedAt: Date
  readonly run: LoadRun
  readonly message: MessageTemplate
  readonly numberedChunks: boolean
  readonly dropAfter?: number
}): BenchResult => {
  const { plan, run } = input
  const { tally } = run
  const streams = plan.workload !== "send"
  const latencyMs = summarize(tally.latencies)
  const firstEventMs = streams ? summarize(tally.firstEvents) : undefined
  const arrivals = tally.arrivals
  const spanMs = arrivals.length > 1 ? arrivals[arrivals.length - 1]! - arrivals[0]! : 0
  return {
    format: BENCH_RESULT_FORMAT,
    url: input.url,
    endpoint: plan.endpoint,
    transport: plan.transport,
    protocolVersion: plan.protocolVersion,
    workload: plan.workload,
    runtime: runtimeName(),
    startedAt: input.startedAt.toISOString(),
    options: {
      concurrency: plan.concurrency,
      ...(plan.durationMs === undefined ? {} : { durationMs: plan.durationMs }),
      ...(plan.requests === undefined ? {} : { requests: plan.requests }),
      ...(plan.rate === undefined ? {} : { rate: plan.rate }),
      timeoutMs: plan.timeoutMs,
      numberedChunks: input.numberedChunks,
      ...(input.dropAfter === undefined ? {} : { dropAfter: input.dropAfter }),
      message: messageSummary(input.message)
    },
    elapsedMs: Math.round(run.elapsedMs * 10) / 10,
    requests: { started: run.started, ok: tally.ok, failed: tally.failed },
    throughputPerS: perSecond(tally.ok, run.elapsedMs),
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(firstEventMs === undefined ? {} : { firstEventMs }),
    ...(streams ? { events: { total: tally.events, perS: perSecond(tally.events, run.elapsedMs), chunks: tally.chunks } } : {}),
    ...(plan.rate === undefined
      ? {}
      : { offeredRate: { targetPerS: plan.rate, actualPerS: spanMs > 0 ? perSecond(arrivals.length - 1, spanMs) : 0 } }),
    errors: [...tally.errors.values()].sort((a, b) => b.count - a.count).map((e) => ({ kind: e.kind, count: e.count, example: e.example })),
    histogram: histogram(tally.latencies)
  }
}

const ms = (x: number) => (x >= 100 ? `${Math.round(x)} ms` : x >= 10 ? `${x.toFixed(1)} ms` : `${x.toFixed(2)} ms`)
const count = (n: number) => n.toLocaleString("en-US")
const rate = (n: number) => (n >= 100 ? count(Math.round(n)) : n.toFixed(1))

const summaryLine = (s: LatencySummary) => `p50 ${ms(s.p50)}  p90 ${ms(s.p90)}  p99 ${ms(s.p99)}  max ${ms(s.max)}`

/** The histogram drawn with bars of up to `width` characters, one line per bucket. */
export const drawHistogram = (h: Histogram, width = 40): ReadonlyArray<string> => {
  const most = Math.max(0, ...h.counts)
  const total = h.counts.reduce((a, b) => a + b, 0)
  if (most === 0) return []
  const labels = h.edgesMs.slice(0, -1).map((lo, i) => `${ms(lo)} - ${ms(h.edgesMs[i + 1]!)}`)
  const pad = Math.max(...labels.map((l) => l.length))
  return h.counts.map((n, i) => {
    const bar = n === 0 ? "" : "█".repeat(Math.max(1, Math.round((n / most) * width)))
    return `  ${labels[i]!.padStart(pad)} | ${bar.padEnd(width)} ${count(n).padStart(String(total).length + 1)} ${((n * 100) / total).toFixed(1).padStart(5)}%`
  })
}

const transportName = (t: BenchResult["transport"]) => (t === "JSONRPC" ? "JSON-RPC" : "REST")

/** `JSON-RPC (A2A 1.0)`: the binding and the version a result spoke. */
const spoken = (r: BenchResult) => `${transportName(r.transport)} (A2A ${r.protocolVersion ?? "0.3"})`

/** The result as text. */
export const formatResult = (r: BenchResult): string => {
  const lines = [
    `${r.workload} over ${spoken(r)} to ${r.endpoint} (${r.runtime})`,
    `  requests     ${count(r.requests.ok)} ok, ${count(r.requests.failed)} failed, in ${(r.elapsedMs / 1000).toFixed(2)} s`,
    `  throughput   ${rate(r.throughputPerS)} ${r.workload === "send" ? "tasks" : "streams"}/s`
  ]
  if (r.offeredRate !== undefined) lines.push(`  offered      ${rate(r.offeredRate.actualPerS)}/s (asked ${rate(r.offeredRate.targetPerS)}/s; latency from the scheduled time)`)
  if (r.latencyMs !== undefined) lines.push(`  latency      ${summaryLine(r.latencyMs)}`)
  if (r.firstEventMs !== undefined) lines.push(`  first event  ${summaryLine(r.firstEventMs)}`)
  if (r.events !== undefined) lines.push(`  events       ${count(r.events.total)} (${count(r.events.chunks)} artifact chunks), ${rate(r.events.perS)} events/s`)
  if (r.errors.length > 0) {
    lines.push("  errors")
    for (const e of r.errors) lines.push(`    ${count(e.count).padStart(7)}  ${e.kind}: ${e.example}`)
  }
  const bars = drawHistogram(r.histogram)
  if (bars.length > 0) lines.push("  latency histogram", ...bars)
  return lines.join("\n")
}

/** True when `u` looks like a `BenchResult` (a file written by `--json`). */
export const isBenchResult = (u: unknown): u is BenchResult =>
  typeof u === "object" && u !== null && (u as { format?: unknown }).format === BENCH_RESULT_FORMAT

/** One compared figure: `ratio` is b / a. */
export interface ComparedFigure {
  readonly figure: string
  readonly a: number
  readonly b: number
  readonly ratio: number
  /** True when a larger value is better (throughput), false for latencies and errors. */
  readonly higherIsBetter: boolean
}

/** The figures two results share, with b / a. */
export const compareResults = (a: BenchResult, b: BenchResult): ReadonlyArray<ComparedFigure> => {
  const figures: Array<[string, (r: BenchResult) => number | undefined, boolean]> = [
    ["throughput /s", (r) => r.throughputPerS, true],
    ["latency p50 ms", (r) => r.latencyMs?.p50, false],
    ["latency p90 ms", (r) => r.latencyMs?.p90, false],
    ["latency p99 ms", (r) => r.latencyMs?.p99, false],
    ["latency max ms", (r) => r.latencyMs?.max, false],
    ["first event p50 ms", (r) => r.firstEventMs?.p50, false],
    ["first event p99 ms", (r) => r.firstEventMs?.p99, false],
    ["events /s", (r) => r.events?.perS, true],
    ["failed", (r) => r.requests.failed, false]
  ]
  return figures.flatMap(([figure, read, higherIsBetter]) => {
    const x = read(a)
    const y = read(b)
    if (x === undefined || y === undefined) return []
    return [{ figure, a: x, b: y, ratio: x === 0 ? (y === 0 ? 1 : Number.POSITIVE_INFINITY) : y / x, higherIsBetter }]
  })
}

/** The comparison as text. */
export const formatComparison = (a: BenchResult, b: BenchResult, names: readonly [string, string]): string => {
  const rows = compareResults(a, b)
  const describe = (r: BenchResult) => `${r.workload} over ${spoken(r)}, ${r.runtime}, ${r.startedAt}`
  const header = ["figure", "a", "b", "b/a"]
  const cells = rows.map((r) => [
    r.figure,
    String(r.a),
    String(r.b),
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}x${r.ratio === 1 ? "" : (r.ratio > 1) === r.higherIsBetter ? " better" : " worse"}` : "-"
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)))
  const line = (c: ReadonlyArray<string>) => `  ${c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join("  ")}`
  return [`a: ${names[0]} (${describe(a)})`, `b: ${names[1]} (${describe(b)})`, line(header), ...cells.map(line)].join("\n")
}
