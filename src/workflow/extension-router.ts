import { Effect, Result } from "effect"
import { createActor, type AnyMachineSnapshot, type Snapshot } from "xstate"
import { InvalidParams, MethodNotFound } from "../../schemas/index.ts"
import type { Message, Part, ProtocolError } from "../../schemas/index.ts"
import { isInterrupted } from "../../machines/task.ts"
import { acceptedInputModes } from "../runtime/input-modes.ts"
import type { RequestContext, TaskRuntime } from "../runtime/task-runtime.ts"
import { workflowExtensionsOf } from "./workflow-agent.ts"
import type { WorkflowExtension } from "./workflow-extension.ts"

/** Routes `{namespace}/{action}` JSON-RPC calls of workflow extensions to the tasks they name. */
export interface ExtensionRouter {
  /** Every routed method name, for `decodeRequest(json, { extensionMethods })`. */
  readonly methods: ReadonlySet<string>
  /**
   * Handles one call: `params` is `{ taskId, ...the method's own }`. Unknown method: MethodNotFound; bad
   * params, or a task not waiting for input, or an event its machine does not accept there: InvalidParams;
   * a task that does not exist or belongs to someone else: TaskNotFound. Success: the Task, as `message/send`
   * answers it (after it settled again unless the extension is non-blocking).
   */
  readonly routeExtensionMethod: (method: string, params: unknown, ctx: RequestContext) => Effect.Effect<unknown, ProtocolError>
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const invalid = (message: string) => new InvalidParams({ message: `Invalid params: ${message}` })

/** Whether the machine the workflow saved with the task accepts `event` (true when nothing was saved). */
const applies = (ext: WorkflowExtension, saved: Snapshot<unknown> | undefined, event: { readonly type: string }): boolean => {
  if (saved === undefined || saved === null) return true
  // Restored as XState restores a persisted actor, and never started: nothing the machine invokes runs.
  const snapshot = createActor(ext.machine, { snapshot: saved }).getSnapshot() as AnyMachineSnapshot
  // A snapshot this machine cannot restore (another version of it): let the task's own machine judge the event.
  return snapshot.status !== "active" || snapshot.can(event)
}

/**
 * An {@link ExtensionRouter} over `runtime`, for the workflow extensions of its agent (or those given).
 *
 * A call becomes a user message to the task, `metadata[extension.uri] = { method, params }`, sent through
 * `runtime.send`: the task's owner check, the store and a task hosted by another process all work as for
 * any reply, and the workflow turns the call into its event exactly as it would from `message/send`.
 *
 * @example
 * const router = Workflow.router(runtime)
 * const decoded = decodeRequest(json, { extensionMethods: router.methods })
 * if (decoded._tag === "Extension") return router.routeExtensionMethod(decoded.method, decoded.params, ctx)
 */
export const router = (
  runtime: TaskRuntime,
  extensions: ReadonlyArray<WorkflowExtension> = workflowExtensionsOf(runtime.agent)
): ExtensionRouter => {
  const routes = new Map<string, { readonly ext: WorkflowExtension; readonly action: string }>()
  for (const ext of extensions) {
    for (const name of ext.methodNames) routes.set(name, { ext, action: name.slice(ext.namespace.length + 1) })
  }
  const modes = acceptedInputModes(runtime.agent.card)
  const textAccepted = modes === undefined || modes.some((m) => /^(text\/plain|text\/\*)\b/i.test(m.trim()))

  const callMessage = (method: string, ext: WorkflowExtension, action: string, taskId: string, params: Record<string, unknown>): Message => {
    const part: Part = textAccepted
      ? { kind: "text", text: `${method} ${JSON.stringify(params)}` }
      : { kind: "data", data: { method, params } }
    return {
      kind: "message",
      messageId: crypto.randomUUID(),
      role: "user",
      taskId,
      parts: [part],
      metadata: { [ext.uri]: { method: action, params } }
    }
  }

  const routeExtensionMethod = (method: string, params: unknown, ctx: RequestContext) =>
    Effect.gen(function*() {
      const route = routes.get(method)
      if (route === undefined) return yield* Effect.fail(new MethodNotFound({ message: `Method not found: ${method.slice(0, 100)}` }))
      const { action, ext } = route
      if (!isRecord(params) || typeof params["taskId"] !== "string" || params["taskId"] === "") {
        return yield* Effect.fail(invalid(`${method} needs params { "taskId": string, ... }`))
      }
      const { taskId, ...own } = params as { taskId: string } & Record<string, unknown>
      const event = ext.decode(action, own)
      if (Result.isFailure(event)) return yield* Effect.fail(invalid(`${method}: ${event.failure}`))
      const task = yield* runtime.get({ id: taskId }, ctx)
      if (!isInterrupted(task.status.state)) {
        return yield* Effect.fail(invalid(`${method}: task ${taskId} is ${task.status.state}, not waiting for input`))
      }
      const saved = (yield* runtime.saved({ id: taskId }, ctx)) as Snapshot<unknown> | undefined
      if (!applies(ext, saved, event.success)) {
        return yield* Effect.fail(invalid(`${method}: '${event.success.type}' does not apply to task ${taskId} in its current state`))
      }
      const extensionsActive = ctx.extensions.includes(ext.uri) ? ctx.extensions : [...ctx.extensions, ext.uri]
      return yield* runtime.send(
        { message: callMessage(method, ext, action, taskId, own), configuration: { blocking: ext.blocking } },
        { principal: ctx.principal, extensions: extensionsActive }
      )
    })

  return { methods: new Set(routes.keys()), routeExtensionMethod }
}
