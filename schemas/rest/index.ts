/**
 * The REST (HTTP+JSON) binding's payloads: the one place where REST spellings are converted.
 *
 * - `toRest.*` / `cardToRest`: A2A values to the form REST peers read (protobuf JSON mapping, camelCase).
 * - `fromRest.*` / `cardFromRest`: either spelling to plain A2A JSON, unvalidated.
 * - `decodeRestRequest.*` (servers) and `decodeRestResponse.*` (clients): normalise, then decode with the
 *   A2A schemas.
 *
 * @example
 * const params = decodeRestRequest.sendParams(JSON.parse(body)) // Result<MessageSendParams, InvalidParams>
 * const wire = JSON.stringify(toRest.sendResponse(task))         // {"task":{"id":...,"status":{"state":"TASK_STATE_WORKING"}}}
 *
 * @module
 */
export { cardFromRest, cardToRest } from "./card.ts"
export { decodeRestRequest, decodeRestResponse } from "./decode.ts"
export {
  fromRestRole,
  fromRestState,
  type RestRole,
  type RestTaskState,
  taskStates,
  toRestRole,
  toRestState
} from "./enums.ts"
export { fromRest, parseResourceName } from "./from-rest.ts"
export * from "./to-rest.ts"
