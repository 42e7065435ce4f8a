/**
 * Result rows and the printed table: absolute figures, and ratios to the JS SDK and to the
 * batched raw `node:http` ceiling measured in the same run.
 */

/** The workloads, in the order they run and print. */
export const workloadNames = ["one-stream", "many-streams", "task-throughput", "memory"] as const

/** A workload's name. */
export type WorkloadName = (typeof workloadNames)[number]

/** One figure of one contender on one workload, as written to `bench/results/latest.json`. */
export interface Row {
  readonly workload: WorkloadName
  readonly contender: string
  readonly runtime: string
  /** The A2A version the load spoke (rows written before 1.0 was benchmarked have none: 0.3). */
  readonly protocol?: "0.3" | "1.0"
  readonly metric: string
  /** The median over rounds of accepted answers; 0 when the contender's answers were rejected. */
  readonly value: number
  readonly unit: string
  readonly p50_ms?: number
  readonly p99_ms?: number
  /** False when the load client rejected an answer: the figure does not count. */
  readonly valid: boolean
  readonly error?: string
  /** The value of every round, in run order. */
  readonly rounds?: ReadonlyArray<number>
  /** `value` divided by the JS SDK 0.3's figure for the same workload and metric (for CPU per unit, lower is better). */
  readonly vs_a2a_js?: number
  /** `value` divided by the JS SDK 1.3's figure (serving A2A 1.0) for the same workload and metric. */
  readonly vs_a2a_js_v1?: number
  /** `value` divided by the batched raw `node:http` figure for the same workload and metric. */
  readonly vs_raw_batched?: number
}

/** The unit each metric is reported in. */
export const unitOf = (metric: string): string =>
  metric.startsWith("cpu_us_per_") ? "µs" : metric === "server_cpu_ms" ? "ms" : metric.endsWith("_mb") ? "MB" : metric === "events_per_s" ? "events/s" : metric === "bytes_per_s" ? "bytes/s" : metric === "tasks_per_s" ? "tasks/s" : metric === "tasks" ? "tasks" : ""

const ratio = (a: number, b: number | undefined) => (b === undefined || b === 0 || a === 0 ? undefined : Math.round((a / b) * 1000) / 1000)

/** Adds the ratios to both JS SDKs and to the batched raw ceiling, where both figures are valid. */
export const withRatios = (rows: ReadonlyArray<Row>): Array<Row> =>
  rows.map((row) => {
    const ref = (contender: string) =>
      rows.find((r) => r.workload === row.workload && r.metric === row.metric && r.contender === contender && r.valid)?.value
    const sdk = row.valid ? ratio(row.value, ref("a2a-js")) : undefined
    const sdkV1 = row.valid ? ratio(row.value, ref("a2a-js-v1")) : undefined
    const raw = row.valid ? ratio(row.value, ref("raw-node-batched")) : undefined
    return {
      ...row,
      ...(sdk === undefined ? {} : { vs_a2a_js: sdk }),
      ...(sdkV1 === undefined ? {} : { vs_a2a_js_v1: sdkV1 }),
      ...(raw === undefined ? {} : { vs_raw_batched: raw })
    }
  })

/** The ratio to the official SDK that speaks the row's version: 0.3.14 for 0.3 rows, 1.3 for 1.0 rows. */
const vsSdk = (row: Row): number | undefined => (row.protocol === "1.0" ? row.vs_a2a_js_v1 : row.vs_a2a_js)

const human = (value: number, unit: string) => {
  if (unit === "MB") return `${value.toFixed(1)} MB`
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)}M`
  if (value >= 1e4) return `${(value / 1e3).toFixed(1)}k`
  return String(value)
}

const label = (row: Row) => `${row.contender === "a2a-actors" ? `a2a-actors (${row.runtime})` : row.contender}${row.protocol === "1.0" ? " A2A 1.0" : ""}`

/** Which metrics the table shows per workload (the JSON has them all). */
const shown: Record<WorkloadName, ReadonlyArray<string>> = {
  "one-stream": ["events_per_s", "bytes_per_s", "cpu_us_per_event"],
  "many-streams": ["events_per_s", "cpu_us_per_event"],
  "task-throughput": ["tasks_per_s", "cpu_us_per_task"],
  memory: ["tasks", "rss_idle_mb", "rss_mb", "rss_after_ttl_mb", "heap_idle_mb", "heap_after_ttl_mb"]
}

const pad = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ")

/** The table printed at the end of a run: one block per workload, one line per contender. */
export const formatTable = (rows: ReadonlyArray<Row>): string => {
  const out: Array<string> = []
  for (const workload of workloadNames) {
    const mine = rows.filter((r) => r.workload === workload)
    if (mine.length === 0) continue
    const metrics = shown[workload]
    const ratios = workload !== "memory"
    const head = ["contender", ...metrics.flatMap((m) => (ratios ? [m, "vs sdk", "vs raw-b"] : [m]))]
    if (workload !== "one-stream" && workload !== "memory") head.push("p50 ms", "p99 ms")
    const lines: Array<Array<string>> = []
    const labels = [...new Set(mine.map(label))]
    for (const who of labels) {
      const cells = [who]
      let first: Row | undefined
      for (const metric of metrics) {
        const row = mine.find((r) => label(r) === who && r.metric === metric)
        first ??= row
        if (row === undefined) cells.push("-", ...(ratios ? ["-", "-"] : []))
        else if (!row.valid) cells.push("INVALID", ...(ratios ? ["", ""] : []))
        else {
          cells.push(human(row.value, row.unit))
          const sdk = vsSdk(row)
          if (ratios) cells.push(sdk === undefined ? "-" : `${sdk.toFixed(2)}x`, row.vs_raw_batched === undefined ? "-" : `${(row.vs_raw_batched * 100).toFixed(0)}%`)
        }
      }
      if (workload !== "one-stream" && workload !== "memory") cells.push(String(first?.p50_ms ?? "-"), String(first?.p99_ms ?? "-"))
      lines.push(cells)
    }
    const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)))
    out.push(`== ${workload}`, pad(head, widths), ...lines.map((l) => pad(l, widths)))
    for (const row of mine) if (!row.valid && row.error !== undefined && row.metric === metrics[0]) out.push(`   ! ${label(row)}: ${row.error}`)
    out.push("")
  }
  const versions = versionComparison(rows)
  if (versions.length > 0) out.push("== A2A 1.0 vs 0.3, a2a-actors (node): 1.0 / 0.3 (CPU: below 1.00x, 1.0 costs less)", ...versions, "")
  out.push("(vs sdk: the official JS SDK of the row's version, 0.3.14 for 0.3 rows, 1.3 for A2A 1.0 rows)")
  return out.join("\n")
}

/** This project's 1.0 rows against its 0.3 rows on Node, figure by figure. */
export const versionComparison = (rows: ReadonlyArray<Row>): Array<string> => {
  const ours = (r: Row) => r.contender === "a2a-actors" && r.runtime === "node" && r.valid
  const lines: Array<string> = []
  for (const v1 of rows.filter((r) => ours(r) && r.protocol === "1.0")) {
    const v03 = rows.find((r) => ours(r) && r.protocol !== "1.0" && r.workload === v1.workload && r.metric === v1.metric)
    if (v03 === undefined || v03.value === 0) continue
    lines.push(`  ${`${v1.workload} ${v1.metric}`.padEnd(34)} ${human(v1.value, v1.unit).padStart(9)} vs ${human(v03.value, v03.unit).padStart(9)}  ${(v1.value / v03.value).toFixed(2)}x`)
  }
  return lines
}
