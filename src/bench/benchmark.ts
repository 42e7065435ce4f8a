/**
 * `benchmark(url, options)`: a load test of one A2A agent, the engine of `a2a bench`.
 *
 * It checks the options against documented bounds, refuses a target that is not this machine unless
 * `allowRemote` is set, reads the agent card (either version) to find the endpoint of the chosen binding
 * and version, applies the load
 * (see `load.ts`), checks every answer (see `stream-check.ts`) and returns the figures. Only accepted answers
 * count towards throughput and latency; the others are counted by kind of failure.
 *
 * The network parts (`node:http`, `node:https`, `node:dns`) are loaded when a benchmark runs, so importing
 * the client entry point needs none of them.
 *
 * @module
 */
import { Schema } from "effect"
import { Message } from "../../schemas/message.ts"
import { cardCandidates, pickInterface, readCard } from "../client/discovery.ts"
import type { MessageTemplate } from "./load-client.ts"
import type { LatencySummary } from "./stats.ts"
import { checkHost, type HostResolver } from "./loopback.ts"
import { type BenchTransport, type BenchVersion, tooShortToCut } from "./outcome.ts"
import { type BenchResult, buildResult } from "./result.ts"

/** The workloads. */
export const benchWorkloads = ["send", "stream", "resubscribe"] as const
/** One workload: blocking `message/send`, `message/stream` read to the end, or a stream cut and resumed. */
export type BenchWorkload = (typeof benchWorkloads)[number]

/** The documented maxima (and minima) of the options. */
export const benchLimits = {
  concurrency: { min: 1, max: 1_000, default: 10 },
  durationMs: { min: 100, max: 600_000, default: 10_000 },
  requests: { min: 1, max: 1_000_000 },
  rate: { min: 0.1, max: 10_000 },
  timeoutMs: { min: 1, max: 600_000, default: 30_000 },
  dropAfter: { min: 1, max: 10_000, default: 2 }
} as const

/** Progress of a running benchmark. */
export interface BenchProgress {
  readonly elapsedMs: number
  /** Answers accepted so far. */
  readonly completed: number
  readonly errors: number
  /** Answers (accepted or not) per second over the last second or so. */
  readonly ratePerS: number
}

/** What is about to run, once the options are checked and the endpoint found. */
export interface BenchPlan {
  readonly endpoint: string
  readonly transport: BenchTransport
  /** The A2A version the load speaks. */
  readonly protocolVersion: BenchVersion
  readonly workload: BenchWorkload
  readonly concurrency: number
  readonly durationMs?: number
  readonly requests?: number
  readonly rate?: number
  readonly timeoutMs: number
}

/** Options of `benchmark`. */
export interface BenchmarkOptions {
  /** Default `send`. */
  readonly workload?: BenchWorkload
  /** `auto` (default) takes the binding of the interface `protocolVersion` picks. */
  readonly transport?: BenchTransport | "auto"
  /**
   * The A2A version: `auto` (default) picks as the client does (the card's first 1.0 interface this load
   * client speaks, else its first 0.3 one); `"1.0"` or `"0.3"` pins it.
   */
  readonly protocolVersion?: BenchVersion | "auto"
  /** Requests in flight at most (default 10, at most 1,000). */
  readonly concurrency?: number
  /** How long to start requests (default 10 s when `requests` is not given; at most 10 minutes). */
  readonly durationMs?: number
  /** How many requests (at most 1,000,000); with `durationMs` too, whichever comes first. */
  readonly requests?: number
  /** Requests per second, due at fixed times whatever the answers do (open model; at most 10,000). */
  readonly rate?: number
  /** The message: a text, or an A2A Message (its `messageId` is replaced on each request). Default `hello`. */
  readonly message?: string | MessageTemplate
  /** Each artifact's chunks carry consecutive integers ("1\n", "2\n", ...): check their order. */
  readonly numberedChunks?: boolean
  /** `resubscribe`: events to read before cutting the stream (default 2). */
  readonly dropAfter?: number
  /** Headers sent with every request, the card's included. */
  readonly headers?: Readonly<Record<string, string>>
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string
  /** Accept a TLS certificate that does not verify (self-signed). Only when asked for. */
  readonly insecure?: boolean
  /** Allow a target that is not this machine. */
  readonly allowRemote?: boolean
  /** A request (a whole stream) fails with `timeout` after this long (default 30 s). */
  readonly timeoutMs?: number
  /** Stops starting requests; the result covers what ran. */
  readonly signal?: AbortSignal
  /** Called once the plan is known, before any load. */
  readonly onStart?: (plan: BenchPlan) => void
  /** Called about every `progressIntervalMs` (default 250) while the load runs. */
  readonly onProgress?: (progress: BenchProgress) => void
  readonly progressIntervalMs?: number
  /** How host names are resolved for the loopback check (default: the system resolver). */
  readonly resolveHost?: HostResolver
}

/** An option out of its bounds, or a command line that cannot run. */
export class BenchOptionError extends Error {
  override readonly name = "BenchOptionError"
}

/** A target that is not this machine, without `allowRemote`. */
export class BenchRefusedError extends Error {
  override readonly name = "BenchRefusedError"
}

/** The agent could not be reached or gave no usable card. `unreachable` tells which. */
export class BenchTargetError extends Error {
  override readonly name = "BenchTargetError"
  constructor(message: string, readonly unreachable: boolean) {
    super(message)
  }
}

const within = (name: string, value: number | undefined, limits: { readonly min: number; readonly max: number }, integer: boolean) => {
  if (value === undefined) return
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < limits.min || value > limits.max) {
    throw new BenchOptionError(`${name} must be ${integer ? "a whole number" : "a number"} from ${limits.min} to ${limits.max.toLocaleString("en-US")}, got ${value}`)
  }
}

const decodeMessage = Schema.decodeUnknownResult(Message)

/** The message template of the options, checked as an A2A Message. */
export const messageTemplate = (message: string | MessageTemplate | undefined): MessageTemplate => {
  if (message === undefined || typeof message === "string") {
    return { kind: "message", role: "user", parts: [{ kind: "text", text: message ?? "hello" }] }
  }
  const decoded = decodeMessage({ messageId: "bench", ...message })
  if (decoded._tag === "Failure") throw new BenchOptionError(`the message is not an A2A Message: ${decoded.failure.message}`)
  return message
}

/**
 * Whether a failed connection failed on the server's certificate (Node's and Bun's OpenSSL codes, Deno's
 * rustls messages), so the message can say so instead of "is the agent running?".
 */
const isCertificateFailure = (error: { readonly kind: string; readonly message: string }): boolean =>
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(error.kind) || /certificate|UnknownIssuer/i.test(error.message)

const describeHost = (host: string, addresses: ReadonlyArray<string>) =>
  addresses.length === 0 || (addresses.length === 1 && addresses[0] === host) ? host : `${host} (${addresses.join(", ")})`

/**
 * Runs a benchmark against the agent at `url` (its base URL or card URL) and resolves to its figures.
 * Rejects with `BenchOptionError` (bad options, or a `resubscribe` whose first stream ends before its cut),
 * `BenchRefusedError` (not this machine, without `allowRemote`) or `BenchTargetError` (no agent there)
 * before any load is sent.
 *
 * @example
 * ```ts
 * const result = await benchmark("http://127.0.0.1:41241", { workload: "stream", requests: 200, concurrency: 8 })
 * console.log(result.throughputPerS, result.latencyMs?.p99)
 * ```
 */
