/**
 * Decoding A2A 1.0 payloads: the lenient ProtoJSON spellings are normalised (`proto-json.ts`), then the 1.0
 * schema judges. Requests (for servers) fail with InvalidParams naming the failing path and the version;
 * answers (for clients) fail with the schema's SchemaError, which a client turns into InvalidAgentResponse.
 *
 * @module
 */
import { Result, Schema } from "effect"
import {
  type DecodedCall,
  type DecodeRequestOptions,
  describeParamsError,
  type ExtensionRequest,
  makeRequestDecoder,
  type RequestFailure
} from "../decode-request.ts"
import { InvalidParams } from "../error-catalogue.ts"
import { isMethodName } from "../methods.ts"
import { AgentCard } from "./agent-card.ts"
import { ErrorInfo, Status } from "./errors.ts"
import { SendMessageResponse, StreamResponse } from "./events.ts"
import { v1Methods } from "./methods.ts"
import { normaliseProtoJsonValue } from "./proto-json.ts"
import { ListTaskPushNotificationConfigsResponse, TaskPushNotificationConfig } from "./push.ts"
import { ListTasksResponse, SendMessageRequest } from "./requests.ts"
import { Task } from "./task.ts"

/** How InvalidParams messages of the 1.0 binding begin: they name the version the request was read as. */
export const v1InvalidParams = "Invalid params (A2A 1.0)"

/**
 * Classifies a parsed A2A 1.0 JSON-RPC body, as `decodeRequest` does for 0.3: params are the ProtoJSON of
 * the method's request message, in either field spelling, enums by name or number, unknown fields ignored.
 *
 * @example
 * const decoded = decodeV1Request(body.value)
 * if (decoded._tag === "Request" && decoded.method === "GetTask") runtime.get({ id: decoded.params.id }, ctx)
 */
export const decodeV1Request: (
  json: unknown,
  options?: DecodeRequestOptions
) => DecodedCall<typeof v1Methods> | ExtensionRequest | RequestFailure = makeRequestDecoder(v1Methods, {
  normalise: normaliseProtoJsonValue,
  invalidParams: v1InvalidParams,
  foreignMethod: (method) =>
    isMethodName(method)
      ? "(an A2A 0.3 method, and this request asked for A2A 1.0 with A2A-Version; its 1.0 name is PascalCase, e.g. SendMessage)"
      : undefined
})

/** A decoder of one 1.0 payload: normalised, then judged by its schema. */
export type V1Decoder<A> = (u: unknown) => Result.Result<A, Schema.SchemaError>

const decoder = <A, I>(schema: Schema.Codec<A, I>): V1Decoder<A> => {
  const decode = Schema.decodeUnknownResult(schema)
  return (u: unknown): Result.Result<A, Schema.SchemaError> => decode(normaliseProtoJsonValue(u))
}

const asInvalidParams = <A>(result: Result.Result<A, Schema.SchemaError>): Result.Result<A, InvalidParams> =>
  Result.mapError(result, (error) => {
    const { issues, message } = describeParamsError(error, v1InvalidParams)
    return new InvalidParams({ message, data: { issues } })
  })

const sendRequest: V1Decoder<SendMessageRequest> = decoder(SendMessageRequest)
const pushConfig: V1Decoder<TaskPushNotificationConfig> = decoder(TaskPushNotificationConfig)

/** Decoders of 1.0 REST request bodies, for servers. */
export const decodeV1RestRequest: {
  readonly sendMessage: (body: unknown) => Result.Result<SendMessageRequest, InvalidParams>
  readonly pushConfig: (body: unknown) => Result.Result<TaskPushNotificationConfig, InvalidParams>
} = {
  /** The body of `POST /message:send` and `/message:stream`. */
  sendMessage: (body) => asInvalidParams(sendRequest(body)),
  /** The body of `POST /tasks/{taskId}/pushNotificationConfigs`. */
  pushConfig: (body) => asInvalidParams(pushConfig(body))
}

/** Decoders of 1.0 answers and stream payloads, for clients (then `from-v1.ts` turns them into the model). */
export const decodeV1Response: {
  readonly sendMessage: V1Decoder<SendMessageResponse>
  readonly streamResponse: V1Decoder<StreamResponse>
  readonly task: V1Decoder<Task>
  readonly listTasks: V1Decoder<ListTasksResponse>
  readonly pushConfig: V1Decoder<TaskPushNotificationConfig>
  readonly pushConfigList: V1Decoder<ListTaskPushNotificationConfigsResponse>
  readonly card: V1Decoder<AgentCard>
  readonly status: V1Decoder<Status>
  readonly errorInfo: V1Decoder<ErrorInfo>
} = {
  sendMessage: decoder(SendMessageResponse),
  streamResponse: decoder(StreamResponse),
  task: decoder(Task),
  listTasks: decoder(ListTasksResponse),
  pushConfig,
  pushConfigList: decoder(ListTaskPushNotificationConfigsResponse),
  card: decoder(AgentCard),
  /** A REST error body. */
  status: decoder(Status),
  errorInfo: decoder(ErrorInfo)
}
