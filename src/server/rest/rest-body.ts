/**
 * Reading a REST request body once it is in (admission.ts bounds it): UTF-8, JSON (prototype keys removed,
 * nesting bounded). An empty body is allowed where the route makes it optional (`:cancel`, `:subscribe`, which the
 * JS SDK posts with no body).
 */
import { Result } from "effect"
import { InvalidParams, type InvalidRequest, JSONParse } from "../../../schemas/error-catalogue.ts"
import { readJsonText } from "../../../schemas/json-text.ts"
import { utf8 } from "../body.ts"

/** The JSON of a body that was read: its value, or why it is refused. */
export type JsonBody = Result.Result<unknown, InvalidParams | InvalidRequest | JSONParse>

const parse = (text: string, required: boolean): JsonBody => {
  if (text.trim() === "") {
    return required
      ? Result.fail(new InvalidParams({ message: "Invalid params: this operation needs a JSON request body" }))
      : Result.succeed(undefined)
  }
  const read = readJsonText(text)
  switch (read._tag) {
    case "Parsed":
      return Result.succeed(read.value)
    case "NotJson":
      return Result.fail(new JSONParse({ message: "Request body is not valid JSON" }))
    case "TooDeep":
      // A REST body is the operation's params: too deep is invalid params, as in JSON-RPC.
      return Result.fail(new InvalidParams({ message: `Invalid params: the request body nests objects and arrays deeper than ${read.maxDepth} levels` }))
  }
}

/**
 * The JSON of a body that was read (see admission.ts), or the error that refuses it, for the caller to answer
 * once it knows who is calling; `undefined` stands for an empty body when `required` is false. No error
 * message carries a stack or the body itself.
 */
export const jsonBodyOf = (bytes: Uint8Array, required: boolean): JsonBody => {
  const text = utf8(bytes)
  return text === undefined ? Result.fail(new JSONParse({ message: "Request body is not valid UTF-8" })) : parse(text, required)
}
