import type { HttpReply, RpcId } from "./http-client.ts"

/** Thrown by the assertion helpers; the runner reports its message as the failure reason. */
export class AssertionFailed extends Error {
  override readonly name = "AssertionFailed"
}

/** Fails the scenario with a clear message. */
export const fail = (message: string): never => {
  throw new AssertionFailed(message)
}

/** Fails the scenario unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) fail(message)
}

/** A short JSON rendering of a value for failure messages. */
export const show = (value: unknown, max = 300): string => {
  let s: string
  try {
    s = JSON.stringify(value) ?? String(value)
  } catch {
    s = String(value)
  }
  return s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s
}

/** Fails unless `actual` is deep-equal (JSON-wise) to `expected`. */
export const equal = (actual: unknown, expected: unknown, what: string): void => {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    fail(`${what}: expected ${show(expected)}, got ${show(actual)}`)
  }
}

/** A plain JSON object. */
export type JsonObject = Record<string, unknown>

/** True for a non-null, non-array object. */
export const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)

/** Returns `u` as an object or fails naming `what`. */
export const asObject = (u: unknown, what: string): JsonObject => {
  if (!isObject(u)) fail(`${what} should be an object, got ${show(u)}`)
  return u as JsonObject
}

/** Returns `u` as an array or fails naming `what`. */
export const asArray = (u: unknown, what: string): Array<unknown> => {
  if (!Array.isArray(u)) fail(`${what} should be an array, got ${show(u)}`)
  return u as Array<unknown>
}

/** Returns `u` as a non-empty string or fails naming `what`. */
export const asString = (u: unknown, what: string): string => {
  if (typeof u !== "string" || u.length === 0) fail(`${what} should be a non-empty string, got ${show(u)}`)
  return u as string
}

const isValidId = (id: unknown): boolean => id === null || typeof id === "string" || typeof id === "number"

/**
 * Checks the JSON-RPC 2.0 response envelope (`jsonrpc`, `id`, exactly one of `result`/`error`,
 * an integer `code` and string `message`) and returns it.
 */
export const expectEnvelope = (body: unknown, where: string): JsonObject => {
  const o = asObject(body, `${where}: JSON-RPC response`)
  check(o.jsonrpc === "2.0", `${where}: jsonrpc must be "2.0", got ${show(o.jsonrpc)}`)
  check("id" in o, `${where}: response has no "id" member: ${show(o)}`)
  check(isValidId(o.id), `${where}: response id must be a string, number or null, got ${show(o.id)}`)
  const hasResult = "result" in o
  const hasError = "error" in o
  check(hasResult !== hasError, `${where}: exactly one of result/error must be present: ${show(o)}`)
  if (hasError) {
    const e = asObject(o.error, `${where}: error`)
    check(Number.isInteger(e.code), `${where}: error.code must be an integer, got ${show(e.code)}`)
    check(typeof e.message === "string", `${where}: error.message must be a string, got ${show(e.message)}`)
    check(!/\n\s+at\s/.test(e.message as string), `${where}: error.message looks like a stack trace`)
  }
  return o
}

/** The id the server must echo: the sent id, or null when it could not be read. */
const expectedId = (reply: HttpReply, override?: RpcId): RpcId => (override !== undefined ? override : reply.sentId ?? null)

/** Checks a JSON body answered with the given HTTP status and `application/json`. */
const expectJsonBody = (reply: HttpReply, where: string, statuses: ReadonlyArray<number>): JsonObject => {
  check(
    statuses.includes(reply.status),
    `${where}: expected HTTP ${statuses.join(" or ")}, got ${reply.status} (${reply.contentType}): ${show(reply.text, 200)}`
  )
  check(reply.parseError === undefined, `${where}: body is not JSON (${reply.contentType}): ${show(reply.text, 200)}`)
  check(/^application\/json\b/i.test(reply.contentType), `${where}: Content-Type should be application/json, got "${reply.contentType}"`)
  return expectEnvelope(reply.body, where)
}

/**
 * Expects a JSON-RPC error with one of `codes`, carried by HTTP 200 (or one of `statuses`),
 * echoing the request id (or `id` when given, e.g. `null`). Returns the error object.
 */
