/**
 * Checks a hash-chained audit log written by `hashChainSink`.
 *
 * What it detects: a changed line (its hash no longer matches), a removed line, an inserted line
 * and reordered lines (sequence numbers and `prev` links stop matching), a removed first line.
 * It reads each line strictly: the text must be exactly the canonical serialisation of its own
 * value (no reordered members, no added whitespace, no other escaping), and no object may name a
 * member twice. So what a reader of the file sees is byte for byte what was hashed, whichever JSON
 * parser reads it.
 * What it cannot detect on its own: lines cut off at the end (give `expectedHead`, kept outside
 * the log, to catch that), and a chain rewritten from some line onward by someone who can write
 * the file (use an HMAC key, or compare with an externally stored head).
 *
 * @module
 */
import { Data, Effect } from "effect"
import type { ChainHead } from "./hash-chain-sink.ts"
import { canonicalRecord } from "./internal/canonical-line.ts"
import { chainDigest, GENESIS_HASH } from "./internal/chain-digest.ts"
import { firstDuplicateKey } from "./internal/duplicate-key.ts"

/** Why a chain failed to verify. */
export type ChainFailureReason =
  | "malformed"
  /** A line names one member twice in an object. */
  | "duplicate-key"
  /** A line is valid JSON but not the canonical text of its value (order, whitespace, escapes). */
  | "non-canonical"
  | "seq"
  | "prev"
  | "hash"
  | "truncated"

/** The outcome of {@link verifyChain}: `line` is 1-based and counts every input line. */
export type ChainVerification =
  | { readonly ok: true; readonly count: number; readonly head: ChainHead }
  | { readonly ok: false; readonly line: number; readonly reason: ChainFailureReason; readonly detail: string }

/** Options of {@link verifyChain}. */
export interface VerifyChainOptions {
  /** The head the checked segment continues (the sink's `anchor`). */
  readonly anchor?: ChainHead
  /** The head recorded elsewhere when the log was last known good; a shorter log is `truncated`. */
  readonly expectedHead?: ChainHead
  /** The sink's HMAC key (usage `sign`), when the chain was written with one. */
  readonly hmacKey?: CryptoKey
}

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const ChainReadErrorBase: ReturnType<typeof Data.TaggedError<"ChainReadError">> = Data.TaggedError("ChainReadError")

/** Reading the lines themselves failed (the source iterable threw). */
export class ChainReadError extends ChainReadErrorBase<{ readonly cause: unknown }> {}

const hex64 = /^[0-9a-f]{64}$/

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const verify = async (
  lines: AsyncIterable<string> | Iterable<string>,
  options: VerifyChainOptions
): Promise<ChainVerification> => {
  let head: ChainHead = options.anchor ?? { seq: 0, hash: GENESIS_HASH }
  let count = 0
  let lineNo = 0
  const fail = (reason: ChainFailureReason, detail: string): ChainVerification => ({
    ok: false,
    line: lineNo,
    reason,
    detail
  })
  for await (const raw of lines) {
    lineNo += 1
    // The writer ends every line with one "\n"; nothing else around the text is canonical.
    const text = raw.endsWith("\n") ? raw.slice(0, -1) : raw
    if (text === "") continue
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return fail("malformed", "not JSON")
    }
    if (!isRecord(parsed)) return fail("malformed", "not a JSON object")
    let canonical: string
    try {
      canonical = canonicalRecord(parsed)
    } catch {
      return fail("malformed", "content has no canonical JSON form")
    }
    if (canonical !== text) {
      const duplicate = firstDuplicateKey(text)
      return duplicate !== undefined
        ? fail("duplicate-key", `member ${JSON.stringify(duplicate)} appears twice in one object`)
        : fail("non-canonical", "the line is not the canonical JSON text of its content")
    }
    const { prev, hash, ...body } = parsed
    if (typeof prev !== "string" || !hex64.test(prev) || typeof hash !== "string" || !hex64.test(hash)) {
      return fail("malformed", "missing or malformed prev/hash")
    }
    if (body["seq"] !== head.seq + 1) {
      return fail("seq", `expected seq ${head.seq + 1}, found ${JSON.stringify(body["seq"])}`)
    }
    if (prev !== head.hash) return fail("prev", "prev does not match the previous line's hash")
    let digest: string
    try {
      digest = await chainDigest(prev, body, options.hmacKey)
    } catch {
      return fail("malformed", "content has no canonical JSON form")
    }
    if (digest !== hash) return fail("hash", "content does not match its hash")
    head = { seq: head.seq + 1, hash }
    count += 1
  }
  const expected = options.expectedHead
  if (expected !== undefined && (expected.seq !== head.seq || expected.hash !== head.hash)) {
    lineNo += 1
    return expected.seq > head.seq
      ? fail("truncated", `log ends at seq ${head.seq}, expected ${expected.seq}`)
      : fail("hash", `head (seq ${head.seq}) differs from the expected head (seq ${expected.seq})`)
  }
  return { ok: true, count, head }
}

/**
 * Verifies a chain line by line (lines may end with one `\n`; empty lines are skipped), as an Effect. A
 * broken chain is a result naming the first bad line; only a failing source is an error. Without Effect,
 * use {@link verifyChainAsync}.
 *
 * @example
 * const result = yield* verifyChain(text.split("\n"), { expectedHead })
 * if (!result.ok) console.error(`line ${result.line}: ${result.reason}`)
 */
export const verifyChain = (
  lines: AsyncIterable<string> | Iterable<string>,
  options: VerifyChainOptions = {}
): Effect.Effect<ChainVerification, ChainReadError> =>
  Effect.tryPromise({ try: () => verify(lines, options), catch: (cause) => new ChainReadError({ cause }) })

/**
 * {@link verifyChain} as a Promise: resolves to the same result, and rejects (with `ChainReadError`) only
 * when reading the lines fails.
 *
 * @example
 * const result = await verifyChainAsync((await readFile("a2a-audit.jsonl", "utf8")).split("\n"))
 * if (!result.ok) console.error(`line ${result.line}: ${result.reason}`)
 */
export const verifyChainAsync = (
  lines: AsyncIterable<string> | Iterable<string>,
  options: VerifyChainOptions = {}
): Promise<ChainVerification> =>
  verify(lines, options).catch((cause: unknown) => Promise.reject(new ChainReadError({ cause })))
