/**
 * Reading a REST request body: size limit before parsing, UTF-8, JSON. An empty body is allowed where the
 * route makes it optional (`:cancel`, `:subscribe`, which the JS SDK posts with no body).
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { InvalidParams, InvalidRequest, JSONParse, type ProtocolError } from "../../../schemas/error-catalogue.ts"
import { readBody, utf8 } from "../body.ts"

/** A body that failed to be read, with the HTTP status to answer. */
export interface BodyFailure {
  readonly error: ProtocolError
  readonly status: number
}

const BOM = "\uFEFF"

/**
 * `JSON.parse` dropping `__proto__` keys, which decoding would otherwise turn into a prototype change; the
 * reviver only runs when the text contains the key.
 */
const parseJson = (text: string): unknown =>
  text.includes("__proto__")
    ? JSON.parse(text, (key, value) => (key === "__proto__" ? undefined : value))
    : JSON.parse(text)

/**
 * The parsed JSON body; `undefined` for an empty body when `required` is false. Never a stack or the body
 * itself in an error message.
 */
export const readJsonBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number,
  required: boolean
): Effect.Effect<unknown, BodyFailure> =>
  readBody(request, maxBytes).pipe(
    Effect.mapError((e): BodyFailure =>
      e._tag === "BodyTooLarge"
        ? { error: new InvalidRequest({ message: `Request body exceeds the ${Math.round(maxBytes / 1024)} KiB limit` }), status: 413 }
        : { error: new InvalidRequest({ message: "The request body could not be read" }), status: 400 }
    ),
    Effect.flatMap((bytes): Effect.Effect<unknown, BodyFailure> => {
      const decoded = utf8(bytes)
      if (decoded === undefined) return Effect.fail({ error: new JSONParse({ message: "Request body is not valid UTF-8" }), status: 400 })
      const text = decoded.startsWith(BOM) ? decoded.slice(1) : decoded
      if (text.trim() === "") {
        return required
          ? Effect.fail({ error: new InvalidParams({ message: "Invalid params: this operation needs a JSON request body" }), status: 400 })
          : Effect.succeed(undefined)
      }
      try {
        return Effect.succeed(parseJson(text))
      } catch {
        return Effect.fail({ error: new JSONParse({ message: "Request body is not valid JSON" }), status: 400 })
      }
    })
  )
