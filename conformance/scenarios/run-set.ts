/**
 * Running a set of black-box scenarios, whatever binding they speak: each scenario gets a fresh
 * context, a time bound, and its cleanups run afterwards. The JSON-RPC and REST suites both
 * run through here.
 */
import { ScenarioSkipped } from "./harness.ts"
import { describe } from "./http-client.ts"

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

/** What every scenario context offers the runner. */
export interface CleanupContext {
  readonly cleanup: () => Promise<void>
}

/** A named scenario over a context of type `C`. */
export interface RunnableScenario<C> {
  readonly name: string
  readonly run: (t: C) => Promise<void>
}

/** Options every suite's runner takes. */
export interface CommonRunOptions {
  /** Keep only scenarios whose name contains this text, matches this RegExp, or passes this predicate. */
  readonly filter?: string | RegExp | ((name: string) => boolean)
  /** Bound for each network wait, in milliseconds (default 5000). */
  readonly timeoutMs?: number
  /** Bound for a whole scenario, in milliseconds (default 60000). */
  readonly scenarioTimeoutMs?: number
  /** Webhook URL put in push configs; the `.invalid` default can never resolve, so nothing leaves the host. */
  readonly webhookUrl?: string
  /** Called after each scenario (the CLI prints from here). */
  readonly onResult?: (result: ScenarioResult) => void
}

/** The webhook used when none is given: a reserved name that never resolves. */
export const defaultWebhookUrl = "https://push-receiver.invalid/a2a/webhook"

const matches = (filter: CommonRunOptions["filter"], name: string): boolean => {
  if (filter === undefined) return true
  if (typeof filter === "string") return name.includes(filter)
  if (filter instanceof RegExp) return filter.test(name)
  return filter(name)
}

const runOne = async <C extends CleanupContext>(
  s: RunnableScenario<C>,
  t: C,
  boundMs: number
): Promise<Omit<ScenarioResult, "name" | "durationMs">> => {
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

/** Runs `scenarios` one after another, each with a context from `context()`. */
export const runScenarioSet = async <C extends CleanupContext>(
  scenarios: ReadonlyArray<RunnableScenario<C>>,
  context: () => C,
  options: CommonRunOptions
): Promise<ScenarioReport> => {
  const boundMs = options.scenarioTimeoutMs ?? 60_000
  const results: Array<ScenarioResult> = []
  for (const s of scenarios) {
    if (!matches(options.filter, s.name)) continue
    const started = Date.now()
    const outcome = await runOne(s, context(), boundMs)
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
