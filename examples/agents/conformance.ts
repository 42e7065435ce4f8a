/**
 * The agent for black-box conformance runs.
 *
 * A plain message gets a Task that stays `working`: the agent marks it working and returns, so a
 * blocking `message/send` answers at once while the task waits for `tasks/cancel` or a follow-up
 * message (which grows its history and runs the agent again). It declares streaming and push
 * notifications and the MIME types conformance kits send.
 */
import { Agent, type AgentCardInput } from "../../src/agent/agent.ts"

const modes = ["text/plain", "application/json", "application/octet-stream"]

/** The conformance agent's card. */
export const conformanceCard: AgentCardInput = {
  name: "a2a-actors conformance agent",
  description: "Keeps every task working until it is canceled or continued, for black-box conformance runs.",
  version: "1.0.0",
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: modes,
  defaultOutputModes: modes,
  skills: [{
    id: "hold",
    name: "Hold a task open",
    description: "Answers with a working task that stays open until canceled or continued.",
    tags: ["conformance"]
  }]
}

/** The conformance agent. */
export const conformanceAgent = Agent.make({
  card: conformanceCard,
  // Leave the task working when the run returns: the blocking send answers with it.
  onReturn: "keep",
  // No agent message: a task's history holds exactly the messages the client sent.
  execute: (ctx) => ctx.working()
})
