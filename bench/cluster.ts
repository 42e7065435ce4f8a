/**
 * `npm run bench -- --cluster [--quick]`: what PostgreSQL and a second and third instance cost or give.
 * Three setups of this project's Node server, each with the bench agent:
 *
 * - `memory x1`: tasks in memory, one instance (the default);
 * - `postgres x1`: tasks on PostgreSQL, one instance;
 * - `postgres x3`: tasks on PostgreSQL, three instances behind the cluster's round-robin front.
 *
 * Two workloads, interleaved round-robin over the setups, median round reported:
 *
 * - `task-throughput`: blocking `message/send` at concurrency 32 through the setup's URL (the front
 *   for three instances), every answer a `completed` Task; tasks/s and latency.
 * - `stream-read`: one task streaming `streamChunks` artifact chunks, read to the end and checked
 *   event by event. With one instance it is read with `message/stream`; with three, the task is
 *   started on one instance (`message/send`, non-blocking) and read on another with
 *   `tasks/resubscribe` and `Last-Event-ID: 0`, so every event crosses PostgreSQL; events/s.
 *
 * The database is `A2A_DATABASE_URL` (default the local `postgres://postgres@127.0.0.1:5432/test`),
 * in a schema of the run's own, dropped afterwards. Rows go to `bench/results/cluster.json`
 * (`cluster-quick.json` with `--quick`).
 */
import { randomUUID } from "node:crypto"
import { mkdirSync, writeFileSync } from "node:fs"
import { type IncomingMessage, request } from "node:http"
import { fileURLToPath } from "node:url"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { contenderSpecs, type ContenderSpec, type RunningContender, startContender } from "./contender-process.ts"
import { connectionPools } from "../src/bench/internal/connection-pool.ts"
import { makeTarget, resumeOnce, streamOnce, type Target, textMessage } from "../src/bench/load-client.ts"
import type { RequestOutcome } from "../src/bench/outcome.ts"
import { percentile, taskThroughput, type Measurement } from "./workloads.ts"

/** How big the cluster workloads are. */
export interface ClusterSizes {
  readonly rounds: number
  readonly concurrency: number
  readonly throughputMs: number
  readonly streamChunks: number
  /** Streams read one after another per measured round (events/s is over all of them). */
  readonly streamsPerRound: number
}

/** The full run (about 3 minutes: a stream on PostgreSQL is the slow part). */
export const clusterFullSizes: ClusterSizes = { rounds: 3, concurrency: 32, throughputMs: 5_000, streamChunks: 1_000, streamsPerRound: 1 }
/** `--quick`. */
export const clusterQuickSizes: ClusterSizes = { rounds: 1, concurrency: 32, throughputMs: 1_500, streamChunks: 300, streamsPerRound: 1 }

/** The cluster workloads. */
export const clusterWorkloads = ["task-throughput", "stream-read"] as const
/** One of them. */
export type ClusterWorkload = (typeof clusterWorkloads)[number]

/** One figure of one setup, as written to `bench/results/cluster.json`. */
export interface ClusterRow {
  readonly workload: ClusterWorkload
  readonly setup: string
  readonly metric: string
  readonly value: number
  readonly unit: string
  readonly p50_ms?: number
  readonly p99_ms?: number
  readonly valid: boolean
  readonly error?: string
  readonly rounds: ReadonlyArray<number>
}

/** A setup that is up: where to send, and the instances (for cross-instance reads). */
interface Setup {
  readonly name: string
  readonly target: Target
  readonly instances: ReadonlyArray<Target>
  readonly stop: () => Promise<void>
}

let nextId = 1

const post = (target: Target, body: string, headers: Record<string, string>) =>
  new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(target.endpoint, {
      method: "POST",
      agent: connectionPools.get(target),
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers }
    }, resolve)
    req.on("error", reject)
    req.end(body)
  })

const rpcBody = (method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params })

const checks = (chunks: number) => ({ numberedChunks: true, expectedChunks: chunks, consecutiveIds: true })

const failedBefore = (start: number, message: string): RequestOutcome => ({
  ok: false,
  error: { kind: "validation: not a task", message },
  startMs: start,
  latencyMs: performance.now() - start,
  events: 0,
  chunks: 0,
  bytes: 0
})

