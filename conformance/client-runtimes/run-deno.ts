/**
 * Runs the client checks on Deno with `Deno.serve`:
 * `deno run --allow-net --allow-env --allow-read conformance/client-runtimes/run-deno.ts`.
 */
import { runClientChecks } from "./client-checks.ts"
import { serveDeno } from "./serve-deno.ts"

declare const Deno: { exit(code: number): never }

const { failed } = await runClientChecks("deno", serveDeno)
// Explicit exit: a scripted handler that never answers would otherwise keep the event loop alive.
Deno.exit(failed === 0 ? 0 : 1)
