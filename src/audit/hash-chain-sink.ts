/**
 * A tamper-evident JSON Lines audit log: every line carries the hash of the line before it, so
 * editing, removing, inserting or reordering lines breaks the chain (see `verifyChain`).
 *
 * @module
 */
import { Effect, Semaphore } from "effect"
import { AuditSinkError, type AuditSink } from "./audit-sink.ts"
import { chainDigest, GENESIS_HASH } from "./internal/chain-digest.ts"
import { encodeAuditEvent, recordLine, writeLine, type WriteLine } from "./json-lines-sink.ts"

export { GENESIS_HASH } from "./internal/chain-digest.ts"

/** The last link of a chain: store it somewhere the log's writer cannot reach to detect truncation. */
export interface ChainHead {
  readonly seq: number
  readonly hash: string
}

/** Options of {@link hashChainSink}. */
export interface HashChainOptions {
  /** Appends one complete line (ending in `\n`). */
  readonly write: WriteLine
  /**
   * Continue an earlier chain (after a restart or a file rotation): the head it ended with.
   * Without it the chain starts at `seq` 1 with `prev` = {@link GENESIS_HASH}.
   */
  readonly anchor?: ChainHead
  /**
   * An HMAC key (`{ name: "HMAC", hash: "SHA-256" }`, usage `sign`). With it, someone who can
   * rewrite the file but does not hold the key cannot forge a consistent chain.
   */
  readonly hmacKey?: CryptoKey
}

/** A hash-chained sink; `head` is the last written link. */
export interface HashChainSink extends AuditSink {
  readonly head: Effect.Effect<ChainHead>
}

/**
 * Writes `{ ...event, seq, prev, hash }` per line (RFC 8785 canonical JSON, lone surrogates
 * written as `\udxxx` escapes so no event is refused), where `prev` is the previous
 * line's `hash` and `hash = hex(SHA-256(prev + canonical({ ...event, seq })))`. Writes are
 * serialised; the head only advances after a successful write, so a failed write leaves no gap.
 */
export const hashChainSink = (options: HashChainOptions): Effect.Effect<HashChainSink> =>
  Effect.gen(function* () {
    const lock = yield* Semaphore.make(1)
    let head: ChainHead = options.anchor ?? { seq: 0, hash: GENESIS_HASH }
    return {
      head: Effect.sync(() => head),
      record: (event) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            const body = { ...(yield* encodeAuditEvent(event)), seq: head.seq + 1 }
            const prev = head.hash
            const hash = yield* Effect.tryPromise({
              try: () => chainDigest(prev, body, options.hmacKey),
              catch: (cause) => new AuditSinkError({ message: "audit hashing failed", cause })
            })
            yield* writeLine(options.write, yield* recordLine({ ...body, prev, hash }))
            head = { seq: body.seq, hash }
          })
        )
    }
  })
