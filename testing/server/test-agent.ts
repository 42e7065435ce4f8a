/**
 * The agent server tests run: a task for text `hold` stays `working` (so it can be canceled,
 * continued, resubscribed to); any other text completes at once with a message naming the
 * principal the task ran for.
 *
 * @module
 */
import { Agent, type AgentCardInput } from "../../src/agent/agent.ts"
import { messageText } from "../../src/agent/messages.ts"

/** The card of the test agent; `overrides` adds security, capabilities, extensions. */
export const testCard = (overrides: Partial<AgentCardInput> = {}): AgentCardInput => ({
  name: "security test agent",
  description: "Completes a task for its principal, or holds it open.",
  version: "1.0.0",
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "Echo", description: "Names who asked.", tags: ["test"] }],
  ...overrides
})

/** The test agent with the card `testCard(overrides)`. */
export const testAgent = (overrides: Partial<AgentCardInput> = {}): Agent =>
  Agent.make({
    card: testCard(overrides),
    onReturn: "keep",
    execute: (ctx) =>
      messageText(ctx.message).trim() === "hold" ? ctx.working() : ctx.complete(`done for ${ctx.principal.id}`)
  })
