import { Effect, Result } from "effect"
import { createActor } from "xstate"
import type { AnyMachineSnapshot, AnyStateMachine, EventFromLogic, EventObject, InputFrom, SnapshotFrom } from "xstate"
import type { AgentCard, Message } from "../../schemas/index.ts"
import { completeCard } from "../agent/agent.ts"
import type { Agent, AgentCardInput } from "../agent/agent.ts"
import type { TaskContext } from "../agent/task-context.ts"
import { artifactParts, isA2AEmitted, stateAction } from "./state-meta.ts"
import type { A2AEmitted } from "./state-meta.ts"
import { callOf } from "./workflow-extension.ts"
import type { WorkflowExtension } from "./workflow-extension.ts"

/**
 * Metadata key of the bridge's agent messages: `{ state, snapshot? }`, the machine's state value and, on
 * input requests of a workflow that asks for it (`sendSnapshot`), its persisted snapshot.
 */
export const workflowMetadataKey = "a2a-actors/workflow"

/** Options of {@link toAgent}. */
export interface WorkflowAgentOptions<TMachine extends AnyStateMachine> {
  readonly card: AgentCardInput
  /** The workflow; provide its actors first (`machine.provide({ actors })`). */
  readonly machine: TMachine
  /** The machine's input from the message that creates the task. */
  readonly input?: (message: Message, ctx: TaskContext) => InputFrom<TMachine>
  /** The event for a user's reply while the machine waits for input; undefined asks the user again. */
  readonly toEvent: (message: Message, snapshot: SnapshotFrom<TMachine>) => EventFromLogic<TMachine> | undefined
  /** Method extensions whose calls reach the machine; their declarations join the card. */
  readonly extensions?: ReadonlyArray<WorkflowExtension<any>>
  /**
   * Keep the machine's persisted snapshot with the task in the task store (`TaskContext.save`) whenever it
   * waits for input, so that any instance holding the task (another process, or this one after a restart)
   * continues the machine where it waited. It stays on the server. Default true.
   */
  readonly persist?: boolean
  /**
   * Also send the persisted snapshot to the client, in each input request's metadata (under
   * {@link workflowMetadataKey}). The snapshot holds the machine's whole context, drafts and data of invoked
   * actors included, so only turn this on for a client that is meant to see them. Default false.
   */
  readonly sendSnapshot?: boolean
}

/** An Agent running a workflow machine, with the extensions that drive it. */
export interface WorkflowAgent extends Agent {
  readonly workflowExtensions: ReadonlyArray<WorkflowExtension>
}

/** The workflow extensions of an agent (none for agents not built by `Workflow.toAgent`). */
export const workflowExtensionsOf = (agent: Agent): ReadonlyArray<WorkflowExtension> =>
  (agent as Partial<WorkflowAgent>).workflowExtensions ?? []

const withExtensions = (card: AgentCard, extensions: ReadonlyArray<WorkflowExtension>): AgentCard => {
  if (extensions.length === 0) return card
  const declared = card.capabilities.extensions ?? []
  const added = extensions.map((e) => e.declaration).filter((d) => !declared.some((x) => x.uri === d.uri))
  return { ...card, capabilities: { ...card.capabilities, extensions: [...declared, ...added] } }
}

const stateKey = (snapshot: AnyMachineSnapshot) => JSON.stringify(snapshot.value)

const agentMessage = (text: string, metadata: Record<string, unknown>): Message => ({
  kind: "message",
  messageId: crypto.randomUUID(),
  role: "agent",
  parts: [{ kind: "text", text }],
  metadata
})

/**
 * Wake-ups of the bridge when its machine changes. The machine's invoked actors (promises, callbacks)
 * progress on microtasks, so the bridge wakes on a microtask too, once the change that woke it is complete:
 * it sees each state of the machine, and streams its output, before the actors of the next state run,
 * whenever the Effect scheduler's next turn comes. Changes while the bridge is busy count as one.
 */
const machineChanges = () => {
  let pending = false
  let waiter: (() => void) | undefined
  const changed = () => {
    pending = true
    const w = waiter
    if (w !== undefined) {
      waiter = undefined
      queueMicrotask(w)
    }
  }
  /** Succeeds once the machine changed since the last call (at once if it already did). */
  const next: Effect.Effect<void> = Effect.suspend(() => {
    if (pending) {
      pending = false
      return Effect.void
    }
    return Effect.callback<void>((resume) => {
      waiter = () => {
        pending = false
        resume(Effect.void)
      }
      return Effect.sync(() => {
        waiter = undefined
      })
    })
  })
  return { changed, next }
}

/**
 * Runs `options.machine` as the body of each task. The machine's states say what the task does (see
 * `state-meta.ts`): emitted `a2a.artifact` / `a2a.status` events become artifacts and progress; a state
 * with `meta.a2a: "input-required"` asks the user its `prompt` and turns the reply (through `toEvent`, or an
 * extension call) into the next event; a final state completes, rejects or fails the task. Cancel
 * interrupts the fiber, whose finalizer stops the actor and with it every invoked actor.
 *
 * @example
 * import { fromPromise } from "xstate"
 * import { A2AServer, Workflow, messageText } from "a2a-actors"
 * import { approvalMachine, reviewEventFromText } from "a2a-actors/machines"
 *
 * // The machine stays pure: the host provides the drafter (here a model call of yours).
 * const machine = approvalMachine.provide({
 *   actors: { drafter: fromPromise(({ input }) => writeDraft(input.request, input.previous, input.comment)) }
 * })
 * const agent = Workflow.toAgent({
 *   card: {
 *     name: "Approvals", description: "Drafts a document and asks for approval", version: "1.0.0",
 *     capabilities: { streaming: true }, defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
 *     skills: [{ id: "draft", name: "Draft for approval", description: "Drafts, revises, publishes", tags: ["approval"] }]
 *   },
 *   machine,
 *   input: (message) => ({ request: messageText(message), maxRevisions: 2 }),
 *   toEvent: (reply) => reviewEventFromText(messageText(reply)), // "approve" | "reject <why>" | "revise <what>"
 *   extensions: [approval] // Workflow.extension(...): approval/approve etc. reach the same machine
 * })
 * const server = A2AServer.make(agent)
 * // message/send "Write a launch note"           -> Task input-required, status message = draft 1
 * // message/send { taskId, "revise add a date" } -> input-required again with draft 2
 * // message/send { taskId, "approve" }           -> Task completed, artifact "document" = the approved text
 * // A pipeline works the same way: steps with meta { a2a: "working" } emit { type: "a2a.artifact", ... }
 * // chunks; tasks/cancel interrupts the fiber, which stops the actor (its steps' AbortSignal aborts).
 */
