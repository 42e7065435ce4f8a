/**
 * Runs the REST scenarios against any A2A 0.3.0 REST (HTTP+JSON) binding: `runRestScenarios({ url })`
 * with the binding's base URL (the card's `HTTP+JSON` interface URL; `v1/...` goes after it). Web APIs
 * only, so it runs on Node, Bun and Deno; the server may live in another process.
 */
import { defaultWebhookUrl, runScenarioSet, type CommonRunOptions, type ScenarioReport } from "../scenarios/run-set.ts"
import { allRestScenarios } from "./all.ts"
import { RestScenarioContext, type RestScenario } from "./harness.ts"

export { resultLine, summaryLine, type ScenarioReport, type ScenarioResult } from "../scenarios/run-set.ts"

/** Options of `runRestScenarios`. */
export interface RestRunOptions extends CommonRunOptions {
  /** The REST base URL, e.g. `http://127.0.0.1:8080/`. */
  readonly url: string
  /** Scenarios to run instead of the full suite. */
  readonly scenarios?: ReadonlyArray<RestScenario>
}

/** Runs the REST scenarios one after another. */
export const runRestScenarios = (options: RestRunOptions): Promise<ScenarioReport> => {
  const timeoutMs = options.timeoutMs ?? 5000
  const webhookUrl = options.webhookUrl ?? defaultWebhookUrl
  return runScenarioSet(
    options.scenarios ?? allRestScenarios,
    () => new RestScenarioContext(options.url, timeoutMs, webhookUrl),
    options
  )
}
