/**
 * Runs the REST scenarios against any A2A 0.3.0 REST (HTTP+JSON) binding: `runRestScenarios({ url })`
 * with the binding's base URL (the card's `HTTP+JSON` interface URL; `v1/...` goes after it). Web APIs
 * only, so it runs on Node, Bun and Deno; the server may live in another process.
 */
import { ScenarioSkipped } from "../scenarios/harness.ts"
import { describe } from "../scenarios/http-client.ts"
import type { ScenarioReport, ScenarioResult } from "../scenarios/run.ts"
import { allRestScenarios } from "./all.ts"
import { RestScenarioContext, type RestScenario } from "./harness.ts"

export { resultLine, type ScenarioReport, type ScenarioResult, summaryLine } from "../scenarios/run.ts"

/** Options of `runRestScenarios`. */
export interface RestRunOptions {
  /** The REST base URL, e.g. `http://127.0.0.1:8080/`. */
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
  readonly scenarios?: ReadonlyArray<RestScenario>
  /** Called after each scenario. */
  readonly onResult?: (result: ScenarioResult) => void
}

const matches = (filter: RestRunOptions["filter"], name: string): boolean => {
  if (filter === undefined) return true
  if (typeof filter === "string") return name.includes(filter)
  if (filter instanceof RegExp) return filter.test(name)
  return filter(name)
}

const runOne = async (s: RestScenario, t: RestScenarioContext, boundMs: number): Promise<Omit<ScenarioResult, "name" | "durationMs">> => {
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

/** Runs the REST scenarios one after another. */
export const runRestScenarios = async (options: RestRunOptions): Promise<ScenarioReport> => {
  const timeoutMs = options.timeoutMs ?? 5000
  const boundMs = options.scenarioTimeoutMs ?? 60_000
  const webhookUrl = options.webhookUrl ?? "https://push-receiver.invalid/a2a/webhook"
  const results: Array<ScenarioResult> = []
  for (const s of options.scenarios ?? allRestScenarios) {
    if (!matches(options.filter, s.name)) continue
    const started = Date.now()
    const outcome = await runOne(s, new RestScenarioContext(options.url, timeoutMs, webhookUrl), boundMs)
    const result: ScenarioResult = { name: s.name, ...outcome, durationMs: Date.now() - started }
    results.push(result)
    options.onResult?.(result)
  }
  const count = (status: ScenarioResult["status"]): number => results.filter((r) => r.status === status).length
  return { passed: count("passed"), failed: count("failed"), skipped: count("skipped"), results }
}
