#!/usr/bin/env node
/**
 * Entry point of the `a2a-actors` command, also installed as `a2a` (`npx a2a-actors`, `tsx src/cli/main.ts`):
 * hands the process's arguments and output streams to `run` and exits with its code. See `run.ts` for the
 * commands and exit codes.
 *
 * @module
 */
import process from "node:process"
import { run } from "./run.ts"

// A reader that stops reading (`a2a-actors stream … | head`) ends the command quietly: what it wanted is printed.
for (const output of [process.stdout, process.stderr]) {
  output.on("error", (error: Error & { readonly code?: unknown }) => {
    if (error.code === "EPIPE") process.exit(0)
    throw error
  })
}

process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr })
