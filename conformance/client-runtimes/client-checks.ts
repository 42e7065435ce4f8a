/**
 * The client check program: serves the scripted agent with the host runtime's own server, runs the
 * client checks against it with that runtime's `fetch`, and prints one line per check plus
 * `N passed, M failed`. It uses Web APIs and the client only; the runtime enters through `serve`
 * (see `run-node.ts`, `run-bun.ts`, `run-deno.ts`).
 *
 * @module
 */
import { hostileAgent } from "../../testing/client/hostile-agent.ts"
import { type CheckSummary, runChecks } from "./check-kit.ts"
import type { ClientCheckContext } from "./check-context.ts"
import type { Serve } from "./serve.ts"
import { streamChecks } from "./stream-checks.ts"
import { telemetryChecks } from "./telemetry-checks.ts"
import { unaryChecks } from "./unary-checks.ts"

/** Every client check, in running order. */
export const clientChecks = [...unaryChecks, ...streamChecks, ...telemetryChecks]

/** Bound of one check; the slowest passes in well under a second. */
const CHECK_TIMEOUT_MS = 15_000

/** Runs every client check on the runtime that provides `serve`; prints as it goes. */
export const runClientChecks = async (runtime: string, serve: Serve): Promise<CheckSummary> => {
  const agent = hostileAgent({ giantBytes: 256 * 1024 })
  const served = await serve(agent.handler)
  const context: ClientCheckContext = { runtime, serve, agent, url: served.url }
  try {
    return await runChecks(clientChecks, context, {
      prefix: runtime,
      timeoutMs: CHECK_TIMEOUT_MS,
      print: (line) => console.log(line)
    })
  } finally {
    await served.close()
  }
}
