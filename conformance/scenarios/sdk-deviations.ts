/**
 * Scenarios that fail against the official JS SDK 0.3.14 server (with the conformance agent of
 * `sdk-conformance-agent.ts`), and why. The baseline test requires every other scenario to pass
 * there, and every scenario listed here to fail, so the list stays true as the SDK changes.
 */
export const sdkKnownFailures: Readonly<Record<string, string>> = {
  "card: agent/getAuthenticatedExtendedCard without a configured extended card is -32007":
    "the SDK answers -32004 (unsupported operation) when the card does not declare supportsAuthenticatedExtendedCard",
  "get: without historyLength the whole history is included":
    "the SDK empties `history` when historyLength is absent",
  "get: negative historyLength is -32602":
    "the SDK treats a negative historyLength like an absent one (empty history) instead of refusing it",
  "get: params without id is -32602":
    "no params schema validation: the SDK looks up task `undefined` and answers -32001",
  "get: id of a wrong type in params is -32602":
    "no params schema validation: the SDK looks up the number as an id and answers -32001",
  "cancel: a message to a canceled (terminal) task is -32602":
    "the SDK answers -32600 (invalid request) for a message to a terminal task",
  "push: get with the literal id \"default\" returns the task's first config":
    "the SDK has no `default` alias (an id-less config gets the task id) and answers -32603",
  "errors: an id of a wrong type (object, boolean, array) is -32600 with id null":
    "the SDK echoes the invalid id (an object) back in the response",
  "errors: a string id over 256 characters is -32600 with id null, never echoed (unary and streaming)":
    "the SDK sets no bound on request ids and echoes the whole id in every answer",
  "errors: message/send without a message is -32602":
    "the SDK dereferences the missing message and answers -32603 with a TypeError message",
  "errors: a message without role is -32602": "the SDK does not validate Message fields beyond messageId",
  "errors: a message with an unknown role is -32602": "the SDK does not validate Message fields beyond messageId",
  "errors: a message without parts is -32602": "the SDK does not validate Message fields beyond messageId",
  "errors: a message with empty parts is -32602": "the SDK does not validate Message fields beyond messageId",
  "errors: a file part with both bytes and uri is -32602": "the SDK does not validate parts",
  "errors: a file part with neither bytes nor uri is -32602": "the SDK does not validate parts",
  "errors: a text part whose text is not a string is -32602": "the SDK does not validate parts",
  "errors: a part without kind is -32602": "the SDK does not validate parts",
  "errors: a part with an unknown kind is -32602": "the SDK does not validate parts",
  "malformed: 10k nested arrays in a message's metadata get a well-formed reply, never a server error":
    "the SDK stores the metadata, and writing it back in the Task overflows the stack: HTTP 500",
  "malformed: an error never echoes a 64 KiB id in full": "the SDK quotes the whole task id in its -32001 message",
  "malformed: a body that is not JSON is -32700 with HTTP 200 and id null":
    "the SDK's express JSON error handler answers -32700 with HTTP 400",
  "malformed: a body not sent as JSON (text/plain, a form, none) is refused with HTTP 415 and a JSON-RPC error":
    "express.json() leaves a text/plain body unread and the SDK answers -32700 with HTTP 200",
  "malformed: every JSON media type is read: application/json with a charset, application/a2a+json":
    "express.json() reads application/json only: application/a2a+json (A2A 1.0's media type) is answered -32700",
  "malformed: an empty body is -32700":
    "express.json() turns an empty body into {} so the SDK answers -32600",
  "malformed: NaN and Infinity tokens are not JSON: -32700":
    "the SDK answers -32700 with HTTP 400",
  "malformed: a JSON scalar or null body is -32600 with id null":
    "express.json() strict mode rejects non-object bodies as a parse error (-32700, HTTP 400)",
  "malformed: a body over 10 MiB is refused with a JSON-RPC error and the server survives":
    "express.json()'s 100 kB limit answers HTTP 413 with an HTML page carrying a stack trace",
  "malformed: 100k nested arrays get a well-formed reply and the server survives":
    "the 200 kB body trips express.json()'s 100 kB limit: HTML 413 page"
}

/** Scenarios skipped on the SDK, with the reason the runner must report. */
export const sdkExpectedSkips: Readonly<Record<string, RegExp>> = {
  "stream: id: lines, when sent, are on every event and increase": /no id: lines/,
  "resubscribe: Last-Event-ID after a disconnect resumes with exactly the missed events": /no id: lines/,
  "push: with push off, every push-config method is -32003": /pushNotifications is true/,
  "errors: with streaming off, message/stream and tasks/resubscribe are -32004": /streaming is true/
}