export const expectRpcError = (
  reply: HttpReply,
  codes: number | ReadonlyArray<number>,
  options: { readonly id?: RpcId; readonly statuses?: ReadonlyArray<number>; readonly where?: string } = {}
): JsonObject => {
  const where = options.where ?? "reply"
  const wanted = typeof codes === "number" ? [codes] : codes
  const o = expectJsonBody(reply, where, options.statuses ?? [200])
  check("error" in o, `${where}: expected error ${wanted.join(" or ")}, got a result: ${show(o.result)}`)
  const e = o.error as JsonObject
  check(wanted.includes(e.code as number), `${where}: expected error code ${wanted.join(" or ")}, got ${e.code} (${show(e.message)})`)
  equal(o.id, expectedId(reply, options.id), `${where}: response id`)
  return e
}

/** Expects a successful JSON-RPC reply (HTTP 200, id echoed) and returns its `result`. */
export const expectRpcResult = (reply: HttpReply, where = "reply"): unknown => {
  const o = expectJsonBody(reply, where, [200])
  if ("error" in o) fail(`${where}: expected a result, got error ${show(o.error)}`)
  equal(o.id, expectedId(reply), `${where}: response id`)
  return o.result
}

const partKinds = new Set(["text", "file", "data"])
const taskStates = new Set([
  "submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected", "unknown"
])

/** States after which a task never changes again. */
export const terminalStates: ReadonlySet<string> = new Set(["completed", "canceled", "failed", "rejected"])

const checkParts = (parts: unknown, where: string): void => {
  for (const [i, p] of asArray(parts, `${where}.parts`).entries()) {
    const part = asObject(p, `${where}.parts[${i}]`)
    check(partKinds.has(part.kind as string), `${where}.parts[${i}].kind must be text|file|data, got ${show(part.kind)}`)
  }
}

const checkMessage = (m: unknown, where: string): void => {
  const msg = asObject(m, where)
  check(msg.kind === "message", `${where}.kind must be "message", got ${show(msg.kind)}`)
  checkParts(msg.parts, where)
}

const checkStatus = (s: unknown, where: string): void => {
  const status = asObject(s, `${where}.status`)
  check(taskStates.has(status.state as string), `${where}.status.state is not a TaskState: ${show(status.state)}`)
  if (status.message !== undefined) checkMessage(status.message, `${where}.status.message`)
}

/**
 * Checks that a Task, Message or streaming event carries `kind` on itself and on every
 * nested message and part (the interop pitfall peers trip on).
 */
export const expectKinds = (value: unknown, where = "result"): void => {
  const o = asObject(value, where)
  switch (o.kind) {
    case "task":
      checkStatus(o.status, where)
      for (const [i, m] of ((o.history as Array<unknown> | undefined) ?? []).entries()) checkMessage(m, `${where}.history[${i}]`)
      for (const [i, a] of ((o.artifacts as Array<unknown> | undefined) ?? []).entries()) checkParts(asObject(a, `${where}.artifacts[${i}]`).parts, `${where}.artifacts[${i}]`)
      return
    case "message":
      return checkMessage(o, where)
    case "status-update":
      return checkStatus(o.status, where)
    case "artifact-update":
      return checkParts(asObject(o.artifact, `${where}.artifact`).parts, `${where}.artifact`)
    default:
      fail(`${where}.kind must be task|message|status-update|artifact-update, got ${show(o.kind)}`)
  }
}

/** Checks `value` is a Task (kinds included) and returns it. */
export const expectTask = (value: unknown, where = "result"): JsonObject => {
  const t = asObject(value, where)
  check(t.kind === "task", `${where}: expected a Task (kind "task"), got ${show(value)}`)
  asString(t.id, `${where}.id`)
  asString(t.contextId, `${where}.contextId`)
  expectKinds(t, where)
  return t
}

/** The `status.state` of a Task or status-update event. */
export const stateOf = (value: unknown): string => (asObject(asObject(value, "task").status, "status").state as string)

/** The messageIds of a Task's history, in order. */
export const historyIds = (task: JsonObject): Array<string> =>
  ((task.history as Array<JsonObject> | undefined) ?? []).map((m) => m.messageId as string)