/** A task of `chunks` chunks started on `runner` and read on `reader` from its first event. */
const crossInstanceStream = async (runner: Target, reader: Target, chunks: number): Promise<RequestOutcome> => {
  const start = performance.now()
  const message = { kind: "message", role: "user", messageId: randomUUID(), parts: [{ kind: "text", text: String(chunks) }] }
  const sent = await post(runner, rpcBody("message/send", { message, configuration: { blocking: false } }), { accept: "application/json" })
  const parts: Array<Buffer> = []
  for await (const part of sent) parts.push(part as Buffer)
  const text = Buffer.concat(parts).toString("utf8")
  let taskId: unknown
  try {
    taskId = (JSON.parse(text) as { result?: { id?: unknown } }).result?.id
  } catch {
    taskId = undefined
  }
  if (typeof taskId !== "string") return failedBefore(start, text.slice(0, 200))
  return resumeOnce(reader, taskId, "0", checks(chunks), start)
}

/** A task of `chunks` chunks streamed with `message/stream` on one instance. */
const sameInstanceStream = (target: Target, chunks: number): Promise<RequestOutcome> =>
  streamOnce(target, textMessage(String(chunks)), checks(chunks))

const streamRead = async (setup: Setup, sizes: ClusterSizes, round: number): Promise<Measurement> => {
  const outcomes: Array<RequestOutcome> = []
  for (let k = 0; k < sizes.streamsPerRound; k++) {
    const n = setup.instances.length
    outcomes.push(n > 1
      ? await crossInstanceStream(setup.instances[(round + k) % n]!, setup.instances[(round + k + 1) % n]!, sizes.streamChunks)
      : await sameInstanceStream(setup.target, sizes.streamChunks))
  }
  const bad = outcomes.find((o) => !o.ok)
  const seconds = outcomes.reduce((s, o) => s + o.latencyMs, 0) / 1000
  const events = outcomes.reduce((s, o) => s + o.events, 0)
  return {
    ok: bad === undefined,
    ...(bad?.error === undefined ? {} : { error: `${bad.error.kind}: ${bad.error.message}` }),
    values: { events_per_s: Math.round(events / seconds) },
    p50_ms: Math.round(percentile(outcomes.map((o) => o.firstEventMs ?? Number.NaN), 0.5) * 100) / 100
  }
}

const nodeSpec = (env: Record<string, string>): ContenderSpec => {
  // The bench's Node contender (a bundle), with a log window larger than any stream read here.
  const spec = contenderSpecs({ ttlMs: 10_000, logWindow: 16_384 }).find((s) => s.contender === "a2a-actors" && s.runtime === "node")!
  return { ...spec, env }
}

const frontSpec = (backends: ReadonlyArray<string>): ContenderSpec => ({
  contender: "cluster-front",
  runtime: "node",
  command: process.execPath,
  args: ["--import", "tsx", fileURLToPath(new URL("./contenders/cluster-front.ts", import.meta.url)), "--backends", backends.join(",")]
})

const startSetup = async (name: string, instances: number, env: Record<string, string>, sizes: ClusterSizes): Promise<Setup> => {
  const running: Array<RunningContender> = []
  try {
    for (const r of await Promise.allSettled(Array.from({ length: instances }, () => startContender(nodeSpec(env))))) {
      if (r.status === "fulfilled") running.push(r.value)
      else throw r.reason
    }
  } catch (e) {
    await Promise.all(running.map((r) => r.stop()))
    throw e
  }
  // The front runs in its own process, as it would in front of real instances.
  const front = instances > 1 ? await startContender(frontSpec(running.map((r) => r.url))).catch(async (e: unknown) => {
    await Promise.all(running.map((r) => r.stop()))
    throw e
  }) : undefined
  const targets = running.map((r) => makeTarget(`${r.url}/`, { connections: sizes.concurrency }))
  const target = front === undefined ? targets[0]! : makeTarget(`${front.url}/`, { connections: sizes.concurrency })
  return {
    name,
    target,
    instances: targets,
    stop: async () => {
      for (const t of new Set([target, ...targets])) t.close()
      await front?.stop()
      await Promise.all(running.map((r) => r.stop()))
    }
  }
}

const metricOf: Record<ClusterWorkload, string> = { "task-throughput": "tasks_per_s", "stream-read": "events_per_s" }

