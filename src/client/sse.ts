/**
 * Server-Sent Events reading for the client: bytes in, `SseMessage`s out, with a size cap per event.
 *
 * Parsing is delegated to `eventsource-parser` (the full WHATWG line grammar: CR, LF and CRLF, multi-line
 * `data`, comments, `id` and `retry` fields); this module adds the memory bound and the Effect plumbing.
 *
 * @module
 */
import { createParser, type EventSourceMessage } from "eventsource-parser"
import { Effect, Stream } from "effect"
import type { InvalidAgentResponse } from "../../schemas/error-catalogue.ts"
import { bodyChunks, type BodyLimits } from "./body-reader.ts"
import { type A2AClientTransportError, invalidAnswer } from "./errors.ts"

/** One event of an SSE stream. Comments (`: ping`) are consumed here and never surface. */
export interface SseMessage {
  /** The `id:` field, when the server sends one (our server sends the per-task sequence number). */
  readonly id: string | undefined
  /** The `event:` field (the JS SDK labels error events `error`). */
  readonly event: string | undefined
  /** The `data:` lines joined with `\n`. */
  readonly data: string
}

/** Limits for one SSE body. */
export interface SseLimits extends BodyLimits {
  /**
   * Largest event accepted, counted in UTF-16 code units of its buffered text (never less than its size
   * in bytes divided by 4, so the memory held stays within a small multiple of the limit).
   */
  readonly maxEventBytes: number
}

/**
 * Parses an SSE body into messages. An event above `maxEventBytes` fails the stream with
 * `InvalidAgentResponse` reason `TooLarge` as soon as the buffered part exceeds the limit, before the
 * event is complete.
 */
export const sseMessages = (
  body: ReadableStream<Uint8Array>,
  limits: SseLimits
): Stream.Stream<SseMessage, A2AClientTransportError | InvalidAgentResponse> =>
  Stream.suspend(() => {
    const decoder = new TextDecoder()
    let ready: Array<SseMessage> = []
    let overflow = false
    const parser = createParser({
      maxBufferSize: limits.maxEventBytes,
      onEvent: (e: EventSourceMessage) => {
        if (e.data.length > limits.maxEventBytes) overflow = true
        else ready.push({ id: e.id, event: e.event, data: e.data })
      },
      onError: (error) => {
        if (error.type === "max-buffer-size-exceeded") overflow = true
      }
    })
    const tooLarge = () =>
      invalidAnswer(
        "TooLarge",
        `${limits.url} sent a stream event larger than ${limits.maxEventBytes} bytes`,
        { url: limits.url, method: limits.method }
      )
    let endsWithCr = false
    const feed = (text: string) => {
      if (text === "") return
      parser.feed(text)
      endsWithCr = text.endsWith("\r")
    }
    const take = () => {
      if (overflow) return Effect.fail(tooLarge())
      const out = ready
      ready = []
      return Effect.succeed(out)
    }
    return bodyChunks(body, limits).pipe(
      Stream.mapEffect((chunk) => {
        feed(decoder.decode(chunk, { stream: true }))
        return take()
      }),
      Stream.concat(
        Stream.fromEffect(
          Effect.suspend(() => {
            feed(decoder.decode())
            // A CR that ends the body is a complete line ending, but the parser holds it back to see whether an
            // LF follows; an LF now makes it the CRLF it is equivalent to, so a final `\r\r` still dispatches.
            if (endsWithCr) parser.feed("\n")
            return take()
          })
        )
      ),
      Stream.flattenIterable
    )
  })
