import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { AuditEvent } from "./audit-event.ts"
import { GENESIS_HASH, hashChainSink, type ChainHead } from "./hash-chain-sink.ts"
import { canonicalize } from "../card/canonicalize.ts"
import { chainDigest } from "./internal/chain-digest.ts"
import { verifyChain, type VerifyChainOptions } from "./verify-chain.ts"

const at = "2025-01-01T00:00:00.000Z"
const events: ReadonlyArray<AuditEvent> = [
  { kind: "request", at, method: "message/send", principal: "alice", outcome: "ok", durationMs: 4, requestId: 1 },
  { kind: "task-transition", at, taskId: "t1", from: null, to: "submitted" },
  { kind: "task-transition", at, taskId: "t1", from: "submitted", to: "working" },
  { kind: "auth-refused", at, schemes: ["bearer"], status: 401, reason: "invalid_token" },
  { kind: "extension-activated", at, uri: "https://example.com/ext/v1", method: "message/send" },
  { kind: "push-attempt", at, taskId: "t1", url: "https://hook.example/a", attempt: 1, outcome: "delivered" }
]

const writeChain = (options: { anchor?: ChainHead; hmacKey?: CryptoKey } = {}) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const lines: Array<string> = []
      const sink = yield* hashChainSink({ ...options, write: async (line) => void lines.push(line) })
      for (const event of events) yield* sink.record(event)
      return { lines, head: yield* sink.head }
    })
  )

const check = (lines: ReadonlyArray<string>, options?: VerifyChainOptions) =>
  Effect.runPromise(verifyChain(lines, options))

const parse = (line: string | undefined): Record<string, unknown> => JSON.parse(line ?? "") as Record<string, unknown>

