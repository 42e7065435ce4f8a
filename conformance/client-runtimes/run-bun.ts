/**
 * Runs the client checks on Bun with `Bun.serve`: `bun conformance/client-runtimes/run-bun.ts`.
 */
import { runClientChecks } from "./client-checks.ts"
import { serveBun } from "./serve-bun.ts"

const { failed } = await runClientChecks("bun", serveBun)
process.exit(failed === 0 ? 0 : 1)
