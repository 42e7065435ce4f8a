/**
 * The agent for black-box conformance runs, made for what the official 0.3 conformance kit does with one.
 *
 * Every message is answered at once, with its task `working`: the first (the Task's first stream event is
 * `submitted`, then `working`) and each follow-up on a task that is not terminal (a `working` status update,
 * so it shows on open streams; the history grows). When no message has come for {@link artifactAfterMs}, the
 * task gets one text artifact (`Received: <text>`), and {@link completeAfterMs} later it completes: a stream
 * ends by itself with a final `completed`, about 4 s after the last message. A cancel meanwhile ends it
 * `canceled`. A task whose first `messageId` starts with {@link longLivedPrefix} waits {@link longLivedMs}
 * before its artifact, for kits that resubscribe to a live task.
 *
 * Why this shape: the 0.3 kit sends `message/send` with no configuration (a blocking send, here as on the
 * official servers) and, with the answer in hand, cancels the task, sends it follow-ups (three 0.5 s apart,
 * another 2 s later), reads its history, and expects its first state to be `submitted` or `working`; so the
 * answer must come while the task is open, and the task must stay open a while after each message. Its
 * streaming tests read until a terminal event with no timeout, so every task must also end by itself. A run of
 * `execute` therefore returns at once (`onReturn: "keep"` leaves the task open, and a blocking send answers
 * once the run has returned), and a timer of its own ends the task later, unless another message came first.
 *
 * A message whose `messageId` starts with `tck-` gets what the official A2A 1.0 kit expects instead (see
 * `conformance-kit-v1.ts`): one agent serves both kits, over either version, with no version check.
 *
 * It declares streaming and push notifications, the MIME types conformance kits send, and no security scheme.
 */
import { Effect } from "effect"
import { Agent, type AgentCardInput } from "../../src/agent/agent.ts"
import { messageText } from "../../src/agent/messages.ts"
import type { TaskContext } from "../../src/agent/task-context.ts"
import { kitBehaviour } from "./conformance-kit-v1.ts"

const modes = ["text/plain", "application/json", "application/octet-stream"]

/** How long a task waits after the last message it got before its artifact. */
export const artifactAfterMs = 2_000

/** How long after its artifact a task completes. */
export const completeAfterMs = 2_000

/** The `messageId` prefix conformance kits use for a task they resubscribe to while it runs. */
export const longLivedPrefix = "test-resubscribe-message-id"

/** How long a task started with {@link longLivedPrefix} waits before its artifact (kits need at least 10 s). */
export const longLivedMs = 15_000

/** The conformance agent's card. */
export const conformanceCard: AgentCardInput = {
  name: "a2a-actors conformance agent",
  description:
    "Answers each message at once with its task working; 2 s after the last message, one text artifact, and 2 s later completed. For black-box conformance runs.",
  version: "1.0.0",
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: modes,
  defaultOutputModes: modes,
  skills: [{
    id: "respond",
    name: "Respond",
    description: `Answers at once; 2 s after the last message, one text artifact, then completes 2 s later. A first messageId starting with "${longLivedPrefix}" waits ${longLivedMs / 1000} s before the artifact.`,
    tags: ["conformance"]
  }]
}

const userMessages = (ctx: TaskContext): number => ctx.history.reduce((n, m) => (m.role === "user" ? n + 1 : n), 0)

/** Whether the task's first message asked for a long-lived task. */
const longLived = (ctx: TaskContext): boolean =>
  ctx.history.find((m) => m.role === "user")?.messageId.startsWith(longLivedPrefix) ?? ctx.message.messageId.startsWith(longLivedPrefix)

/** The text of the artifact: what the user sent last, or a note when it held no text. */
const answer = (ctx: TaskContext): string => {
  const text = messageText(ctx.message)
  return text === "" ? "Received a message without text" : `Received: ${text}`
}

/**
 * Ends the task later: the artifact, then `completed`, each only while no newer message came (the run that
 * message started ends the task instead). Refused actions (the task was canceled meanwhile) change nothing.
 */
const finishLater = (ctx: TaskContext, turn: number) =>
  Effect.gen(function* () {
    const current = () => userMessages(ctx) === turn
    yield* Effect.sleep(longLived(ctx) ? longLivedMs : artifactAfterMs)
    if (!current()) return
    yield* ctx.artifact(answer(ctx), { artifactId: "response", name: "response" })
    yield* Effect.sleep(completeAfterMs)
    if (!current()) return
    yield* ctx.complete()
  }).pipe(Effect.ignore)

/** The conformance agent. */
export const conformanceAgent = Agent.make({
  card: conformanceCard,
  // The run returns at once and the task stays open: a blocking send is answered with it `working`.
  onReturn: "keep",
  // No agent message: a task's history holds exactly the messages the client sent.
  execute: (ctx) =>
    Effect.gen(function* () {
      const kit = kitBehaviour(ctx.message.messageId)
      if (kit !== undefined) return yield* kit(ctx)
      yield* ctx.working()
      // Outlives the run on purpose: the task ends later by itself, whoever is still listening.
      yield* Effect.forkDetach(finishLater(ctx, userMessages(ctx)))
    })
})
