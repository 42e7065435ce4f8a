/**
 * The four workloads of PERFORMANCE.md, each one measurement against one contender. Figures come
 * only from answers the load client accepted; a round with any rejected answer is invalid.
 */
import { sendOnce, streamOnce, type Target, textMessage } from "../src/bench/load-client.ts"
import type { RequestOutcome } from "../src/bench/outcome.ts"

/**
 * One stream of `chunks` artifact chunks from a contender (the message says how many), checked in full: the
 * chunk texts are their indexes 0, 1, 2, ... and there must be exactly `chunks` of them.
 */
const streamTask = (target: Target, chunks: number): Promise<RequestOutcome> =>
  streamOnce(target, textMessage(String(chunks)), { numberedChunks: true, expectedChunks: chunks })

/** One blocking send to a contender's agent, which completes at once. */
const sendTask = (target: Target): Promise<RequestOutcome> => sendOnce(target, textMessage("0"))

/** A rejected answer as one line. */
const reason = (r: RequestOutcome): string | undefined => (r.error === undefined ? undefined : `${r.error.kind}: ${r.error.message}`)

/** The outcome of one measured round. */
export interface Measurement {
  readonly ok: boolean
  readonly error?: string
  /** Metric name to value. */
  readonly values: Readonly<Record<string, number>>
  readonly p50_ms?: number
  readonly p99_ms?: number
  /** The units of work the round did (accepted tasks, or events of accepted streams): what server CPU is divided by. */
  readonly work?: { readonly count: number; readonly unit: "task" | "event" }
}

/**
 * `m` with the server's CPU per unit of work (`cpu_us_per_task`, `cpu_us_per_event`) and in all (`server_cpu_ms`),
 * from the CPU time its process used over the round. On two cores shared by the load client and the server,
 * throughput hides what the server spends; this does not.
 */
export const withServerCpu = (m: Measurement, cpuMicros: number): Measurement =>
  m.work === undefined || m.work.count === 0
    ? m
    : {
      ...m,
      values: { ...m.values, [`cpu_us_per_${m.work.unit}`]: round2(cpuMicros / m.work.count), server_cpu_ms: Math.round(cpuMicros / 1000) }
    }

/** The `p`-quantile (0..1) of `xs`, nearest rank. */
export const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  if (xs.length === 0) return Number.NaN
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number
}

const round2 = (x: number) => Math.round(x * 100) / 100

/** Workload 1: one stream of `chunks` artifact chunks, read to the end. */
export const oneStream = async (target: Target, chunks: number): Promise<Measurement> => {
  const r = await streamTask(target, chunks)
  const seconds = r.latencyMs / 1000
  const error = reason(r)
  return {
    ok: r.ok,
    ...(error === undefined ? {} : { error }),
    values: { events_per_s: Math.round(r.events / seconds), bytes_per_s: Math.round(r.bytes / seconds) },
    work: { count: r.events, unit: "event" }
  }
}

/** Workload 2: `streams` concurrent streams of `chunks` chunks; total rate and time to first event. */
export const manyStreams = async (target: Target, streams: number, chunks: number): Promise<Measurement> => {
  const start = performance.now()
  const all = await Promise.all(Array.from({ length: streams }, () => streamTask(target, chunks)))
  const seconds = (performance.now() - start) / 1000
  const bad = all.filter((r) => !r.ok)
  const events = all.reduce((n, r) => n + r.events, 0)
  const bytes = all.reduce((n, r) => n + r.bytes, 0)
  const first = all.map((r) => r.firstEventMs ?? Number.NaN)
  return {
    ok: bad.length === 0,
    ...(bad.length === 0 ? {} : { error: `${bad.length}/${streams} streams rejected: ${bad[0] === undefined ? "" : reason(bad[0])}` }),
    values: { events_per_s: Math.round(events / seconds), bytes_per_s: Math.round(bytes / seconds) },
    p50_ms: round2(percentile(first, 0.5)),
    p99_ms: round2(percentile(first, 0.99)),
    work: { count: events, unit: "event" }
  }
}

/** Runs `count` blocking sends (or until `untilMs` passes) with `concurrency` workers; latencies of the accepted ones. */
const sendLoop = async (target: Target, concurrency: number, stop: { readonly count?: number; readonly untilMs?: number }) => {
  const latencies: Array<number> = []
  let started = 0
  let rejected = 0
  let firstError: string | undefined
  const worker = async () => {
    for (;;) {
      if (stop.count !== undefined && started >= stop.count) return
      if (stop.untilMs !== undefined && performance.now() >= stop.untilMs) return
      started++
      const r = await sendTask(target)
      if (r.ok) latencies.push(r.latencyMs)
      else {
        rejected++
        firstError ??= reason(r)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { latencies, rejected, firstError }
}

/** Workload 3: blocking `message/send` at `concurrency` for `durationMs`; tasks per second and latency. */
export const taskThroughput = async (target: Target, concurrency: number, durationMs: number): Promise<Measurement> => {
  const start = performance.now()
  const { latencies, rejected, firstError } = await sendLoop(target, concurrency, { untilMs: start + durationMs })
  const seconds = (performance.now() - start) / 1000
  return {
    ok: rejected === 0,
    ...(rejected === 0 ? {} : { error: `${rejected} answers rejected: ${firstError ?? ""}` }),
    values: { tasks_per_s: Math.round(latencies.length / seconds) },
    p50_ms: round2(percentile(latencies, 0.5)),
    p99_ms: round2(percentile(latencies, 0.99)),
    work: { count: latencies.length, unit: "task" }
  }
}

/** What the memory workload needs of a contender's process. */
export interface MemoryProbe {
  readonly rss: () => Promise<{ readonly bytes: number; readonly heapBytes: number; readonly gc: boolean }>
}

const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10

/**
 * Workload 4: resident memory idle, after `tasks` completed blocking sends (or as many as `maxMs`
 * allows, reported as `tasks`), and after `settleMs` more (the store's time to live and one sweep).
 */
export const memory = async (
  target: Target,
  probe: MemoryProbe,
  options: { readonly tasks: number; readonly maxMs: number; readonly concurrency: number; readonly settleMs: number }
): Promise<Measurement> => {
  const idle = await probe.rss()
  const start = performance.now()
  const { latencies, rejected, firstError } = await sendLoop(target, options.concurrency, { count: options.tasks, untilMs: start + options.maxMs })
  const seconds = (performance.now() - start) / 1000
  const after = await probe.rss()
  await new Promise((resolve) => setTimeout(resolve, options.settleMs))
  const settled = await probe.rss()
  return {
    ok: rejected === 0,
    ...(rejected === 0 ? {} : { error: `${rejected} answers rejected: ${firstError ?? ""}` }),
    values: {
      rss_mb: mb(after.bytes),
      rss_idle_mb: mb(idle.bytes),
      rss_after_ttl_mb: mb(settled.bytes),
      heap_idle_mb: mb(idle.heapBytes),
      heap_after_ttl_mb: mb(settled.heapBytes),
      tasks: latencies.length,
      tasks_per_s: Math.round(latencies.length / seconds)
    }
  }
}
