/**
 * Requests about a task another instance runs: sent to that instance as a command (through the shared
 * store) and answered there, by the host of the task, with what a local request would have answered.
 * A command whose instance no longer hosts the task is answered "look again"; one whose instance stopped
 * is `Moved` for the sender, which then looks for the task again.
 */
import { Effect } from "effect"
import { fromWireError, isProtocolError, toWireError } from "../../../schemas/error-catalogue.ts"
import type { Message, MessageSendParams, ProtocolError, PushNotificationConfig, Task } from "../../../schemas/index.ts"
import { Internal, InvalidParams } from "../../../schemas/index.ts"
import type { Principal } from "../../auth/principal.ts"
import type { HostRegistry } from "../host-registry.ts"
import { holdsMessage, Moved, storeFailed } from "../hosting.ts"
import type { Hosting, RemoteAnswer } from "../hosting.ts"
import { removeConfig } from "../push-configs.ts"
import type { RunInput } from "../task-host.ts"
import type { CommandBody, SharedTasks } from "../task-store.ts"

/** A message for the instance running a task: what `message/send` or `message/stream` asked. */
export interface MessageCommand {
  readonly params: MessageSendParams
  readonly principal: Principal
  readonly extensions: ReadonlyArray<string>
  /** `settled`: answer once the task settled there (a blocking send); `none`: once it took the message. */
  readonly wait: "settled" | "none"
}

export const makeRemoteCommands = (shared: SharedTasks, registry: HostRegistry, hosting: Hosting) => {
  /** Sends a command to the instance running a task; `Moved` when it no longer runs it. */
  const command = (instance: string, taskId: string, body: CommandBody): Effect.Effect<CommandBody, ProtocolError | Moved> =>
    shared.send(instance, taskId, body).pipe(
      Effect.catch((e): Effect.Effect<never, ProtocolError | Moved> =>
        e._tag === "CommandUnanswered" ? Effect.fail(new Moved(e.taken)) : storeFailed(taskId)(e)),
      Effect.flatMap((answer): Effect.Effect<CommandBody, ProtocolError | Moved> => {
        if (answer["retry"] === true) return Effect.fail(new Moved())
        const error = answer["error"] as { code: number; message: string; data?: unknown } | undefined
        return error === undefined ? Effect.succeed(answer) : Effect.fail(fromWireError(error))
      })
    )

  const message = (instance: string, taskId: string, m: MessageCommand): Effect.Effect<RemoteAnswer, ProtocolError | Moved> =>
    Effect.map(command(instance, taskId, { kind: "message", ...m } as unknown as CommandBody), (answer) => answer as unknown as RemoteAnswer)

  const cancel = (instance: string, taskId: string): Effect.Effect<Task, ProtocolError | Moved> =>
    Effect.map(command(instance, taskId, { kind: "cancel" }), (answer) => answer["task"] as Task)

  /** A command from another instance about a task hosted here. Never fails: errors are answers. */
  const serve = (taskId: string, body: CommandBody): Effect.Effect<CommandBody> => {
    const host = registry.get(taskId)
    // Not here (any more): the sender looks again.
    if (host === undefined || !host.materialized() || host.lost()) return Effect.succeed({ retry: true })
    const answered: Effect.Effect<CommandBody, ProtocolError | Moved> = Effect.suspend(() => {
      switch (body["kind"]) {
        case "cancel":
          return Effect.map(hosting.cancelHere(host), (task) => ({ task }))
        case "message": {
          const m = body as unknown as MessageCommand
          const input: RunInput = { message: m.params.message, principal: m.principal, extensions: m.extensions }
          return Effect.gen(function*() {
            const before = host.task()
            const after = host.log.lastSeq()
            // A message this task holds already (a retry) is not taken twice.
            if (!holdsMessage(before, input.message.messageId)) yield* hosting.continueOn(host, m.params, input)
            const result: Task | Message = yield* hosting.answerFrom(host, m.wait === "settled", undefined)
            return { taskId, after, before, result } as unknown as CommandBody
          })
        }
        case "set-config":
          return Effect.as(hosting.addConfig(taskId, body["config"] as unknown as PushNotificationConfig, host.updatePushConfigs), {})
        case "delete-config":
          return Effect.as(host.updatePushConfigs((cs) => removeConfig(cs, body["configId"] as string)), {})
        default:
          return Effect.fail(new InvalidParams({ message: `unknown command ${String(body["kind"])}` }))
      }
    })
    return answered.pipe(
      Effect.catch((e) => Effect.succeed<CommandBody>(e instanceof Moved ? { retry: true } : { error: toWireError(e) })),
      Effect.catchDefect((defect) =>
        Effect.as(
          Effect.logError(`task ${taskId}: a command from another instance failed`, defect),
          { error: toWireError(isProtocolError(defect) ? defect : new Internal({ message: "the command failed" })) } as CommandBody
        ))
    )
  }

  return { command, message, cancel, serve }
}

export type RemoteCommands = ReturnType<typeof makeRemoteCommands>
