/**
 * Runs the A2A 1.0 scenarios against any server speaking 1.0 on the binding given (`jsonrpc` at the card's
 * JSON-RPC URL, `rest` at its HTTP+JSON base). Web APIs only: it runs on Node, Bun and Deno.
 */
import { defaultWebhookUrl, runScenarioSet, type CommonRunOptions, type ScenarioReport } from "../scenarios/run-set.ts"
import { V1ScenarioContext, type Binding, type V1Scenario } from "./harness.ts"
import { allV1Scenarios } from "./scenarios.ts"

export { resultLine, summaryLine, type ScenarioReport, type ScenarioResult } from "../scenarios/run-set.ts"

/** Options of `runV1Scenarios`. */
export interface V1RunOptions extends CommonRunOptions {
  readonly binding: Binding
  /** The server's origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string
  /** The JSON-RPC endpoint (default: the origin's `/`). */
  readonly rpcUrl?: string
  /** The REST base (default: the origin's `/`). */
  readonly restBase?: string
  readonly scenarios?: ReadonlyArray<V1Scenario>
}

/** Runs the 1.0 scenarios one after another. */
export const runV1Scenarios = (options: V1RunOptions): Promise<ScenarioReport> => {
  const origin = options.origin.replace(/\/+$/, "")
  return runScenarioSet(
    options.scenarios ?? allV1Scenarios,
    () => new V1ScenarioContext(
      options.binding,
      origin,
      options.rpcUrl ?? `${origin}/`,
      options.restBase ?? `${origin}/`,
      options.timeoutMs ?? 5000,
      options.webhookUrl ?? defaultWebhookUrl
    ),
    options
  )
}
