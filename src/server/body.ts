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

/** Taking the body in would pass the server's bound on body bytes in flight. */
export class BodiesBusy extends Data.TaggedError("BodiesBusy")<{ readonly limit: number }> {}

/**
 * The bytes of request bodies being received at once, across all requests of a server, under a bound: a
 * declared length is reserved before the body is read, a chunked body as each chunk arrives, and both are
 * given back once the body is in (or given up on). Many slow uploads then cost at most the bound in memory,
 * whatever each one declares.
 */
export interface BodyBudget {
  readonly limit: number
  /** Reserves `bytes`; false (reserving nothing) when that would pass the bound. */
  readonly reserve: (bytes: number) => boolean
  readonly release: (bytes: number) => void
  /** Bytes reserved now. */
  readonly inFlight: () => number
}

/** A budget of `limit` bytes. */
export const makeBodyBudget = (limit: number): BodyBudget => {
  let used = 0
  return {
    limit,
    reserve: (bytes) => {
      if (used + bytes > limit) return false
      used += bytes
      return true
    },
    release: (bytes) => {
      used -= bytes
    },
    inFlight: () => used
  }
}

const unbounded: BodyBudget = makeBodyBudget(Number.POSITIVE_INFINITY)

interface Collected {
  readonly parts: Array<Uint8Array>
  size: number
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

/**
 * Reads the whole body as bytes, refusing anything over `limit`, and holding no more than `budget` allows
 * across requests (see {@link BodyBudget}; default: no bound).
 */
export const readBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  budget: BodyBudget = unbounded
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable | BodiesBusy> => {
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
    const size = Number(declared)
    return Effect.acquireUseRelease(
      Effect.suspend(() => (budget.reserve(size) ? Effect.void : Effect.fail(new BodiesBusy({ limit: budget.limit })))),
      () =>
        request.arrayBuffer.pipe(
          Effect.mapError((cause) => new BodyUnreadable({ cause })),
          // Node's implementation hands over its Buffer (a Uint8Array) despite the type: no copy then.
          Effect.map((buffer: ArrayBuffer | Uint8Array) => (buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer)))
        ),
      () => Effect.sync(() => budget.release(size))
    )
  }
  let reserved = 0
  return request.stream.pipe(
    Stream.mapError((cause) => new BodyUnreadable({ cause })),
    Stream.runFoldEffect((): Collected => ({ parts: [], size: 0 }), (acc: Collected, part): Effect.Effect<Collected, BodyTooLarge | BodiesBusy> => {
      acc.size += part.byteLength
      if (acc.size > limit) return Effect.fail(new BodyTooLarge({ limit }))
      if (!budget.reserve(part.byteLength)) return Effect.fail(new BodiesBusy({ limit: budget.limit }))
      reserved += part.byteLength
      acc.parts.push(part)
      return Effect.succeed(acc)
    }),
    Effect.ensuring(Effect.sync(() => budget.release(reserved))),
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
