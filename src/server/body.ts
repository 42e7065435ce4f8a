/**
 * Reading a request body under a byte limit, before any parsing.
 *
 * The declared `Content-Length` is checked first so an oversized upload is refused without
 * being read; a body without one (chunked) is counted as it arrives and abandoned as soon as
 * it passes the limit.
 */
import type { HttpServerRequest } from "effect/http"
import { Data, Effect, Stream } from "effect"

/** The body was larger than the configured limit. */
export class BodyTooLarge extends Data.TaggedError("BodyTooLarge")<{ readonly limit: number }> {}

/** The body could not be read (the connection broke mid-way). */
export class BodyUnreadable extends Data.TaggedError("BodyUnreadable")<{ readonly cause: unknown }> {}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

/** Reads the whole body as bytes, refusing anything over `limit`. */
export const readBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable> => {
  const declared = request.headers["content-length"]
  if (declared !== undefined && Number(declared) > limit) {
    return Effect.fail(new BodyTooLarge({ limit }))
  }
  // A Web request without a body has no stream to read (Bun reports that as an error).
  if (typeof Request !== "undefined" && request.source instanceof Request && request.source.body === null) {
    return Effect.succeed(new Uint8Array(0))
  }
  // A declared length within the limit bounds the body already (HTTP framing): read it in one go,
  // without a Stream per request.
  if (declared !== undefined && /^\d+$/.test(declared)) {
    return request.arrayBuffer.pipe(
      Effect.mapError((cause) => new BodyUnreadable({ cause })),
      // Node's implementation hands over its Buffer (a Uint8Array) despite the type: no copy then.
      Effect.map((buffer: ArrayBuffer | Uint8Array) => (buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer)))
    )
  }
  return request.stream.pipe(
    Stream.mapError((cause) => new BodyUnreadable({ cause })),
    Stream.runFoldEffect(() => ({ parts: [] as Array<Uint8Array>, size: 0 }), (acc, part) => {
      acc.size += part.byteLength
      if (acc.size > limit) return Effect.fail(new BodyTooLarge({ limit }))
      acc.parts.push(part)
      return Effect.succeed(acc)
    }),
    Effect.map(({ parts, size }) => {
      if (parts.length === 1) return parts[0]!
      const out = new Uint8Array(size)
      let offset = 0
      for (const part of parts) {
        out.set(part, offset)
        offset += part.byteLength
      }
      return out
    })
  )
}

/** Decodes UTF-8 text (a leading BOM is dropped); `undefined` when the bytes are not valid UTF-8. */
export const utf8 = (bytes: Uint8Array): string | undefined => {
  try {
    return decoder.decode(bytes)
  } catch {
    return undefined
  }
}
