/**
 * Runs the JSON-RPC scenarios against any A2A 0.3.0 JSON-RPC server. Web APIs only, so the runner
 * works on Node, Bun and Deno; the server may live in another process.
 */
import { allScenarios } from "./all.ts"
import { ScenarioContext, type Scenario } from "./harness.ts"
import { HttpClient, type HttpReply } from "./http-client.ts"
import { defaultWebhookUrl, runScenarioSet, type CommonRunOptions, type ScenarioReport } from "./run-set.ts"

export { resultLine, summaryLine, type ScenarioReport, type ScenarioResult } from "./run-set.ts"

/** Options of `runScenarios`. */
export interface RunOptions extends CommonRunOptions {
  /** The JSON-RPC endpoint; the card is read from its origin's `/.well-known/agent-card.json`. */
  readonly url: string
  /** Scenarios to run instead of the full suite. */
  readonly scenarios?: ReadonlyArray<Scenario>
}

/** Runs the JSON-RPC scenarios one after another. */
export const runScenarios = (options: RunOptions): Promise<ScenarioReport> => {
  const timeoutMs = options.timeoutMs ?? 5000
  const cardUrl = new URL("/.well-known/agent-card.json", options.url).href
  let card: Promise<HttpReply> | undefined
  const cardLoader = (): Promise<HttpReply> => {
    card ??= new HttpClient(cardUrl, timeoutMs).raw("", null, { method: "GET" })
    return card
  }
  const webhookUrl = options.webhookUrl ?? defaultWebhookUrl
  return runScenarioSet(
    options.scenarios ?? allScenarios,
    () => new ScenarioContext(options.url, timeoutMs, cardLoader, webhookUrl),
    options
  )
}