describe("hashChainSink + verifyChain", () => {
  it("writes a chain that verifies, linking each line to the previous hash", async () => {
    const { lines, head } = await writeChain()
    expect(lines).toHaveLength(events.length)
    expect(lines.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n"))).toBe(true)
    expect(parse(lines[0])["prev"]).toBe(GENESIS_HASH)
    expect(parse(lines[1])["prev"]).toBe(parse(lines[0])["hash"])
    expect(head).toEqual({ seq: events.length, hash: parse(lines.at(-1))["hash"] })
    expect(await check(lines, { expectedHead: head })).toEqual({ ok: true, count: events.length, head })
    // The verifier also reads an async source (e.g. a file read line by line).
    async function* source() {
      yield* lines
    }
    expect(await Effect.runPromise(verifyChain(source()))).toMatchObject({ ok: true, count: events.length })
  })

  it("detects a changed line", async () => {
    const { lines } = await writeChain()
    const tampered = [...lines]
    tampered[2] = tampered[2]!.replace('"to":"working"', '"to":"completed"')
    expect(tampered[2]).not.toBe(lines[2])
    expect(await check(tampered)).toMatchObject({ ok: false, line: 3, reason: "hash" })
  })

  it("detects a changed line whose own hash was recomputed (the next link breaks)", async () => {
    const { lines } = await writeChain()
    const { prev, hash: _hash, ...body } = parse(lines[1])
    const forgedBody = { ...body, to: "rejected" }
    const forged = canonicalize({ ...forgedBody, prev, hash: await chainDigest(String(prev), forgedBody) })
    const tampered = [...lines]
    tampered[1] = forged
    expect(await check(tampered)).toMatchObject({ ok: false, line: 3, reason: "prev" })
  })

  it("detects a removed line, including the first", async () => {
    const { lines } = await writeChain()
    expect(await check([...lines.slice(0, 3), ...lines.slice(4)])).toMatchObject({ ok: false, line: 4, reason: "seq" })
    expect(await check(lines.slice(1))).toMatchObject({ ok: false, line: 1, reason: "seq" })
  })

  it("detects an inserted line (duplicate or forged)", async () => {
    const { lines } = await writeChain()
    expect(await check([...lines.slice(0, 2), lines[1]!, ...lines.slice(2)])).toMatchObject({
      ok: false,
      line: 3,
      reason: "seq"
    })
    // A forged line with the right seq and prev: the line after it no longer fits.
    const last = parse(lines[1])
    const body = { ...events[0], seq: 3 }
    const forged = canonicalize({ ...body, prev: last["hash"], hash: await chainDigest(String(last["hash"]), body) })
    expect(await check([...lines.slice(0, 2), forged, ...lines.slice(2)])).toMatchObject({
      ok: false,
      line: 4,
      reason: "seq"
    })
  })

  it("detects reordered lines", async () => {
    const { lines } = await writeChain()
    const swapped = [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)]
    expect(await check(swapped)).toMatchObject({ ok: false, line: 2, reason: "seq" })
  })

  it("detects a truncated tail only against an expected head kept elsewhere", async () => {
    const { lines, head } = await writeChain()
    const truncated = lines.slice(0, -2)
    // Without an external head, a cut-off tail is indistinguishable from a shorter log.
    expect(await check(truncated)).toMatchObject({ ok: true, count: events.length - 2 })
    expect(await check(truncated, { expectedHead: head })).toMatchObject({
      ok: false,
      line: truncated.length + 1,
      reason: "truncated"
    })
  })

  it("refuses a line that is not the canonical text of its own value, though its hash matches", async () => {
    const { lines } = await writeChain()
    const line = lines[1]!.slice(0, -1)
    const value = parse(line)
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(value).reverse()))
    const spaced = JSON.stringify(value, null, 1).replace(/\n/g, "")
    const escaped = line.replace('"task-transition"', '"task\\u002dtransition"')
    for (const variant of [reordered, spaced, escaped, ` ${line}`, `${line} `, `${line}\r`]) {
      expect(variant).not.toBe(line)
      // Each variant parses to the very value that was hashed: only its text differs.
      expect(JSON.parse(variant)).toEqual(value)
      expect(await check([lines[0]!, variant, ...lines.slice(2)])).toMatchObject({ ok: false, line: 2, reason: "non-canonical" })
    }
  })

  it("refuses a line that names a member twice, whichever value a parser keeps", async () => {
    const { lines } = await writeChain()
    // JSON.parse keeps the last "to", which is the hashed one; a reader keeping the first sees "completed".
    const doubled = lines[2]!.replace('"to":"working"', '"to":"completed","to":"working"')
    expect(JSON.parse(doubled)).toEqual(parse(lines[2]))
    expect(await check([...lines.slice(0, 2), doubled, ...lines.slice(3)])).toMatchObject({
      ok: false,
      line: 3,
      reason: "duplicate-key",
      detail: 'member "to" appears twice in one object'
    })
    // Names are compared unescaped.
    const aliased = lines[2]!.replace('"to":"working"', '"t\\u006f":"completed","to":"working"')
    expect(await check([...lines.slice(0, 2), aliased, ...lines.slice(3)])).toMatchObject({ ok: false, reason: "duplicate-key" })
  })

  it("reports malformed lines", async () => {
    const { lines } = await writeChain()
    expect(await check([lines[0]!, "{not json"])).toMatchObject({ ok: false, line: 2, reason: "malformed" })
    expect(await check([lines[0]!, "[1,2]"])).toMatchObject({ ok: false, line: 2, reason: "malformed" })
  })

  it("continues an earlier chain from its anchor", async () => {
    const first = await writeChain()
    const second = await writeChain({ anchor: first.head })
    expect(parse(second.lines[0])["seq"]).toBe(events.length + 1)
    expect(await check(second.lines, { anchor: first.head })).toMatchObject({ ok: true, count: events.length })
    expect(await check(second.lines)).toMatchObject({ ok: false, line: 1, reason: "seq" })
    expect(await check([...first.lines, ...second.lines])).toMatchObject({ ok: true, count: 2 * events.length })
  })

  it("with an HMAC key, a chain recomputed without the key does not verify", async () => {
    const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    const { lines } = await writeChain({ hmacKey: key })
    expect(await check(lines, { hmacKey: key })).toMatchObject({ ok: true, count: events.length })
    // Rewrite the whole chain with plain SHA-256, as someone without the key would.
    let prev = GENESIS_HASH
    const rewritten: Array<string> = []
    for (const line of lines) {
      const { prev: _p, hash: _h, ...body } = parse(line)
      const hash = await chainDigest(prev, body)
      rewritten.push(canonicalize({ ...body, prev, hash }))
      prev = hash
    }
    expect(await check(rewritten)).toMatchObject({ ok: true })
    expect(await check(rewritten, { hmacKey: key })).toMatchObject({ ok: false, line: 1, reason: "hash" })
  })

  it("records strings holding lone surrogates exactly, as escapes that survive a UTF-8 file", async () => {
    const lines: Array<string> = []
    const odd: AuditEvent = { kind: "request", at, method: "\ud800", principal: "p\udfff", outcome: "error", errorCode: -32601, durationMs: 0, requestId: "\udbff" }
    const head = await Effect.runPromise(Effect.gen(function* () {
      const sink = yield* hashChainSink({ write: async (line) => void lines.push(line) })
      yield* sink.record(odd)
      return yield* sink.head
    }))
    expect(lines[0]).toContain('"method":"\\ud800"')
    // Bytes on disk and back: the line is unchanged, and so is its value.
    const reread = new TextDecoder().decode(new TextEncoder().encode(lines[0]))
    expect(reread).toBe(lines[0])
    expect(parse(reread)).toMatchObject({ method: "\ud800", principal: "p\udfff", requestId: "\udbff" })
    expect(await check([reread], { expectedHead: head })).toMatchObject({ ok: true, count: 1 })
  })

  it("does not advance the chain when a write fails", async () => {
    const lines: Array<string> = []
    let failNext = false
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const sink = yield* hashChainSink({
          write: async (line) => {
            if (failNext) {
              failNext = false
              throw new Error("disk full")
            }
            lines.push(line)
          }
        })
        yield* sink.record(events[0]!)
        failNext = true
        const failed = yield* Effect.result(sink.record(events[1]!))
        yield* sink.record(events[2]!)
        return failed
      })
    )
    expect(result._tag).toBe("Failure")
    expect(await check(lines)).toMatchObject({ ok: true, count: 2 })
  })
})
