/**
 * The contenders and their processes: each runs alone in a child process (so its memory is its
 * own), announces its URL on stdout and answers `rss` on stdin (see `contenders/control.ts`).
 */
import { spawn, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import { buildSync } from "esbuild"
import { processCpuMicros } from "./process-cpu.ts"
import type { WorkloadName } from "./report.ts"

/** How to start one contender. */
export interface ContenderSpec {
  readonly contender: string
  readonly runtime: string
  /** The A2A version the load client speaks to it; default 0.3. */
  readonly protocol?: "0.3" | "1.0"
  /** The workloads it runs; default all. */
  readonly workloads?: ReadonlyArray<WorkloadName>
  readonly command: string
  readonly args: ReadonlyArray<string>
  /** Variables on top of the bench's environment (the store's, for instance). */
  readonly env?: Readonly<Record<string, string>>
}

/**
 * What the A2A 1.0 rows run: one stream and task throughput, the two workloads whose cost per unit of work
 * a codec changes (a streamed event's writer, a request's decoder and an answer's writer). Many streams
 * and memory exercise the same event logs, stores and sockets whichever version writes the bytes; leaving
 * them out keeps a full run within its time on two cores.
 */
export const v1Workloads: ReadonlyArray<WorkloadName> = ["one-stream", "task-throughput"]

/** A contender that is up and listening. */
export interface RunningContender {
  readonly spec: ContenderSpec
  readonly url: string
  /** Resident memory in bytes, after a full collection when the runtime allows one. */
  readonly rss: () => Promise<{ readonly bytes: number; readonly heapBytes: number; readonly gc: boolean }>
  /** CPU time (user + system, every thread) the process has used so far, in microseconds, read from the OS. */
  readonly cpuMicros: () => number
  /** The last lines the process wrote to stderr (for failure reports). */
  readonly stderrTail: () => string
  readonly stop: () => Promise<void>
}

const root = fileURLToPath(new URL("../", import.meta.url))
const bin = (name: string) => `${root}node_modules/.bin/${name}`
const file = (name: string) => `${root}bench/contenders/${name}`
const nodeArgs = ["--expose-gc"]
/** Deno's `request.signal` aborts only when the client goes away, not after every response (no legacy warning). */
const denoRunFlags = ["--unstable-no-legacy-abort"]
const bundles = `${root}node_modules/.cache/a2a-actors-bench/`
const built = new Set<string>()

/**
 * A Node contender as one JavaScript file, its packages left as imports: Node runs what users
 * deploy (compiled JS), so neither a TypeScript loader's memory nor its start-up is measured.
 * Bun and Deno run the TypeScript as it is, which is how they are used.
 */
const nodeBundle = (name: string): string => {
  const out = `${bundles}${name.replace(/\.ts$/, ".mjs")}`
  if (!built.has(name)) {
    buildSync({ entryPoints: [file(name)], outfile: out, bundle: true, platform: "node", format: "esm", target: "node24", packages: "external", logLevel: "error" })
    built.add(name)
  }
  return out
}

/** Options that change what the contenders do. */
export interface SpecOptions {
  /** Time to live of terminal tasks in this project's store. */
  readonly ttlMs: number
  /** Events per socket write of `raw-node-batched`. */
  readonly batch?: number
  /** Events a task's log keeps in this project's server; undefined = the runtime's default. */
  readonly logWindow?: number | undefined
  /** Makes `raw-node` leave out this chunk (a wrong answer, for tests). */
  readonly rawDrop?: number
  /** Where the traced contender exports (an OTLP sink); without it there is no traced contender. */
  readonly otlpEndpoint?: string
}

/**
 * What the traced row runs: task throughput and one stream, the per-task and per-event paths whose cost
 * tracing changes (a span per request and per task, a span event per transition, metrics per request).
 */
export const tracedWorkloads: ReadonlyArray<WorkloadName> = ["one-stream", "task-throughput"]

/** Every contender, in the order they are reported. */
export const contenderSpecs = (options: SpecOptions): ReadonlyArray<ContenderSpec> => {
  const ttl = ["--ttl", String(options.ttlMs), ...(options.logWindow === undefined ? [] : ["--log-window", String(options.logWindow)])]
  const drop = options.rawDrop === undefined ? [] : ["--drop", String(options.rawDrop)]
  return [
    { contender: "a2a-actors", runtime: "node", command: process.execPath, args: [...nodeArgs, nodeBundle("a2a-actors-node.ts"), ...ttl] },
    // The same server as a2a-actors (node), the load speaking A2A 1.0 to it.
    {
      contender: "a2a-actors",
      runtime: "node",
      protocol: "1.0",
      workloads: v1Workloads,
      command: process.execPath,
      args: [...nodeArgs, nodeBundle("a2a-actors-node.ts"), ...ttl]
    },
    // The same server with telemetry.otlp on (traces, metrics and logs exported to a sink in the bench's process).
    ...(options.otlpEndpoint === undefined ? [] : [{
      contender: "a2a-actors",
      runtime: "node-traced",
      workloads: tracedWorkloads,
      command: process.execPath,
      args: [...nodeArgs, nodeBundle("a2a-actors-node.ts"), "--traced", ...ttl],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: options.otlpEndpoint, OTEL_SERVICE_NAME: "bench" }
    }]),
    { contender: "a2a-actors", runtime: "node-web", command: process.execPath, args: [...nodeArgs, nodeBundle("a2a-actors-node.ts"), "--web", ...ttl] },
    { contender: "a2a-actors", runtime: "bun", command: bin("bun"), args: [file("a2a-actors-bun.ts"), ...ttl] },
    {
      contender: "a2a-actors",
      runtime: "deno",
      command: bin("deno"),
      args: ["run", ...denoRunFlags, "-A", "--v8-flags=--expose-gc", file("a2a-actors-deno.ts"), ...ttl]
    },
    { contender: "a2a-js", runtime: "node", command: process.execPath, args: [...nodeArgs, nodeBundle("a2a-js.ts")] },
    // Task throughput only: the SDK 1.3's server CPU per streamed event grows with the stream's length (about
    // 0.9 ms per 1,000 events already sent: 0.56 ms at 500, 3.6 ms at 4,000), so one stream of 100,000 events
    // would take it over an hour, and many streams of 1,000 events half a minute a round.
    {
      contender: "a2a-js-v1",
      runtime: "node",
      protocol: "1.0",
      workloads: ["task-throughput"],
      command: process.execPath,
      args: [...nodeArgs, nodeBundle("a2a-js-v1.ts")]
    },
    { contender: "raw-node", runtime: "node", command: process.execPath, args: [...nodeArgs, nodeBundle("raw-node.ts"), "--batch", "1", ...drop] },
    {
      contender: "raw-node-batched",
      runtime: "node",
      command: process.execPath,
      args: [...nodeArgs, nodeBundle("raw-node.ts"), "--batch", String(options.batch ?? 256)]
    }
  ]
}

