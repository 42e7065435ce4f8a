/**
 * Runs the client checks on Node with the `node:http` bridge:
 * `node --import tsx conformance/client-runtimes/run-node.ts`.
 */
import { runClientChecks } from "./client-checks.ts"
import { serveNode } from "./serve-node.ts"

const { failed } = await runClientChecks("node", serveNode)
// Explicit exit: kept-alive sockets of the fetch pool must not hold the process open.
process.exit(failed === 0 ? 0 : 1)
