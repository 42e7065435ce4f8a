/**
 * A dependency-free check runner for programs that run unchanged on Node, Bun and Deno: named checks,
 * JSON-wise assertions, a time bound per check, and one output line per check followed by the summary
 * line `N passed, M failed` that `client-runtimes.test.ts` parses.
 *
 * @module
 */

/** One named check; it passes when `run` resolves and fails when it rejects or overruns its bound. */
export interface Check<C> {
  readonly name: string
  readonly run: (context: C) => Promise<void>
}

/** Declares a check. */
export const check = <C>(name: string, run: (context: C) => Promise<void>): Check<C> => ({ name, run })

/** Raised by the assertions; its message is the failure reason printed for the check. */
export class CheckFailed extends Error {
  override readonly name = "CheckFailed"
}

/** A short one-line JSON rendering of a value for failure messages. */
export const show = (value: unknown, max = 300): string => {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max)}...(${text.length} chars)` : text
}

/** Fails unless `condition` holds. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message)
}

/**
 * Fails unless `actual` and `expected` have the same JSON rendering. For two arrays the message names the
 * lengths and the first differing element, which long renderings would otherwise cut off.
 */
export const assertEqual = (actual: unknown, expected: unknown, what: string): void => {
  if (JSON.stringify(actual) === JSON.stringify(expected)) return
  if (Array.isArray(actual) && Array.isArray(expected)) {
    const at = expected.findIndex((e, i) => JSON.stringify(e) !== JSON.stringify(actual[i]))
    const index = at === -1 ? expected.length : at
    throw new CheckFailed(
      `${what}: expected ${expected.length} elements, got ${actual.length}; element ${index} expected ` +
        `${show(expected[index])}, got ${show(actual[index])}`
    )
  }
  throw new CheckFailed(`${what}: expected ${show(expected)}, got ${show(actual)}`)
}

/** Fails unless `actual` has every listed field with the listed value. */
export const assertFields = (actual: unknown, fields: Readonly<Record<string, unknown>>, what: string): void => {
  const record = (typeof actual === "object" && actual !== null ? actual : {}) as Record<string, unknown>
  const got = Object.fromEntries(Object.keys(fields).map((k) => [k, record[k]]))
  assertEqual(got, fields, what)
}

/** Settles `promise` into its rejection reason; fails when it resolves instead. */
export const rejection = async (promise: Promise<unknown>, what: string): Promise<unknown> => {
  try {
    const value = await promise
    throw new CheckFailed(`${what}: expected a failure, got ${show(value)}`)
  } catch (e) {
    if (e instanceof CheckFailed) throw e
    return e
  }
}

/** Polls `condition` until it holds, within `ms`; for effects a peer observes asynchronously. */
export const eventually = async (condition: () => boolean, what: string, ms = 3_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new CheckFailed(`${what}: not observed within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const describe = (e: unknown): string => {
  if (e instanceof CheckFailed) return e.message
  if (e instanceof Error) return `${e.name}: ${e.message}`
  return show(e)
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

/** Totals of a run. */
export interface CheckSummary {
  readonly passed: number
  readonly failed: number
}

/**
 * Runs the checks one after another, each bounded by `timeoutMs`, printing `ok - <name> (<ms> ms)` or
 * `FAIL - <name>: <reason>` per check and `N passed, M failed` at the end.
 */
export const runChecks = async <C>(
  checks: ReadonlyArray<Check<C>>,
  context: C,
  options: { readonly prefix: string; readonly timeoutMs: number; readonly print: (line: string) => void }
): Promise<CheckSummary> => {
  let passed = 0
  let failed = 0
  for (const { name, run } of checks) {
    const started = Date.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CheckFailed(`did not finish within ${options.timeoutMs} ms`)), options.timeoutMs)
    })
    try {
      await Promise.race([run(context), overrun])
      passed++
      options.print(`[${options.prefix}] ok - ${name} (${Date.now() - started} ms)`)
    } catch (e) {
      failed++
      options.print(`[${options.prefix}] FAIL - ${name}: ${oneLine(describe(e))}`)
    } finally {
      clearTimeout(timer)
    }
  }
  options.print(`${passed} passed, ${failed} failed`)
  return { passed, failed }
}
