#!/usr/bin/env node
/**
 * Entry point of the `a2a` command (`npx a2a`, `tsx src/cli/main.ts`): hands the process's arguments and
 * output streams to `run` and exits with its code. See `run.ts` for the commands and exit codes.
 *
 * @module
 */
import { run } from "./run.ts"

process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr })
