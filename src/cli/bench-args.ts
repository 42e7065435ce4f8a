/**
 * The options of `a2a bench` read from the command line into `BenchmarkOptions`; a value that is not
 * what its flag takes is a usage error naming the flag. The bounds themselves are `benchmark`'s.
 *
 * @module
 */
import type { BenchmarkOptions, BenchWorkload } from "../bench/benchmark.ts"
import { benchWorkloads } from "../bench/benchmark.ts"
import type { BenchTransport } from "../bench/outcome.ts"
import type { ParsedArgs } from "./args.ts"

/** The options as read, and the message file still to read. */
export interface BenchCommandOptions {
  readonly options: BenchmarkOptions
  readonly messageFile: string | undefined
}

const TRANSPORTS: ReadonlyMap<string, BenchTransport | "auto"> = new Map([
  ["jsonrpc", "JSONRPC"],
  ["json-rpc", "JSONRPC"],
  ["rest", "HTTP+JSON"],
  ["http+json", "HTTP+JSON"],
  ["auto", "auto"]
])

/** A duration: `30`, `30s`, `1500ms`, `2m`; in milliseconds. */
export const parseDuration = (raw: string): number | undefined => {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw.trim())
  if (match === null) return undefined
  const n = Number(match[1])
  return Math.round(match[2] === "ms" ? n : match[2] === "m" ? n * 60_000 : n * 1000)
}

const number = (flag: string, raw: string, integer: boolean): number | string => {
  const n = Number(raw)
  return raw.trim() !== "" && Number.isFinite(n) && (!integer || Number.isInteger(n)) && n > 0
    ? n
    : `${flag} expects a positive ${integer ? "whole number" : "number"}, got "${raw}"`
}

/** The bench options of `args`, or a usage message. */
export const benchCommandOptions = (args: ParsedArgs): BenchCommandOptions | string => {
  const { values, switches } = args.bench
  const last = (flag: string) => values.get(flag)?.at(-1)
  const options: { -readonly [K in keyof BenchmarkOptions]: BenchmarkOptions[K] } = {}

  const workload = last("--workload")
  if (workload !== undefined) {
    if (!(benchWorkloads as ReadonlyArray<string>).includes(workload)) {
      return `--workload expects one of ${benchWorkloads.join(", ")}, got "${workload}"`
    }
    options.workload = workload as BenchWorkload
  }
  const transport = last("--transport")
  if (transport !== undefined) {
    const chosen = TRANSPORTS.get(transport.toLowerCase())
    if (chosen === undefined) return `--transport expects jsonrpc, rest or auto, got "${transport}"`
    options.transport = chosen
  }
  for (const [flag, key, integer] of [
    ["--concurrency", "concurrency", true],
    ["--requests", "requests", true],
    ["--rate", "rate", false],
    ["--drop-after", "dropAfter", true]
  ] as const) {
    const raw = last(flag)
    if (raw === undefined) continue
    const n = number(flag, raw, integer)
    if (typeof n === "string") return n
    options[key] = n
  }
  const duration = last("--duration")
  if (duration !== undefined) {
    const ms = parseDuration(duration)
    if (ms === undefined || ms <= 0) return `--duration expects a time such as 30s, 1500ms or 2m, got "${duration}"`
    options.durationMs = ms
  }
  if (options.dropAfter !== undefined && options.workload !== "resubscribe") return "--drop-after applies to --workload resubscribe"
  const message = last("--message")
  const messageFile = last("--message-file")
  if (message !== undefined && messageFile !== undefined) return "give --message or --message-file, not both"
  if (message !== undefined) options.message = message
  if (switches.has("--numbered-chunks")) options.numberedChunks = true
  if (switches.has("--insecure")) options.insecure = true
  if (switches.has("--allow-remote")) options.allowRemote = true
  if (Object.keys(args.headers).length > 0) options.headers = args.headers
  if (args.token !== undefined) options.token = args.token
  if (args.timeoutMs !== undefined) options.timeoutMs = args.timeoutMs
  if (args.protocol !== undefined) options.protocolVersion = args.protocol
  return { options, messageFile }
}
