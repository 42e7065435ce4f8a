/**
 * Test support (not shipped API): agents whose sequence of task states is known in advance, so
 * push tests can assert exactly which snapshots a webhook must receive, and in which order.
 *
 * @module
 */
import { Effect } from "effect"
import type { SecurityScheme, TaskState } from "../../schemas/index.ts"
import { Agent, type AgentCardInput } from "../../src/agent/agent.ts"
import { messageText } from "../../src/agent/messages.ts"

/** Options of {@link pushTestCard}. */
export interface PushTestCardOptions {
  /** Whether the card declares `capabilities.pushNotifications` (default true). */
  readonly push?: boolean
  /** Security schemes the card requires (all of them, as one requirement). */
  readonly securitySchemes?: Readonly<Record<string, SecurityScheme>>
}

/** A small card for push tests. */
export const pushTestCard = (options: PushTestCardOptions = {}): AgentCardInput => {
  const schemes = options.securitySchemes
  return {
    name: "push test agent",
    description: "Moves tasks through a fixed sequence of states for push notification tests.",
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: options.push ?? true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "steps", name: "Steps", description: "A fixed sequence of states.", tags: ["test"] }],
    ...(schemes === undefined
      ? {}
      : { securitySchemes: { ...schemes }, security: [Object.fromEntries(Object.keys(schemes).map((k) => [k, []]))] })
  }
}

/** An agent with a counter of how many times `execute` started (zero proves no task was created). */
export interface CountedAgent {
  readonly agent: Agent
  readonly runs: () => number
}

/**
 * working, an artifact, then `input-required`; the next message completes the task. The blocking
 * send answers at `input-required`, which leaves room to add configs before the second half.
 */
export const stepperAgent = (card: AgentCardInput = pushTestCard()): CountedAgent => {
  let runs = 0
  const agent = Agent.make({
    card,
    execute: (ctx) =>
      Effect.gen(function*() {
        runs++
        yield* ctx.working("on it")
        yield* ctx.artifact("draft", { artifactId: "draft", name: "draft" })
        const answer = yield* ctx.requestInput("anything to add?")
        yield* ctx.complete(`done: ${messageText(answer)}`)
      })
  })
  return { agent, runs: () => runs }
}

/** The states {@link stepperAgent} notifies, start to end (artifacts are not state changes). */
export const stepperStates: ReadonlyArray<TaskState> = ["submitted", "working", "input-required", "working", "completed"]

/** The states {@link stepperAgent} notifies after it was continued from `input-required`. */
export const stepperSecondHalf: ReadonlyArray<TaskState> = ["working", "completed"]

/** working, then completed, in one run. */
export const quickAgent = (card: AgentCardInput = pushTestCard()): CountedAgent => {
  let runs = 0
  const agent = Agent.make({
    card,
    execute: (ctx) =>
      Effect.gen(function*() {
        runs++
        yield* ctx.working()
        yield* ctx.complete("done")
      })
  })
  return { agent, runs: () => runs }
}

/** The states {@link quickAgent} notifies. */
export const quickStates: ReadonlyArray<TaskState> = ["submitted", "working", "completed"]
