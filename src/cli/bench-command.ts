/**
 * `a2a bench`: runs `benchmark` with the command line's options, prints the bounds before it starts, a
 * live progress line on a terminal, and the result (text with a histogram, or `--json`); `--compare`
 * prints the ratios between two saved results. Ctrl-C stops starting requests and prints what ran.
 *
 * @module
 */
import { readFile } from "node:fs/promises"
import {
  type BenchmarkOptions,
  benchmark,
  BenchOptionError,
  type BenchPlan,
  type BenchProgress,
  BenchRefusedError,
  BenchTargetError,
  messageTemplate
} from "../bench/benchmark.ts"
import { compareResults, formatComparison, formatResult, isBenchResult, type BenchResult } from "../bench/result.ts"
import type { MessageTemplate } from "../bench/load-client.ts"
import type { ParsedArgs } from "./args.ts"
import { benchCommandOptions } from "./bench-args.ts"
import { terminalText } from "./terminal-text.ts"

/** Where `bench` writes. */
export interface BenchIo {
  readonly stdout: { readonly write: (text: string) => unknown }
  readonly stderr: { readonly write: (text: string) => unknown; readonly isTTY?: boolean }
}

/** Exit codes of `bench` (the command's documented ones). */
const Exit = { Ok: 0, Failures: 1, Usage: 2, Transport: 3, InvalidAnswer: 4 } as const

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`)

/** The bounds of the run, printed before it starts. */
export const describePlan = (plan: BenchPlan): string => {
  const binding = plan.transport === "JSONRPC" ? "JSON-RPC" : "REST"
  const stop = [
    plan.durationMs === undefined ? undefined : `for ${seconds(plan.durationMs)}`,
    plan.requests === undefined ? undefined : `at most ${plan.requests.toLocaleString("en-US")} requests`
  ].filter((s) => s !== undefined).join(" or ")
  const pace = plan.rate === undefined ? "" : `, ${plan.rate}/s offered`
  return `a2a bench: ${plan.workload} over ${binding} (A2A ${plan.protocolVersion}) to ${plan.endpoint}: at most ${plan.concurrency} in flight${pace}, ${stop}; ` +
    `each request times out after ${seconds(plan.timeoutMs)}\n`
}

const progressLine = (p: BenchProgress) =>
  `\r\x1b[2K  ${(p.elapsedMs / 1000).toFixed(1)} s  ${p.completed.toLocaleString("en-US")} ok  ${p.errors.toLocaleString("en-US")} errors  ${Math.round(p.ratePerS).toLocaleString("en-US")}/s`

const readResult = async (file: string): Promise<BenchResult | string> => {
  let text: string
  try {
    text = await readFile(file, "utf8")
  } catch (e) {
    return `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return `${file} is not JSON`
  }
  return isBenchResult(json) ? json : `${file} is not a result of a2a bench --json`
}

const compare = async (files: readonly [string, string], json: boolean, io: BenchIo): Promise<number> => {
  const [a, b] = await Promise.all(files.map(readResult))
  for (const r of [a, b]) {
    if (typeof r === "string") {
      io.stderr.write(`a2a: ${r}\n`)
      return Exit.Usage
    }
  }
  const [ra, rb] = [a as BenchResult, b as BenchResult]
  io.stdout.write(json ? `${JSON.stringify(compareResults(ra, rb), null, 2)}\n` : `${terminalText(formatComparison(ra, rb, files), { multiline: true })}\n`)
  return Exit.Ok
}

const readMessageFile = async (file: string): Promise<{ readonly message: MessageTemplate } | string> => {
  let text: string
  try {
    text = await readFile(file, "utf8")
  } catch (e) {
    return `cannot read --message-file ${file}: ${e instanceof Error ? e.message : String(e)}`
  }
  try {
    return { message: messageTemplate(JSON.parse(text) as never) }
  } catch (e) {
    return `--message-file ${file}: ${e instanceof SyntaxError ? "not JSON" : e instanceof Error ? e.message : String(e)}`
  }
}

/** Runs `a2a bench` and resolves to the exit code. */
export const runBench = async (args: ParsedArgs, io: BenchIo): Promise<number> => {
  const usage = (message: string) => {
    io.stderr.write(`a2a: ${message}\nRun "a2a --help" for usage.\n`)
    return Exit.Usage
  }
  if (args.bench.compare !== undefined) return compare(args.bench.compare, args.json, io)
  const read = benchCommandOptions(args)
  if (typeof read === "string") return usage(read)
  let options = read.options
  if (read.messageFile !== undefined) {
    const file = await readMessageFile(read.messageFile)
    if (typeof file === "string") return usage(file)
    options = { ...options, message: file.message }
  }
  const tty = io.stderr.isTTY === true
  const stop = new AbortController()
  const interrupt = () => stop.abort()
  const signals = typeof process !== "undefined" && typeof process.once === "function"
  if (signals) process.once("SIGINT", interrupt)
  let drawn = false
  try {
    const result = await benchmark(args.url, {
      ...options,
      signal: stop.signal,
      onStart: (plan) => io.stderr.write(terminalText(describePlan(plan), { multiline: true })),
      ...(tty
        ? {
          onProgress: (p: BenchProgress) => {
            drawn = true
            io.stderr.write(progressLine(p))
          }
        }
        : {})
    })
    if (drawn) io.stderr.write("\r\x1b[2K")
    // The report quotes what the agent answered (error samples, the card's name): escaped for the terminal.
    io.stdout.write(args.json ? `${JSON.stringify(result, null, 2)}\n` : `${terminalText(formatResult(result), { multiline: true })}\n`)
    return result.requests.failed > 0 || result.requests.ok === 0 ? Exit.Failures : Exit.Ok
  } catch (e) {
    if (drawn) io.stderr.write("\r\x1b[2K")
    if (e instanceof BenchOptionError || e instanceof BenchRefusedError) return usage(e.message)
    if (e instanceof BenchTargetError) {
      io.stderr.write(`a2a: ${terminalText(e.message)}\n`)
      return e.unreachable ? Exit.Transport : Exit.InvalidAnswer
    }
    throw e
  } finally {
    if (signals) process.off("SIGINT", interrupt)
  }
}
