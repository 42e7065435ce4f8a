/**
 * The agent of the secured reference server (`npm run start:secured`): every request needs an API
 * key in `X-API-Key`, and the `admin` skill needs a key holding the `admin` role.
 *
 * - `echo` (default): any key; answers with the skill, the caller and the text.
 * - `admin`: asked for with `metadata.skill: "admin"`; its own security requirement names the
 *   `admin` role, so a key without it is refused with 403 before any task exists.
 *
 * Replies name the skill that ran and the principal, e.g. `skill: admin, principal: admin`.
 */
import { Agent, type AgentCardInput } from "../../src/agent/agent.ts"
import { messageText } from "../../src/agent/messages.ts"
import type { Principal } from "../../src/auth/principal.ts"
import type { TaskContext } from "../../src/agent/task-context.ts"

/** The card's name for the API-key scheme. */
export const apiKeyScheme = "apiKey"
/** The header that carries the key. */
export const apiKeyHeader = "X-API-Key"
/** The role a key needs for the `admin` skill (a claim of its principal, see {@link principals}). */
export const adminRole = "admin"
/** The skill that runs unless a message names another one. */
export const defaultSkill = "echo"
/** The skill only admin keys may run. */
export const adminSkill = "admin"

/** The secured agent's card: the key is declared because it is enforced. */
export const securedCard: AgentCardInput = {
  name: "a2a-actors secured agent",
  description: "Answers API-key holders only; the admin skill needs an admin key. Replies name the skill and the caller.",
  version: "1.0.0",
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  securitySchemes: {
    [apiKeyScheme]: { type: "apiKey", in: "header", name: apiKeyHeader, description: "A partner or admin API key." }
  },
  security: [{ [apiKeyScheme]: [] }],
  skills: [
    {
      id: defaultSkill,
      name: "Echo",
      description: "Answers with the skill, the caller and the text. Any key.",
      tags: ["echo"],
      examples: ["hello"]
    },
    {
      id: adminSkill,
      name: "Admin",
      description: `Needs a key with the "${adminRole}" role; ask for it with metadata.skill = "${adminSkill}".`,
      tags: ["admin"],
      // Replaces the card-level requirement for messages naming this skill.
      security: [{ [apiKeyScheme]: [adminRole] }]
    }
  ]
}

/**
 * The principals behind the two keys. Roles travel as the `scope` claim, which the skill-level
 * requirement's role list is checked against.
 */
export const principals = (keys: { readonly partner: string; readonly admin: string }): Readonly<Record<string, Principal>> => ({
  [keys.partner]: { id: "partner", claims: { scope: "" } },
  [keys.admin]: { id: "admin", claims: { scope: adminRole } }
})

/** The skill a run serves: the server has already checked the caller may use it. */
const skillOf = (ctx: TaskContext): string => (ctx.message.metadata?.["skill"] === adminSkill ? adminSkill : defaultSkill)

/** The secured agent. */
export const securedAgent = Agent.make({
  card: securedCard,
  execute: (ctx) => {
    const text = messageText(ctx.message)
    return ctx.complete(`skill: ${skillOf(ctx)}, principal: ${ctx.principal.id}${text === "" ? "" : `; you said: ${text}`}`)
  }
})
