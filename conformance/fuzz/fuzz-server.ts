import { expectEnvelope } from "../scenarios/assert.ts"
import { describe } from "../scenarios/http-client.ts"
import { SseSession } from "../scenarios/sse-session.ts"
import { generateFuzzCases, type FuzzCase, type FuzzCategory } from "./generate.ts"

/** Options of `fuzzServer`. */
export interface FuzzOptions {
  /** How many bodies to send (default 2000). */
  readonly count?: number
  /** How many requests in flight at once (default 8). */
  readonly concurrency?: number
  /** PRNG seed; the same seed sends the same bodies. */
  readonly seed?: number
  /** Bound for each answer, in milliseconds (default 10000). */
  readonly timeoutMs?: number
}

/** A body whose answer was not a well-formed JSON-RPC response in time. */
export interface FuzzFailure {
  readonly index: number
  readonly category: FuzzCategory
  readonly label: string
  readonly reason: string
}

/** Outcome of a fuzz run. */
export interface FuzzReport {
  readonly sent: number
  readonly failures: ReadonlyArray<FuzzFailure>
  /** Whether a valid request was still answered correctly after the run. */
  readonly aliveAfter: boolean
  readonly durationMs: number
}

const isJson = (ct: string): boolean => /^application\/json\b/i.test(ct)

/** Checks one answer; returns the reason it is not acceptable, or undefined. */
const judge = async (response: Response, timeoutMs: number): Promise<string | undefined> => {
  const ct = response.headers.get("content-type") ?? ""
  if (!(response.status === 200 || (response.status >= 400 && response.status < 500))) {
    await response.body?.cancel().catch(() => undefined)
    return `HTTP ${response.status} (${ct})`
  }
  const session = new SseSession(response, new AbortController(), timeoutMs)
  try {
    if (/^text\/event-stream\b/i.test(ct)) {
      if (response.status !== 200) return `SSE with HTTP ${response.status}`
      const first = await session.next()
      if (first === undefined) return "SSE stream ended without an event"
      if (first.parseError !== undefined) return `SSE data is not JSON: ${first.data.slice(0, 80)}`
      expectEnvelope(first.json, "first SSE event")
      return undefined
    }
    const text = await session.readText()
    if (!isJson(ct)) return `HTTP ${response.status} with Content-Type "${ct}": ${text.slice(0, 80)}`
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return `HTTP ${response.status} body is not JSON: ${text.slice(0, 80)}`
    }
    const replies = Array.isArray(body) ? body : [body]
    for (const r of replies) {
      const env = expectEnvelope(r, "reply")
      if (response.status !== 200 && !("error" in env)) return `HTTP ${response.status} without a JSON-RPC error`
    }
    return undefined
  } catch (e) {
    return describe(e)
  } finally {
    await session.close()
  }
}

const sendOne = async (url: string, c: FuzzCase, timeoutMs: number): Promise<string | undefined> => {
  const headers = new Headers()
  if (c.contentType !== null) headers.set("content-type", c.contentType)
  const body = typeof c.body === "string" ? c.body : new Blob([c.body as Uint8Array<ArrayBuffer>])
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), timeoutMs)
  try {
    const response = await fetch(url, { method: "POST", headers, body, signal: abort.signal })
    return await judge(response, timeoutMs)
  } catch (e) {
    return abort.signal.aborted ? `no answer within ${timeoutMs} ms` : `transport error: ${describe(e)}`
  } finally {
    clearTimeout(timer)
    abort.abort()
  }
}

const stillAlive = async (url: string, timeoutMs: number): Promise<boolean> => {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "alive", method: "tasks/get", params: { id: "fuzz-alive-check" } }),
      signal: AbortSignal.timeout(timeoutMs)
    })
    const body = (await response.json()) as { id?: unknown; error?: { code?: unknown } }
    return response.status === 200 && body.id === "alive" && body.error?.code === -32001
  } catch {
    return false
  }
}

/**
 * Sends generated hostile bodies to a JSON-RPC endpoint and checks that every answer is a
 * well-formed JSON-RPC response (HTTP 200, or a 4xx with a JSON-RPC error body) within the bound,
 * and that the server still answers a valid request afterwards.
 */
export const fuzzServer = async (url: string, options: FuzzOptions = {}): Promise<FuzzReport> => {
  const started = Date.now()
  const timeoutMs = options.timeoutMs ?? 10_000
  const cases = generateFuzzCases({ count: options.count ?? 2000, ...(options.seed !== undefined ? { seed: options.seed } : {}) })
  const failures: Array<FuzzFailure> = []
  let sent = 0
  const worker = async (): Promise<void> => {
    for (let next = cases.next(); !next.done; next = cases.next()) {
      const c = next.value
      sent += 1
      const reason = await sendOne(url, c, timeoutMs)
      if (reason !== undefined) failures.push({ index: c.index, category: c.category, label: c.label, reason })
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker))
  failures.sort((a, b) => a.index - b.index)
  return { sent, failures, aliveAfter: await stillAlive(url, timeoutMs), durationMs: Date.now() - started }
}
