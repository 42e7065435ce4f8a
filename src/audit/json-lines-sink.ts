/**
 * Audit events as JSON Lines through a write capability, so the same sink serves a file (the
 * runtime adapter supplies an append function), a `WritableStream`, or a log shipper.
 *
 * @module
 */
import { Effect, Schema, Semaphore } from "effect"
import { AuditEvent } from "./audit-event.ts"
import { AuditSinkError, type AuditSink } from "./audit-sink.ts"
import { canonicalRecord } from "./internal/canonical-line.ts"

/** Appends one complete line (ending in `\n`). Resolves once the line is accepted. */
export type WriteLine = (line: string) => Promise<void>

const encodeEvent = Schema.encodeEffect(AuditEvent)

/** Encodes an event through its schema (dropping undeclared fields) into a JSON object. */
export const encodeAuditEvent = (event: AuditEvent): Effect.Effect<Record<string, unknown>, AuditSinkError> =>
  Effect.mapError(
    encodeEvent(event) as Effect.Effect<Record<string, unknown>, unknown>,
    (cause) => new AuditSinkError({ message: "audit event does not match its schema", cause })
  )

/** The canonical text of a record, as an Effect: a value with no JSON form is an {@link AuditSinkError}, not a defect. */
export const recordLine = (record: Record<string, unknown>): Effect.Effect<string, AuditSinkError> =>
  Effect.try({
    try: () => canonicalRecord(record) + "\n",
    catch: (cause) => new AuditSinkError({ message: "audit event has no JSON form", cause })
  })

/** Runs a write capability as an Effect. */
export const writeLine = (write: WriteLine, line: string): Effect.Effect<void, AuditSinkError> =>
  Effect.tryPromise({
    try: () => write(line),
    catch: (cause) => new AuditSinkError({ message: "audit write failed", cause })
  })

/**
 * A sink writing `{"seq":n,...event}` per line, in canonical JSON (sorted keys) so lines diff and
 * hash stably. Writes are serialised: line order is `seq` order. A failed write does not consume
 * a sequence number.
 *
 * @example
 * const sink = yield* jsonLinesSink({ write: (line) => appendFile("audit.jsonl", line) })
 */
export const jsonLinesSink = (options: { readonly write: WriteLine }): Effect.Effect<AuditSink> =>
  Effect.gen(function* () {
    const lock = yield* Semaphore.make(1)
    let seq = 0
    return {
      record: (event) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            const body = yield* encodeAuditEvent(event)
            yield* writeLine(options.write, yield* recordLine({ ...body, seq: seq + 1 }))
            seq += 1
          })
        )
    }
  })

/**
 * A write capability over a byte `WritableStream` (a Deno/Bun file, a Web stream to anywhere).
 * The stream stays locked to this writer; `close` flushes and closes it.
 */
export const writableStreamLines = (
  stream: WritableStream<Uint8Array>
): { readonly write: WriteLine; readonly close: () => Promise<void> } => {
  const writer = stream.getWriter()
  const encoder = new TextEncoder()
  return {
    write: async (line) => {
      await writer.ready
      await writer.write(encoder.encode(line))
    },
    close: () => writer.close()
  }
}
