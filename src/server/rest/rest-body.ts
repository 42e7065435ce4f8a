/**
 * Reading a REST request body: size limit before parsing, UTF-8, JSON (prototype keys removed, nesting
 * bounded). An empty body is allowed where the route makes it optional (`:cancel`, `:subscribe`, which the
 * JS SDK posts with no body).
 */
import type { HttpServerRequest } from "effect/http"
import { Effect, Result } from "effect"
import { InvalidParams, InvalidRequest, JSONParse, type ProtocolError } from "../../../schemas/error-catalogue.ts"
import { readJsonText } from "../../../schemas/json-text.ts"
import { readBody, utf8 } from "../body.ts"

/** A body that could not be read at all, with the HTTP status to answer. */
export interface BodyFailure {
  readonly error: ProtocolError
  readonly status: number
}

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
 * Reads the body. A body too large or broken off fails at once (413, 400): nothing was judged. A body that was
 * read comes back as its JSON value, or as the error that refuses it, for the caller to answer once it knows
 * who is calling; `undefined` stands for an empty body when `required` is false. No error message carries a
 * stack or the body itself.
 */
export const readJsonBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number,
  required: boolean
): Effect.Effect<JsonBody, BodyFailure> =>
  readBody(request, maxBytes).pipe(
    Effect.mapError((e): BodyFailure =>
      e._tag === "BodyTooLarge"
        ? { error: new InvalidRequest({ message: `Request body exceeds the ${Math.round(maxBytes / 1024)} KiB limit` }), status: 413 }
        : { error: new InvalidRequest({ message: "The request body could not be read" }), status: 400 }
    ),
    Effect.map((bytes): JsonBody => {
      const text = utf8(bytes)
      return text === undefined ? Result.fail(new JSONParse({ message: "Request body is not valid UTF-8" })) : parse(text, required)
    })
  )