export const benchmark = async (url: string, options: BenchmarkOptions = {}): Promise<BenchResult> => {
  const workload = options.workload ?? "send"
  if (!(benchWorkloads as ReadonlyArray<string>).includes(workload)) {
    throw new BenchOptionError(`unknown workload "${workload}"; one of ${benchWorkloads.join(", ")}`)
  }
  within("concurrency", options.concurrency, benchLimits.concurrency, true)
  within("duration (ms)", options.durationMs, benchLimits.durationMs, true)
  within("requests", options.requests, benchLimits.requests, true)
  within("rate (per second)", options.rate, benchLimits.rate, false)
  within("timeout (ms)", options.timeoutMs, benchLimits.timeoutMs, true)
  within("events before the cut", options.dropAfter, benchLimits.dropAfter, true)
  const message = messageTemplate(options.message)
  let target: URL
  try {
    target = new URL(url)
  } catch {
    throw new BenchOptionError(`"${url}" is not a URL`)
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") throw new BenchOptionError(`"${url}" is not an http(s) URL`)
  const concurrency = options.concurrency ?? benchLimits.concurrency.default
  const durationMs = options.durationMs ?? (options.requests === undefined ? benchLimits.durationMs.default : undefined)
  const timeoutMs = options.timeoutMs ?? benchLimits.timeoutMs.default
  const headers = { ...options.headers, ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }) }

  const resolveHost = options.resolveHost ?? (await import("./system-resolver.ts")).systemResolver
  const refuseRemote = async (where: URL, what: string) => {
    if (options.allowRemote === true) return
    let check
    try {
      check = await checkHost(where, resolveHost)
    } catch (e) {
      throw new BenchTargetError(`cannot resolve ${where.hostname}: ${e instanceof Error ? e.message : String(e)}`, true)
    }
    if (!check.loopback) {
      throw new BenchRefusedError(
        `refusing to load-test ${what}${describeHost(check.host, check.addresses)}: it is not this machine (loopback: 127.0.0.0/8, ::1). ` +
          "Benchmark an agent you run; to load another machine on purpose, add --allow-remote (allowRemote: true)."
      )
    }
  }
  await refuseRemote(target, "")

  const { getJson, makeTarget, resubscribeOnce, sendOnce, streamOnce } = await import("./load-client.ts")
  const { runLoad, Tally } = await import("./load.ts")

  // The card says where each binding is, and in which versions; it is asked for in 1.0 (0.3 when pinned).
  const version = options.protocolVersion ?? "auto"
  const cardHeaders = { ...headers, "a2a-version": version === "0.3" ? "0.3" : "1.0" }
  let card: ReturnType<typeof readCard> | undefined
  let cardUrl = ""
  for (const candidate of cardCandidates(target.href)) {
    const got = await getJson(candidate, { headers: cardHeaders, insecure: options.insecure === true, timeoutMs })
    if (got._tag === "Failed") {
      throw new BenchTargetError(
        isCertificateFailure(got.error)
          ? `the TLS certificate of ${target.host} does not verify: ${got.error.message}. ` +
            "If this is your own agent with a self-signed certificate, add --insecure (insecure: true) to accept it."
          : `cannot reach ${candidate}: ${got.error.message}. Is the agent running at that address?`,
        true
      )
    }
    if (got._tag === "Json") {
      const read = readCard(got.json)
      if (read._tag === "Success") {
        card = read
        cardUrl = candidate
        break
      }
    }
  }
  if (card === undefined || card._tag !== "Success") throw new BenchTargetError(`no A2A agent card found for ${target.href}`, false)
  const { interfaces } = card.success
  const chosen = pickInterface(interfaces, { transport: options.transport ?? "auto", version })
  if (chosen === undefined) {
    const binding = options.transport === undefined || options.transport === "auto" ? "JSON-RPC or REST" : options.transport
    const offered = interfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`).join(", ")
    throw new BenchTargetError(`the agent's card offers no ${binding} interface${version === "auto" ? "" : ` of A2A ${version}`} (it offers ${offered})`, false)
  }
  const transport = chosen.transport
  const endpoint = new URL(chosen.url, cardUrl)
  await refuseRemote(endpoint, "the card's endpoint ")

  const plan: BenchPlan = {
    endpoint: endpoint.href,
    transport,
    protocolVersion: chosen.version,
    workload,
    concurrency,
    ...(durationMs === undefined ? {} : { durationMs }),
    ...(options.requests === undefined ? {} : { requests: options.requests }),
    ...(options.rate === undefined ? {} : { rate: options.rate }),
    timeoutMs
  }
  options.onStart?.(plan)

  const pool = makeTarget(endpoint, {
    transport,
    version: chosen.version,
    ...(chosen.tenant === undefined ? {} : { tenant: chosen.tenant }),
    connections: concurrency,
    headers,
    insecure: options.insecure === true,
    timeoutMs
  })
  const checks = options.numberedChunks === true ? { numberedChunks: true } : {}
  const dropAfter = options.dropAfter ?? benchLimits.dropAfter.default
  if (workload === "resubscribe") {
    // One stream first: when it ends by the cut, every request would fail with nothing to resume.
    const probe = await streamOnce(pool, message, checks)
    if (probe.ok && probe.events <= dropAfter) {
      pool.close()
      throw new BenchOptionError(tooShortToCut(probe.events, dropAfter))
    }
  }
  const one = workload === "send"
    ? () => sendOnce(pool, message)
    : workload === "stream"
    ? () => streamOnce(pool, message, checks)
    : () => resubscribeOnce(pool, message, dropAfter, checks)

  const tally = new Tally()
  const startedAt = new Date()
  const began = performance.now()
  const window: Array<{ readonly at: number; readonly done: number }> = [{ at: began, done: 0 }]
  const timer = options.onProgress === undefined ? undefined : setInterval(() => {
    const at = performance.now()
    const done = tally.ok + tally.failed
    window.push({ at, done })
    while (window.length > 2 && at - window[0]!.at > 1_000) window.shift()
    const first = window[0]!
    options.onProgress!({
      elapsedMs: at - began,
      completed: tally.ok,
      errors: tally.failed,
      ratePerS: at > first.at ? ((done - first.done) * 1000) / (at - first.at) : 0
    })
  }, options.progressIntervalMs ?? 250)
  try {
    const run = await runLoad({
      concurrency,
      ...(durationMs === undefined ? {} : { durationMs }),
      ...(options.requests === undefined ? {} : { requests: options.requests }),
      ...(options.rate === undefined ? {} : { rate: options.rate }),
      ...(options.signal === undefined ? {} : { signal: options.signal })
    }, one, tally)
    return buildResult({
      url: target.href,
      plan,
      startedAt,
      run,
      message,
      numberedChunks: options.numberedChunks === true,
      ...(workload === "resubscribe" ? { dropAfter } : {})
    })
  } finally {
    if (timer !== undefined) clearInterval(timer)
    pool.close()
  }
}

export type { BenchResult, LatencySummary }
