/**
 * The demo agent that `npm start` serves. Each behaviour has its own skill, chosen by the
 * message's `metadata.skill` or by how the text starts:
 *
 * - `echo` (any other text): streams the text back as artifact chunks, then completes.
 * - `reply` (text starting with "reply"): answers with a single Message and no task.
 * - `greet` (text starting with "greet"): asks for a name (`input-required`), then greets.
 * - `approval` (text starting with "draft"): the approval workflow machine; the reviewer answers
 *   "approve", "reject <why>" or "revise <what>", or calls `approval/approve` and friends.
 * - `count` (text "count <n>", n from 1 to 1000): streams n numbered text chunks ("1\n", "2\n", ...),
 *   one every 100 ms, then completes. Handy for watching a stream, and for cutting and resuming one.
 */
import { Duration, Effect } from "effect"
import { Agent, type AgentCardInput } from "../../src/agent/agent.ts"
import type { WorkflowAgent } from "../../src/workflow/index.ts"
import { approvalAgent, approvalExtension } from "./approval.ts"
import { messageText } from "../../src/agent/messages.ts"
import type { TaskContext } from "../../src/agent/task-context.ts"

/** The demo agent's card. */
export const demoCard: AgentCardInput = {
  name: "a2a-actors demo agent",
  description: "Echoes text as streamed artifacts, answers with plain messages and asks for input.",
  version: "1.0.0",
  capabilities: { streaming: true, pushNotifications: false, extensions: [approvalExtension.declaration] },
  defaultInputModes: ["text/plain", "application/json"],
  defaultOutputModes: ["text/plain"],
  skills: [
    { id: "echo", name: "Echo", description: "Streams the text back in a few artifact chunks.", tags: ["echo", "streaming"], examples: ["hello there"] },
    { id: "reply", name: "Reply", description: "Answers with a single message, no task.", tags: ["message"], examples: ["reply hello"] },
    { id: "greet", name: "Greet", description: "Asks for your name, then greets you.", tags: ["input-required"], examples: ["greet"] },
    { id: "approval", name: "Draft for approval", description: "Drafts a document and waits for approve, reject or revise.", tags: ["workflow"], examples: ["draft a launch note"] },
    { id: "count", name: "Count", description: "Streams n numbered text chunks (1 to 1000), one every 100 ms, then completes.", tags: ["streaming"], examples: ["count 60"] }
  ]
}

/**
 * The skill of a task, chosen by the message that created it: a resumed run (see `ctx.resumed`) is for a
 * later message, such as the answer to a question, which says nothing of the skill.
 */
const skillOf = (ctx: TaskContext): string => {
  const first = ctx.resumed ? ctx.history.find((m) => m.role === "user") ?? ctx.message : ctx.message
  const chosen = first.metadata?.["skill"]
  if (typeof chosen === "string") return chosen
  const text = messageText(first).trimStart().toLowerCase()
  if (text.startsWith("reply")) return "reply"
  if (text.startsWith("greet")) return "greet"
  if (text.startsWith("draft")) return "approval"
  if (/^count\b/.test(text)) return "count"
  return "echo"
}

/** Splits text into about `count` chunks, keeping every character. */
const chunksOf = (text: string, count: number): Array<string> => {
  const size = Math.max(1, Math.ceil(text.length / count))
  const out: Array<string> = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out.length > 0 ? out : [""]
}

const echo = (ctx: TaskContext) =>
  Effect.gen(function* () {
    yield* ctx.working("Echoing")
    const chunks = chunksOf(messageText(ctx.message), 4)
    for (const [i, chunk] of chunks.entries()) {
      yield* ctx.artifact(chunk, { artifactId: "echo", name: "echo", append: i > 0, lastChunk: i === chunks.length - 1 })
    }
    yield* ctx.complete("Done")
  })

/** The most chunks `count` streams. */
export const countLimit = 1_000
/** The pause between two chunks of `count`. */
export const countInterval = Duration.millis(100)

const countOf = (text: string): number | undefined => {
  const match = /^\s*count\s+(\d{1,4})\s*$/i.exec(text)
  const n = match === null ? Number.NaN : Number(match[1])
  return Number.isInteger(n) && n >= 1 && n <= countLimit ? n : undefined
}

const count = (ctx: TaskContext) =>
  Effect.gen(function* () {
    const n = countOf(messageText(ctx.message))
    if (n === undefined) return yield* ctx.reject(`count takes a whole number from 1 to ${countLimit}, as in "count 60"`)
    yield* ctx.working(`Counting to ${n}`)
    for (let i = 1; i <= n; i++) {
      if (i > 1) yield* Effect.sleep(countInterval)
      yield* ctx.artifact(`${i}\n`, { artifactId: "count", name: "count", append: i > 1, lastChunk: i === n })
    }
    yield* ctx.complete(`Counted to ${n}`)
  })

const greet = (ctx: TaskContext) =>
  Effect.gen(function* () {
    // A resumed greeting waited for the name (its first run asked on an instance that stopped): this is it.
    const answer = ctx.resumed ? ctx.message : yield* ctx.requestInput("What is your name?")
    yield* ctx.complete(`Hello, ${messageText(answer).trim() || "stranger"}!`)
  })

/** The demo agent. Its approval skill runs the workflow agent, whose extension methods it serves too. */
export const demoAgent: WorkflowAgent = {
  ...Agent.make({
    card: demoCard,
    execute: (ctx) => {
      switch (skillOf(ctx)) {
        case "reply":
          return ctx.reply(`You said: ${messageText(ctx.message)}`)
        case "greet":
          return greet(ctx)
        case "approval":
          return approvalAgent.execute(ctx)
        case "count":
          return count(ctx)
        default:
          return echo(ctx)
      }
    }
  }),
  workflowExtensions: approvalAgent.workflowExtensions
}