/** Runs the cluster rows. `database` holds the store's variables for the PostgreSQL setups. */
export const runClusterBench = async (options: {
  readonly sizes: ClusterSizes
  readonly database: Readonly<Record<string, string>>
  readonly log?: (line: string) => void
}): Promise<Array<ClusterRow>> => {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const { sizes } = options
  const setups = [
    await startSetup("memory x1", 1, { A2A_DATABASE_URL: "" }, sizes),
    await startSetup("postgres x1", 1, { ...options.database }, sizes),
    await startSetup("postgres x3", 3, { ...options.database }, sizes)
  ]
  const rows: Array<ClusterRow> = []
  try {
    for (const workload of clusterWorkloads) {
      const measure = (setup: Setup, round: number, warm: boolean) =>
        workload === "task-throughput"
          ? taskThroughput(setup.target, sizes.concurrency, warm ? 300 : sizes.throughputMs)
          : streamRead(setup, warm ? { ...sizes, streamChunks: 200, streamsPerRound: 1 } : sizes, round)
      for (const s of setups) await measure(s, 0, true)
      const results = new Map<string, Array<Measurement>>()
      for (let round = 0; round < sizes.rounds; round++) {
        for (let k = 0; k < setups.length; k++) {
          const s = setups[(k + round) % setups.length]!
          const m = await measure(s, round, false).catch((e: unknown): Measurement => ({ ok: false, error: String(e), values: {} }))
          log(`${workload} round ${round + 1} ${s.name}: ${JSON.stringify(m.values)}${m.ok ? "" : ` INVALID ${m.error ?? ""}`}`)
          results.set(s.name, [...(results.get(s.name) ?? []), m])
        }
      }
      const metric = metricOf[workload]
      for (const s of setups) {
        const rounds = results.get(s.name) ?? []
        const bad = rounds.find((m) => !m.ok)
        const sorted = [...rounds].sort((a, b) => (a.values[metric] ?? 0) - (b.values[metric] ?? 0))
        const median = sorted[Math.floor((sorted.length - 1) / 2)]
        rows.push({
          workload,
          setup: s.name,
          metric,
          value: bad === undefined ? median?.values[metric] ?? 0 : 0,
          unit: metric === "tasks_per_s" ? "tasks/s" : "events/s",
          ...(median?.p50_ms === undefined ? {} : { p50_ms: median.p50_ms }),
          ...(median?.p99_ms === undefined ? {} : { p99_ms: median.p99_ms }),
          valid: bad === undefined,
          ...(bad?.error === undefined ? {} : { error: bad.error }),
          rounds: rounds.map((m) => m.values[metric] ?? 0)
        })
      }
    }
  } finally {
    await Promise.all(setups.map((s) => s.stop()))
  }
  return rows
}

/** The printed table: one block per workload, one line per setup, with the ratio to `memory x1`. */
export const formatClusterTable = (rows: ReadonlyArray<ClusterRow>): string => {
  const out: Array<string> = []
  for (const workload of clusterWorkloads) {
    const mine = rows.filter((r) => r.workload === workload)
    if (mine.length === 0) continue
    const base = mine.find((r) => r.setup === "memory x1" && r.valid)?.value
    const head = ["setup", metricOf[workload], "vs memory", workload === "task-throughput" ? "p50 ms" : "first event ms", "p99 ms"]
    const lines = mine.map((r) => [
      r.setup,
      r.valid ? String(r.value) : "INVALID",
      r.valid && base !== undefined && base > 0 ? `${(r.value / base).toFixed(2)}x` : "-",
      String(r.p50_ms ?? "-"),
      String(r.p99_ms ?? "-")
    ])
    const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
    const pad = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
    out.push(`== ${workload}`, pad(head), ...lines.map(pad))
    for (const r of mine) if (!r.valid && r.error !== undefined) out.push(`   ! ${r.setup}: ${r.error}`)
    out.push("")
  }
  return out.join("\n")
}

/** Drops the run's schema and everything in it. */
const dropSchema = (url: string, schema: string): Promise<void> =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const sql = yield* Effect.provide(PgClient.make({ url: Redacted.make(url), maxConnections: 1 }), Reactivity.layer)
    yield* sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  })))

/** `npm run bench -- --cluster [--quick]`: runs, prints the table, writes `cluster.json` to `resultsDir`. */
export const runClusterMain = async (quick: boolean, resultsDir: string): Promise<void> => {
  const url = process.env["A2A_DATABASE_URL"] || "postgres://postgres@127.0.0.1:5432/test"
  const schema = `a2a_bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`
  const began = Date.now()
  try {
    const rows = await runClusterBench({ sizes: quick ? clusterQuickSizes : clusterFullSizes, database: { A2A_DATABASE_URL: url, A2A_DATABASE_SCHEMA: schema } })
    process.stdout.write(`${formatClusterTable(rows)}\n`)
    mkdirSync(resultsDir, { recursive: true })
    // A quick run is a smoke test: it never replaces the figures of a full one.
    const file = `${resultsDir}${quick ? "cluster-quick.json" : "cluster.json"}`
    writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`)
    process.stdout.write(`${rows.length} rows -> ${file} (${((Date.now() - began) / 1000).toFixed(0)} s, ${quick ? "quick" : "full"})\n`)
  } finally {
    await dropSchema(url, schema)
  }
}
