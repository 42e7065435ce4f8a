/**
 * Bounded reading of HTTP response bodies.
 *
 * Every wait is bounded: each `read()` races the idle timeout, and releasing the reader cancels it with a
 * deadline of its own. Node 20's fetch was seen to hang when a streaming response is aborted after its
 * whole body arrived; cancelling the reader first and never awaiting the cancellation without a limit
 * keeps a finished or interrupted read from pinning the caller.
 *
 * @module
 */
import { Cause, Effect, Stream } from "effect"
import type { InvalidAgentResponse } from "../../schemas/error-catalogue.ts"
import { A2AClientTransportError, invalidAnswer } from "./errors.ts"

/** How long releasing a body may wait for `reader.cancel()` before giving up on it. */
const CANCEL_DEADLINE_MS = 1_000

/** Limits applied while reading one body. */
export interface BodyLimits {
  /** Used in error messages. */
  readonly url: string
  /** The JSON-RPC method, for error messages. */
  readonly method?: string | undefined
  /** Longest silence between two chunks. */
  readonly idleTimeoutMs: number
}

/** Cancels a reader without ever waiting longer than a fixed deadline. */
const cancelBounded = (reader: ReadableStreamDefaultReader<Uint8Array>): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    reader.cancel().then(
      () => resume(Effect.void),
      () => resume(Effect.void)
    )
  }).pipe(Effect.timeout(CANCEL_DEADLINE_MS), Effect.ignore)

/**
 * The chunks of a body as a Stream. A read error (socket destroyed mid-body) fails with
 * `A2AClientTransportError` reason `Dropped`; silence longer than `idleTimeoutMs` fails with
 * `InvalidAgentResponse` reason `IdleTimeout`. The reader is cancelled when the stream ends, fails or is
 * interrupted.
 */
export const bodyChunks = (
  body: ReadableStream<Uint8Array>,
  limits: BodyLimits
): Stream.Stream<Uint8Array, A2AClientTransportError | InvalidAgentResponse> =>
  Stream.unwrap(
    Effect.map(
      Effect.acquireRelease(Effect.sync(() => body.getReader()), cancelBounded),
      (reader) =>
        Stream.fromEffectRepeat(
          Effect.tryPromise({
            try: () => reader.read(),
            catch: (cause): A2AClientTransportError | InvalidAgentResponse =>
              new A2AClientTransportError({
                reason: "Dropped",
                message: `the connection to ${limits.url} broke off while reading the answer`,
                url: limits.url,
                cause
              })
          }).pipe(
            Effect.timeoutOrElse({
              duration: limits.idleTimeoutMs,
              orElse: () =>
                Effect.fail(
                  invalidAnswer(
                    "IdleTimeout",
                    `${limits.url} sent nothing for ${limits.idleTimeoutMs} ms`,
                    { url: limits.url, method: limits.method }
                  )
                )
            }),
            Effect.flatMap((r) => (r.done ? Cause.done() : Effect.succeed(r.value)))
          )
        )
    )
  )

/**
 * Reads a whole body as text, refusing bodies above `maxBytes` (`InvalidAgentResponse` reason
 * `TooLarge`) without buffering more than the limit.
 */
export const readTextCapped = (
  response: Response,
  limits: BodyLimits & { readonly maxBytes: number }
): Effect.Effect<string, A2AClientTransportError | InvalidAgentResponse> => {
  const tooLarge = () =>
    invalidAnswer("TooLarge", `the answer from ${limits.url} is larger than ${limits.maxBytes} bytes`, {
      url: limits.url,
      method: limits.method
    })
  const declared = Number(response.headers.get("content-length") ?? Number.NaN)
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    return Effect.andThen(
      response.body === null ? Effect.void : cancelBounded(response.body.getReader()),
      Effect.fail(tooLarge())
    )
  }
  if (response.body === null) return Effect.succeed("")
  return Effect.suspend(() => {
    const decoder = new TextDecoder()
    let size = 0
    let text = ""
    return bodyChunks(response.body!, limits).pipe(
      Stream.runForEach((chunk) => {
        size += chunk.byteLength
        if (size > limits.maxBytes) return Effect.fail(tooLarge())
        text += decoder.decode(chunk, { stream: true })
        return Effect.void
      }),
      Effect.map(() => text + decoder.decode())
    )
  })
}
