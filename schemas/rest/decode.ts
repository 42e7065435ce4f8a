/**
 * REST payloads decoded into A2A values: the spelling is normalised (`fromRest`), then the A2A Effect
 * Schema judges. Requests fail with InvalidParams naming the failing path; responses (for clients) fail
 * with the schema's SchemaError, which a client turns into InvalidAgentResponse.
 *
 * @module
 */
import { Result, Schema } from "effect"
import { AgentCard } from "../agent-card.ts"
import { describeParamsError } from "../decode-request.ts"
import { InvalidParams } from "../error-catalogue.ts"
import { SendMessageResult, StreamResult } from "../events.ts"
import { MessageSendParams } from "../params.ts"
import { TaskPushNotificationConfig } from "../push.ts"
import { Task } from "../task.ts"
import { cardFromRest } from "./card.ts"
import { fromRest } from "./from-rest.ts"

const decoder = <A, I>(schema: Schema.Codec<A, I>, normalise: (u: unknown) => unknown) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (u: unknown): Result.Result<A, Schema.SchemaError> => decode(normalise(u))
}

const asInvalidParams = <A>(result: Result.Result<A, Schema.SchemaError>): Result.Result<A, InvalidParams> =>
  Result.mapError(result, (error) => {
    const { issues, message } = describeParamsError(error)
    return new InvalidParams({ message, data: { issues } })
  })

const sendParams = decoder(MessageSendParams, fromRest.sendParams)
const taskPushConfig = decoder(TaskPushNotificationConfig, fromRest.taskPushConfig)

/** Decoders of REST request bodies, for servers. */
export const decodeRestRequest = {
  /** The body of `message:send` / `message:stream`, in either spelling. */
  sendParams: (body: unknown): Result.Result<MessageSendParams, InvalidParams> => asInvalidParams(sendParams(body)),
  /**
   * The body of `POST /v1/tasks/{taskId}/pushNotificationConfigs`, in any form peers send. A body that
   * names a task other than `taskId` is refused.
   */
  createPushConfig: (body: unknown, taskId: string): Result.Result<TaskPushNotificationConfig, InvalidParams> =>
    Result.flatMap(
      asInvalidParams(taskPushConfig(fromRest.createPushConfigRequest(body, taskId))),
      (config) =>
        config.taskId === taskId
          ? Result.succeed(config)
          : Result.fail(new InvalidParams({
            message: `Invalid params: the body names task ${config.taskId.slice(0, 100)} but the URL names task ${taskId.slice(0, 100)}`
          }))
    )
} as const

/** Decoders of REST response bodies and stream payloads, for clients. */
export const decodeRestResponse = {
  /** The answer of `message:send`. */
  sendResponse: decoder(SendMessageResult, fromRest.sendResponse),
  /** One `data:` payload of `message:stream` or `tasks/{id}:subscribe`. */
  streamResponse: decoder(StreamResult, fromRest.streamResponse),
  /** The answer of `GET /v1/tasks/{id}` and `POST /v1/tasks/{id}:cancel`. */
  task: decoder(Task, fromRest.task),
  /** The answer of a push-config creation or read. */
  taskPushConfig,
  /** The answer of `GET /v1/tasks/{id}/pushNotificationConfigs`. */
  pushConfigList: decoder(Schema.Array(TaskPushNotificationConfig), fromRest.pushConfigList),
  /** The answer of `GET /v1/card`. */
  card: decoder(AgentCard, cardFromRest)
} as const