/** A contender's label in tables: `name` or `name (runtime)`, and the version when it is 1.0. */
export const labelOf = (spec: { readonly contender: string; readonly runtime: string; readonly protocol?: string }): string => {
  const name = spec.contender === "a2a-actors" ? `a2a-actors (${spec.runtime})` : spec.contender
  return spec.protocol === "1.0" ? `${name} A2A 1.0` : name
}

/** Starts a contender and waits until it listens. `extraArgs` go to the contender's program (e.g. profiling flags go first for node). */
export const startContender = (spec: ContenderSpec, options: { readonly startupMs?: number; readonly runtimeArgs?: ReadonlyArray<string> } = {}): Promise<RunningContender> =>
  new Promise((resolve, reject) => {
    const args = spec.command === process.execPath ? [...(options.runtimeArgs ?? []), ...spec.args] : [...spec.args]
    const child: ChildProcess = spawn(spec.command, args, {
      cwd: root,
      ...(spec.env === undefined ? {} : { env: { ...process.env, ...spec.env } }),
      stdio: ["pipe", "pipe", "pipe"]
    })
    let stderr = ""
    let stdout = ""
    let exited = false
    const waiting: Array<(line: Record<string, unknown>) => void> = []
    let announced = false
    const timer = setTimeout(() => {
      fail(new Error(`${labelOf(spec)} did not start within ${options.startupMs ?? 60_000} ms\n${stderr.slice(-2000)}`))
    }, options.startupMs ?? 60_000)
    const fail = (e: Error) => {
      clearTimeout(timer)
      if (!exited) child.kill("SIGKILL")
      reject(e)
    }
    child.stderr?.setEncoding("utf8")
    child.stderr?.on("data", (d: string) => {
      stderr = (stderr + d).slice(-20_000)
    })
    child.on("exit", (code, signal) => {
      exited = true
      if (!announced) fail(new Error(`${labelOf(spec)} exited (${code ?? signal}) before listening\n${stderr.slice(-2000)}`))
    })
    child.stdout?.setEncoding("utf8")
    child.stdout?.on("data", (d: string) => {
      stdout += d
      for (let nl = stdout.indexOf("\n"); nl >= 0; nl = stdout.indexOf("\n")) {
        const line = stdout.slice(0, nl).trim()
        stdout = stdout.slice(nl + 1)
        if (!line.startsWith("{")) continue
        let parsed: Record<string, unknown>
        try {
          parsed = JSON.parse(line) as Record<string, unknown>
        } catch {
          continue
        }
        if (parsed["ready"] === true && !announced) {
          announced = true
          clearTimeout(timer)
          resolve(running(String(parsed["url"])))
        } else if (typeof parsed["rss"] === "number") {
          waiting.shift()?.(parsed)
        }
      }
    })
    const running = (url: string): RunningContender => ({
      spec,
      url,
      stderrTail: () => stderr.slice(-2000),
      cpuMicros: () => {
        const micros = child.pid === undefined ? undefined : processCpuMicros(child.pid)
        if (micros === undefined) throw new Error(`${labelOf(spec)}: its CPU time cannot be read (has it exited?)\n${stderr.slice(-2000)}`)
        return micros
      },
      rss: () =>
        new Promise((ok, ko) => {
          if (exited) return ko(new Error(`${labelOf(spec)} has exited\n${stderr.slice(-2000)}`))
          waiting.push((line) => ok({ bytes: Number(line["rss"]), heapBytes: Number(line["heap"]), gc: line["gc"] === true }))
          child.stdin?.write("rss\n")
        }),
      stop: () =>
        new Promise<void>((done) => {
          if (exited) return done()
          // Asked politely first, so a profiled Node process gets to write its profile.
          const term = setTimeout(() => child.kill("SIGTERM"), 3_000)
          const force = setTimeout(() => child.kill("SIGKILL"), 6_000)
          child.once("exit", () => {
            clearTimeout(term)
            clearTimeout(force)
            done()
          })
          child.stdin?.write("exit\n")
        })
    })
  })
