// examples/audit-chain.ts — a hash-chained audit log in a file, checked with and without Effect.
import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { type AuditEvent, hashChainSink, verifyChain, verifyChainAsync } from "../src/index.ts"

const dir = await mkdtemp(join(tmpdir(), "audit-chain-"))
const file = join(dir, "a2a-audit.jsonl")

// A server records every request and task transition through its `audit` option
// (`A2AServer.make(agent, { audit })`); here three events are recorded by hand.
const audit = await Effect.runPromise(hashChainSink({ write: (line) => appendFile(file, line, "utf8") }))
const at = new Date().toISOString()
const events: ReadonlyArray<AuditEvent> = [
  { kind: "request", at, method: "message/send", principal: "ada", outcome: "ok", durationMs: 3, requestId: 1 },
  { kind: "task-transition", at, taskId: "t-1", from: null, to: "submitted" },
  { kind: "task-transition", at, taskId: "t-1", from: "submitted", to: "completed" }
]
for (const event of events) await Effect.runPromise(audit.record(event))

// Without Effect: a Promise of the verification. Keep the head somewhere the log's writer cannot reach.
const lines = (await readFile(file, "utf8")).split("\n")
const intact = await verifyChainAsync(lines)
if (!intact.ok) throw new Error(`the log should be intact: line ${intact.line}`)
console.log(`intact: ${intact.count} records`)

// With Effect: the same check as an Effect, here of the log with its second line removed.
const shortened = await Effect.runPromise(verifyChain(lines.filter((_, i) => i !== 1)))
console.log(shortened.ok ? "intact" : `broken at line ${shortened.line}: ${shortened.reason}`)

// Cut off at the end, a log still verifies on its own; the head kept elsewhere shows what is missing.
const cut = await verifyChainAsync(lines.slice(0, 2), { expectedHead: intact.head })
console.log(cut.ok ? "intact" : `broken at line ${cut.line}: ${cut.reason}`)

// The command does the same for a file: npx a2a-actors audit verify a2a-audit.jsonl --head <seq>:<hash>
await rm(dir, { recursive: true, force: true })
