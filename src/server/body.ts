/**
 * Reading a request body under a byte limit, before any parsing.
 *
 * The declared `Content-Length` is checked first so an oversized upload is refused without
 * being read; a body without one (chunked) is counted as it arrives and abandoned as soon as
 * it passes the limit.
 */
import type { HttpServerRequest } from "effect/http"
import { Data, Effect, Stream } from "effect"
import { type BodyDeadline, CurrentBodyDeadline } from "./body-deadline.ts"

/** The body was larger than the configured limit. */
export class BodyTooLarge extends Data.TaggedError("BodyTooLarge")<{ readonly limit: number }> {}

/** The body could not be read (the connection broke mid-way). */
export class BodyUnreadable extends Data.TaggedError("BodyUnreadable")<{ readonly cause: unknown }> {}

/** The body did not arrive within the {@link CurrentBodyDeadline} of `ms`. */
export class BodyTooSlow extends Data.TaggedError("BodyTooSlow")<{ readonly ms: number }> {}

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
 * across requests (see {@link BodyBudget}; default: no bound). Under a {@link CurrentBodyDeadline} (a Web
 * request on a runtime whose server bounds no body), a body still arriving when it passes is given up on.
 */
export const readBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  budget: BodyBudget = unbounded
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable | BodiesBusy | BodyTooSlow> => {
  const declared = request.headers["content-length"]
  if (declared !== undefined && Number(declared) > limit) {
    return Effect.fail(new BodyTooLarge({ limit }))
  }
  // A declared length within the limit bounds the body already (HTTP framing).
  const length = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined
  const source = request.source
  if (typeof Request === "undefined" || !(source instanceof Request)) return readPlatformBody(request, limit, budget, length)
  // A Web request without a body has no stream to read (Bun reports that as an error).
  const body = source.body
  if (body === null) return Effect.succeed(new Uint8Array(0))
  return Effect.withFiber((fiber) => {
    const deadline = fiber.getRef(CurrentBodyDeadline)
    return deadline === undefined ? readPlatformBody(request, limit, budget, length) : readWithin(body, limit, budget, length, deadline)
  })
}

/** The body through the request's own readers: in one go when its length is declared, else as a stream. */
const readPlatformBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  budget: BodyBudget,
  declared: number | undefined
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable | BodiesBusy> => {
  // Read in one go, without a Stream per request.
  if (declared !== undefined) {
    return Effect.acquireUseRelease(
      Effect.suspend(() => (budget.reserve(declared) ? Effect.void : Effect.fail(new BodiesBusy({ limit: budget.limit })))),
      () =>
        request.arrayBuffer.pipe(
          Effect.mapError((cause) => new BodyUnreadable({ cause })),
          // Node's implementation hands over its Buffer (a Uint8Array) despite the type: no copy then.
          Effect.map((buffer: ArrayBuffer | Uint8Array) => (buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer)))
        ),
      () => Effect.sync(() => budget.release(declared))
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
    Effect.map(joined)
  )
}

const joined = ({ parts, size }: Collected): Uint8Array => {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(size)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.byteLength
  }
  return out
}

const ignore = () => undefined

/**
 * A Web body read chunk by chunk under `deadline`, with the same bounds as {@link readPlatformBody}: a declared
 * length is reserved in the budget up front, a chunked body as it arrives. Whatever ends the read first (the
 * last chunk, a bound, a broken stream, the deadline, an interruption) settles it; the others find it settled.
 * A body given up on is cancelled, so its runtime stops taking it in.
 */
const readWithin = (
  body: ReadableStream<Uint8Array>,
  limit: number,
  budget: BodyBudget,
  declared: number | undefined,
  deadline: BodyDeadline
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable | BodiesBusy | BodyTooSlow> =>
  Effect.callback((resume) => {
    if (declared !== undefined && !budget.reserve(declared)) return resume(Effect.fail(new BodiesBusy({ limit: budget.limit })))
    let reserved = declared ?? 0
    const collected: Collected = { parts: [], size: 0 }
    const reader = body.getReader()
    let settled = false
    const settle = (): boolean => {
      if (settled) return false
      settled = true
      watch.clear()
      budget.release(reserved)
      return true
    }
    const giveUp = (failure: BodyTooLarge | BodiesBusy | BodyTooSlow) => {
      if (!settle()) return
      reader.cancel().catch(ignore)
      resume(Effect.fail(failure))
    }
    const onChunk = (chunk: ReadableStreamReadResult<Uint8Array>): void => {
      if (settled) return
      if (chunk.done) {
        settle()
        return resume(Effect.succeed(joined(collected)))
      }
      const part = chunk.value
      collected.size += part.byteLength
      if (collected.size > limit) return giveUp(new BodyTooLarge({ limit }))
      if (declared === undefined) {
        if (!budget.reserve(part.byteLength)) return giveUp(new BodiesBusy({ limit: budget.limit }))
        reserved += part.byteLength
      }
      collected.parts.push(part)
      reader.read().then(onChunk, onError)
    }
    const onError = (cause: unknown) => {
      if (settle()) resume(Effect.fail(new BodyUnreadable({ cause })))
    }
    const watch = deadline.watch(() => giveUp(new BodyTooSlow({ ms: deadline.ms })))
    reader.read().then(onChunk, onError)
    return Effect.sync(() => {
      if (settle()) reader.cancel().catch(ignore)
    })
  })

/** Decodes UTF-8 text (a leading BOM is dropped); `undefined` when the bytes are not valid UTF-8. */
export const utf8 = (bytes: Uint8Array): string | undefined => {
  try {
    return decoder.decode(bytes)
  } catch {
    return undefined
  }
}
