/**
 * The agent our REST binding is tested with. What it does depends on the first word of the user's text:
 *
 * - `message <text>`: answers with a single Message `echo: <text>` (no task);
 * - `stream <w1> <w2> ...`: `working`, one artifact chunk per word (appended), then `completed`;
 * - `parts`: one artifact holding every part of the user's message, then `completed`;
 * - `ask`: asks for input; the next message completes the task with `got: <text>`;
 * - `wait`: `working` until canceled;
 * - `crash`: dies with a defect (the wire must show its message, never its stack);
 * - anything else: completed at once with the status message `echo: <text>`.
 *
 * @module
 */
import { Effect } from "effect"
import { Agent, type AgentCardInput } from "../../../src/agent/agent.ts"
import { messageText } from "../../../src/agent/messages.ts"

/** The test agent's card; `capabilities` can be switched off per test. */
export const restTestCard = (capabilities: AgentCardInput["capabilities"] = { streaming: true, pushNotifications: true }): AgentCardInput => ({
  name: "REST test agent",
  description: "Echoes, streams and waits, for the REST binding tests",
  version: "1.0.0",
  capabilities,
  defaultInputModes: ["text/plain", "application/json", "application/octet-stream", "image/png"],
  defaultOutputModes: ["text/plain", "application/json"],
  skills: [{ id: "echo", name: "Echo", description: "Echoes text; streams words", tags: ["echo"] }]
})

/** Builds the test agent with `capabilities`. */
export const restTestAgent = (capabilities?: AgentCardInput["capabilities"]): Agent =>
  Agent.make({
    card: restTestCard(capabilities),
    execute: (ctx) =>
      Effect.gen(function* () {
        const text = messageText(ctx.message)
        const [verb = "", ...words] = text.split(/\s+/)
        switch (verb) {
          case "message":
            return yield* ctx.reply(`echo: ${words.join(" ")}`)
          case "stream":
            yield* ctx.working()
            for (const [i, word] of words.entries()) {
              yield* ctx.artifact(word, { artifactId: "words", append: i > 0, lastChunk: i === words.length - 1 })
            }
            return yield* ctx.complete(`streamed ${words.length} words`)
          case "parts":
            yield* ctx.artifact(ctx.message.parts, { artifactId: "parts", name: "echoed parts" })
            return yield* ctx.complete()
          case "ask": {
            const answer = yield* ctx.requestInput("What next?")
            return yield* ctx.complete(`got: ${messageText(answer)}`)
          }
          case "wait":
            yield* ctx.working("waiting until canceled")
            return yield* Effect.never
          case "crash":
            return yield* Effect.die(new Error("boom"))
          default:
            return yield* ctx.complete(`echo: ${text}`)
        }
      })
  })
