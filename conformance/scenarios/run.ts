import { allScenarios } from "./all.ts"
import { ScenarioContext, ScenarioSkipped, type Scenario } from "./harness.ts"
import { describe, HttpClient, type HttpReply } from "./http-client.ts"

/** Outcome of one scenario. */
export interface ScenarioResult {
  readonly name: string
  readonly status: "passed" | "failed" | "skipped"
  /** Failure message or skip reason. */
  readonly reason?: string
  readonly durationMs: number
}

/** Totals and per-scenario outcomes of a run. */
export interface ScenarioReport {
  readonly passed: number
  readonly failed: number
  readonly skipped: number
  readonly results: ReadonlyArray<ScenarioResult>
}

/** Options of `runScenarios`. */
export interface RunOptions {
  /** The JSON-RPC endpoint; the card is read from its origin's `/.well-known/agent-card.json`. */
  readonly url: string
  /** Keep only scenarios whose name contains this text, matches this RegExp, or passes this predicate. */
  readonly filter?: string | RegExp | ((name: string) => boolean)
  /** Bound for each network wait, in milliseconds (default 5000). */
  readonly timeoutMs?: number
  /** Bound for a whole scenario, in milliseconds (default 60000). */
  readonly scenarioTimeoutMs?: number
  /** Webhook URL put in push configs; the `.invalid` default can never resolve, so nothing leaves the host. */
  readonly webhookUrl?: string
  /** Scenarios to run instead of the full suite. */
  readonly scenarios?: ReadonlyArray<Scenario>
  /** Called after each scenario (the CLI prints from here). */
  readonly onResult?: (result: ScenarioResult) => void
}

const matches = (filter: RunOptions["filter"], name: string): boolean => {
  if (filter === undefined) return true
  if (typeof filter === "string") return name.includes(filter)
  if (filter instanceof RegExp) return filter.test(name)
  return filter(name)
}

const runOne = async (s: Scenario, t: ScenarioContext, boundMs: number): Promise<Omit<ScenarioResult, "name" | "durationMs">> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`scenario exceeded ${boundMs} ms`)), boundMs)
  })
  try {
    await Promise.race([s.run(t), timeout])
    return { status: "passed" }
  } catch (e) {
    if (e instanceof ScenarioSkipped) return { status: "skipped", reason: e.message }
    return { status: "failed", reason: describe(e) }
  } finally {
    clearTimeout(timer)
    await t.cleanup()
  }
}

/**
 * Runs the black-box scenarios one after another against any A2A 0.3.0 JSON-RPC server.
 * Uses only Web APIs, so the runner works on Node, Bun and Deno; the server may live in another process.
 */
export const runScenarios = async (options: RunOptions): Promise<ScenarioReport> => {
  const timeoutMs = options.timeoutMs ?? 5000
  const boundMs = options.scenarioTimeoutMs ?? 60_000
  const webhookUrl = options.webhookUrl ?? "https://push-receiver.invalid/a2a/webhook"
  const cardUrl = new URL("/.well-known/agent-card.json", options.url).href
  let card: Promise<HttpReply> | undefined
  const cardLoader = (): Promise<HttpReply> => {
    card ??= new HttpClient(cardUrl, timeoutMs).raw("", null, { method: "GET" })
    return card
  }
  const results: Array<ScenarioResult> = []
  for (const s of options.scenarios ?? allScenarios) {
    if (!matches(options.filter, s.name)) continue
    const started = Date.now()
    const outcome = await runOne(s, new ScenarioContext(options.url, timeoutMs, cardLoader, webhookUrl), boundMs)
    const result: ScenarioResult = { name: s.name, ...outcome, durationMs: Date.now() - started }
    results.push(result)
    options.onResult?.(result)
  }
  const count = (status: ScenarioResult["status"]): number => results.filter((r) => r.status === status).length
  return { passed: count("passed"), failed: count("failed"), skipped: count("skipped"), results }
}

/** The summary line: `N passed, M failed`, with `, K skipped` when any were skipped. */
export const summaryLine = (report: ScenarioReport): string =>
  `${report.passed} passed, ${report.failed} failed${report.skipped > 0 ? `, ${report.skipped} skipped` : ""}`

/** One printable line per scenario. */
export const resultLine = (r: ScenarioResult): string => {
  const mark = r.status === "passed" ? "PASS" : r.status === "failed" ? "FAIL" : "SKIP"
  return `${mark} ${r.name} (${r.durationMs} ms)${r.reason !== undefined ? ` — ${r.reason}` : ""}`
}