export const toAgent = <TMachine extends AnyStateMachine>(options: WorkflowAgentOptions<TMachine>): WorkflowAgent => {
  const extensions: ReadonlyArray<WorkflowExtension> = options.extensions ?? []
  const persist = options.persist ?? true
  const sendSnapshot = options.sendSnapshot ?? false

  /** The event for a reply, or why it does not apply (then the user is asked again). */
  const eventFor = (message: Message, snapshot: AnyMachineSnapshot): Result.Result<EventObject, string> => {
    const found = callOf(message, extensions)
    const event = found === undefined
      ? Result.fromNullishOr(options.toEvent(message, snapshot as SnapshotFrom<TMachine>), () => "The reply was not understood.")
      : found.extension.decode(found.call.method, found.call.params)
    return Result.flatMap(event, (e) =>
      snapshot.can(e) ? Result.succeed(e) : Result.fail(`'${e.type}' does not apply in state ${stateKey(snapshot)}.`))
  }

  const execute = (ctx: TaskContext) =>
    Effect.gen(function*() {
      const changes = machineChanges()
      const emitted: Array<A2AEmitted> = []
      // A resumed run (its earlier one was lost with its instance, or a restart) continues the machine
      // from the snapshot saved when it began to wait, with the reply that woke the task.
      const saved = ctx.resumed ? ctx.saved : undefined
      if (ctx.resumed && saved === undefined) {
        return yield* ctx.fail(
          "This workflow's state was not kept (persist: false), so it cannot continue after the run that waited was lost; start a new task."
        )
      }
      const actor = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const a = saved === undefined
            ? createActor(options.machine as AnyStateMachine, { input: options.input?.(ctx.message, ctx) })
            : createActor(options.machine as AnyStateMachine, { snapshot: saved as never })
          a.on("*", (e) => {
            if (isA2AEmitted(e)) emitted.push(e)
          })
          a.subscribe({ next: changes.changed, error: changes.changed })
          return a.start()
        }),
        (a) => Effect.sync(() => a.stop())
      )

      const flush = Effect.suspend(() =>
        Effect.forEach(emitted.splice(0), (e) =>
          e.type === "a2a.status"
            ? ctx.working(e.text)
            : ctx.artifact(artifactParts(e), {
              ...(e.artifactId === undefined ? {} : { artifactId: e.artifactId }),
              ...(e.name === undefined ? {} : { name: e.name }),
              ...(e.append === undefined ? {} : { append: e.append }),
              ...(e.lastChunk === undefined ? {} : { lastChunk: e.lastChunk })
            }), { discard: true }))

      // A resumed task (another process, or a restart) continues with the reply that woke it.
      let reply: Message | undefined = saved === undefined ? undefined : ctx.message
      let note = ""
      let seen = ""
      while (true) {
        yield* flush
        const snapshot = actor.getSnapshot() as AnyMachineSnapshot
        const action = stateAction(snapshot)
        switch (action._tag) {
          case "Crashed":
            return yield* ctx.fail(action.message)
          case "Finish": {
            const end = action.state === "completed" ? ctx.complete : action.state === "rejected" ? ctx.reject : ctx.fail
            const metadata = { [workflowMetadataKey]: { state: snapshot.value } }
            return yield* end(action.message === undefined ? undefined : agentMessage(action.message, metadata))
          }
          case "Wait": {
            let answer = reply
            reply = undefined
            if (answer === undefined) {
              const persisted = persist || sendSnapshot ? actor.getPersistedSnapshot() : undefined
              // Stored with the task's move to input-required: whoever sees the task waiting can continue it.
              if (persist) yield* ctx.save(persisted)
              const metadata = { [workflowMetadataKey]: { state: snapshot.value, ...(sendSnapshot ? { snapshot: persisted } : {}) } }
              const question = agentMessage(`${note}${action.prompt ?? "Input required"}`, metadata)
              answer = yield* (action.kind === "input-required" ? ctx.requestInput(question) : ctx.requestAuth(question))
            }
            const event = eventFor(answer, snapshot)
            note = Result.isFailure(event) ? `${event.failure}\n\n` : ""
            if (Result.isSuccess(event)) actor.send(event.success)
            break
          }
          case "Run": {
            reply = undefined // a resumed machine that does not wait at once has no use for the reply
            const key = stateKey(snapshot)
            if (key !== seen) {
              seen = key
              if (action.status !== undefined || ctx.task.status.state === "submitted") yield* ctx.working(action.status)
            }
            yield* changes.next
          }
        }
      }
    }).pipe(Effect.scoped)

  return { card: withExtensions(completeCard(options.card), extensions), execute, workflowExtensions: extensions }
}
