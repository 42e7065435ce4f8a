/**
 * The agent for black-box conformance runs, behaving like the official TCK's reference agent.
 *
 * A plain message gets a Task that goes `working` at once (its first stream event is the Task,
 * `submitted`), emits one text artifact after {@link stepMs}, and completes {@link stepMs} later:
 * about a second in all, so its streams end by themselves with a final `completed` status. It can be
 * canceled meanwhile. A message whose `messageId` starts with {@link longLivedPrefix} keeps its task
 * `working` for {@link longLivedMs} before the artifact, for kits that resubscribe to a live task.
 * A follow-up message on a task that is not terminal grows its history and is acknowledged with a
 * `working` status update, so it shows on open streams.
 *
 * A message whose `messageId` starts with `tck-` gets what the official A2A 1.0 kit expects instead (see
 * `conformance-kit-v1.ts`): one agent serves both kits, over either version, with no version check.
 *
 * It declares streaming and push notifications, the MIME types conformance kits send, and no
 * security scheme.
 */
import { Clock, Effect } from "effect"
import { Agent, type AgentCardInput } from "../../src/agent/agent.ts"
import { messageText } from "../../src/agent/messages.ts"
import type { TaskContext } from "../../src/agent/task-context.ts"
import { kitBehaviour } from "./conformance-kit-v1.ts"

const modes = ["text/plain", "application/json", "application/octet-stream"]

/** Pause between the steps of a plain task: `working`, the artifact, `completed`. */
export const stepMs = 500

/** The `messageId` prefix conformance kits use for a task they resubscribe to while it runs. */
export const longLivedPrefix = "test-resubscribe-message-id"

/** How long a task started with {@link longLivedPrefix} stays `working` (kits need at least 10 s). */
export const longLivedMs = 15_000

/** How often a pause looks for follow-up messages. */
const followUpPollMs = 100

/** The conformance agent's card. */
export const conformanceCard: AgentCardInput = {
  name: "a2a-actors conformance agent",
  description: "Works on each message for about a second, answers with one text artifact and completes, for black-box conformance runs.",
  version: "1.0.0",
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: modes,
  defaultOutputModes: modes,
  skills: [{
    id: "respond",
    name: "Respond",
    description: `Works for about a second, then answers with one text artifact and completes. A messageId starting with "${longLivedPrefix}" keeps the task working for ${longLivedMs / 1000} s first.`,
    tags: ["conformance"]
  }]
}

const userMessages = (ctx: TaskContext): number => ctx.history.reduce((n, m) => (m.role === "user" ? n + 1 : n), 0)

/** Waits `ms`, answering each follow-up message that arrives meanwhile with a `working` status update. */
const pause = (ctx: TaskContext, ms: number) =>
  Effect.gen(function* () {
    const until = (yield* Clock.currentTimeMillis) + ms
    let seen = userMessages(ctx)
    for (;;) {
      const left = until - (yield* Clock.currentTimeMillis)
      if (left <= 0) return
      yield* Effect.sleep(Math.min(left, followUpPollMs))
      const now = userMessages(ctx)
      if (now > seen) {
        seen = now
        yield* ctx.working()
      }
    }
  })

/** The text of the artifact: what the user sent, or a note when it held no text. */
const answer = (ctx: TaskContext): string => {
  const text = messageText(ctx.message)
  return text === "" ? "Received a message without text" : `Received: ${text}`
}

/** The conformance agent. */
export const conformanceAgent = Agent.make({
  card: conformanceCard,
  // No agent message: a task's history holds exactly the messages the client sent.
  execute: (ctx) =>
    Effect.gen(function* () {
      const kit = kitBehaviour(ctx.message.messageId)
      if (kit !== undefined) return yield* kit(ctx)
      yield* ctx.working()
      yield* pause(ctx, ctx.message.messageId.startsWith(longLivedPrefix) ? longLivedMs : stepMs)
      yield* ctx.artifact(answer(ctx), { name: "response" })
      yield* pause(ctx, stepMs)
      yield* ctx.complete()
    })
})
