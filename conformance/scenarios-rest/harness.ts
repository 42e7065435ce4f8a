/**
 * The REST-flavoured scenario context: requests to `/v1/...` below a REST base URL, the binding's error
 * bodies (`{ code, message }` with the catalogue's HTTP status), its SSE streams (bare REST payloads), and
 * readers for both payload spellings. Built on the JSON-RPC suite's primitives: `SseSession`, the
 * assertion helpers, `ScenarioSkipped`.
 */
import { asObject, check, equal, fail, show, type JsonObject } from "../scenarios/assert.ts"
import { heldMessageIdPrefix, ScenarioSkipped } from "../scenarios/harness.ts"
import { describe, fetchReply, type HttpReply } from "../scenarios/http-client.ts"
import { SseSession, type StreamEvent } from "../scenarios/sse-session.ts"

/** One REST scenario: a name (unique, prefixed by its area) and its body. */
export interface RestScenario {
  readonly name: string
  readonly run: (t: RestScenarioContext) => Promise<void>
}

/** Declares a REST scenario. */
export const restScenario = (name: string, run: (t: RestScenarioContext) => Promise<void>): RestScenario => ({ name, run })

/** Options of one request. */
export interface RestRequestOptions {
  readonly headers?: Record<string, string>
  /** `null` sends no Content-Type; default `application/json` when there is a body. */
  readonly contentType?: string | null
  readonly timeoutMs?: number
}

/** An A2A state as the `.proto`'s enum spells it in REST answers (`canceled` is `TASK_STATE_CANCELLED` there). */
export const restState = (a2aState: string): string =>
  a2aState === "canceled" ? "TASK_STATE_CANCELLED" : `TASK_STATE_${a2aState.toUpperCase().replace(/-/g, "_")}`

/** What every REST scenario body receives. */
export class RestScenarioContext {
  private readonly cleanups: Array<() => Promise<void>> = []
  /** The REST base URL, ending in `/`. */
  readonly base: string

  constructor(
    url: string,
    /** Per-request bound in milliseconds. */
    readonly timeoutMs: number,
    /** The webhook URL put in push configs. */
    readonly webhookUrl: string
  ) {
    this.base = url.endsWith("/") ? url : `${url}/`
  }

  /** `v1/...` resolved against the base. */
  at(path: string): string {
    return `${this.base}${path.replace(/^\//, "")}`
  }

  /** Sends one request; a non-string body is sent as JSON. Reads the whole answer. */
  async request(verb: string, path: string, body?: unknown, options: RestRequestOptions = {}): Promise<HttpReply> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs
    const headers = new Headers(options.headers)
    const contentType = options.contentType === undefined ? "application/json" : options.contentType
    if (body !== undefined && contentType !== null) headers.set("content-type", contentType)
    const init: RequestInit = { method: verb, headers, signal: AbortSignal.timeout(timeoutMs) }
    if (body !== undefined) init.body = typeof body === "string" || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body)
    return fetchReply(this.at(path), init, { label: `HTTP ${verb} ${path}`, timeoutMs, sentId: undefined, emptyIsNoBody: true })
  }

  /** Opens an SSE request (`message:stream`, `:subscribe`); the session closes when the scenario ends. */
  async sse(verb: "GET" | "POST", path: string, body?: unknown, options: RestRequestOptions = {}): Promise<SseSession> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(new Error(`no response headers within ${timeoutMs} ms`)), timeoutMs)
    const headers = new Headers(options.headers)
    headers.set("accept", "text/event-stream")
    if (body !== undefined) headers.set("content-type", "application/json")
    try {
      const response = await fetch(this.at(path), {
        method: verb,
        headers,
        signal: abort.signal,
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const session = new SseSession(response, abort, timeoutMs)
      this.defer(() => session.close())
      return session
    } catch (e) {
      throw new Error(`streaming ${verb} ${path} failed: ${describe(e)}`)
    } finally {
      clearTimeout(timer)
    }
  }

  /** A plain A2A user message with a fresh messageId. */
  message(text = "hello from the REST scenarios", overrides: JsonObject = {}): JsonObject {
    return { kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text }], ...overrides }
  }

  /** A plain A2A user message whose task stays live while the scenario uses it (see `heldMessageIdPrefix`). */
  heldMessage(text = "hello from the REST scenarios", overrides: JsonObject = {}): JsonObject {
    return this.message(text, { messageId: `${heldMessageIdPrefix}-${crypto.randomUUID()}`, ...overrides })
  }

  /** A send body that answers at once (a blocking send on a held task would wait for its end). */
  sendBody(message: JsonObject = this.message(), configuration: JsonObject = {}): JsonObject {
    return { message, configuration: { blocking: false, ...configuration } }
  }

  /** Starts a live task through `message:send` (a held message by default); canceled when the scenario ends. Returns the REST task. */
  async createTask(message: JsonObject = this.heldMessage()): Promise<JsonObject> {
    const task = this.expectTask(await this.request("POST", "v1/message:send", this.sendBody(message)), "message:send")
    this.cancelLater(task.id as string)
    return task
  }

  /** Cancels the task after the scenario, ignoring the outcome. */
  cancelLater(taskId: string): void {
    this.defer(() => this.request("POST", `v1/tasks/${encodeURIComponent(taskId)}:cancel`, undefined, { timeoutMs: Math.min(this.timeoutMs, 3000) }).catch(() => undefined))
  }

  /** Expects HTTP 200 JSON and returns the body. */
  expectOk(reply: HttpReply, where: string, status = 200): JsonObject {
    check(reply.status === status, `${where}: expected HTTP ${status}, got ${reply.status}: ${show(reply.text, 200)}`)
    check(reply.parseError === undefined, `${where}: body is not JSON: ${show(reply.text, 200)}`)
    check(/^application\/json\b/i.test(reply.contentType), `${where}: Content-Type should be application/json, got "${reply.contentType}"`)
    return asObject(reply.body, `${where}: body`)
  }

  /** Expects a REST task (bare, or wrapped as `{ task }` by `message:send`) and returns it. */
  expectTask(reply: HttpReply, where: string): JsonObject {
    const body = this.expectOk(reply, where)
    const task = asObject("task" in body ? body.task : body, `${where}: task`)
    check(typeof task.id === "string" && task.id !== "", `${where}: task.id should be a non-empty string: ${show(task)}`)
    check(typeof task.contextId === "string" && task.contextId !== "", `${where}: task.contextId missing: ${show(task)}`)
    check(!("kind" in task), `${where}: REST payloads carry no kind member: ${show(task, 200)}`)
    this.stateOf(task, where)
    return task
  }

  /** The `status.state` of a REST task or status update, checked to be a protobuf enum name. */
  stateOf(value: unknown, where: string): string {
    const state = asObject(asObject(value, where).status, `${where}.status`).state
    check(typeof state === "string" && /^TASK_STATE_[A-Z_]+$/.test(state), `${where}: state should be a TASK_STATE_* name, got ${show(state)}`)
    return state as string
  }

  /** Expects an A2A error: the catalogue's HTTP status and a `{ code, message }` JSON body. */
  expectError(reply: HttpReply, status: number, code: number, where: string): JsonObject {
    check(reply.status === status, `${where}: expected HTTP ${status}, got ${reply.status}: ${show(reply.text, 200)}`)
    check(reply.parseError === undefined, `${where}: error body is not JSON: ${show(reply.text, 200)}`)
    check(/^application\/json\b/i.test(reply.contentType), `${where}: Content-Type should be application/json, got "${reply.contentType}"`)
    const error = asObject(reply.body, `${where}: error body`)
    equal(error.code, code, `${where}: error code`)
    check(typeof error.message === "string" && error.message !== "", `${where}: error message should be a non-empty string`)
    check(!/\n\s+at\s/.test(error.message as string), `${where}: error message looks like a stack trace`)
    return error
  }

  /** Checks a stream answer is HTTP 200 `text/event-stream`. */
  expectSse(session: SseSession, where: string): void {
    check(session.status === 200, `${where}: expected HTTP 200, got ${session.status}`)
    check(/^text\/event-stream\b/i.test(session.contentType), `${where}: Content-Type should be text/event-stream, got "${session.contentType}"`)
  }

  /** One SSE event: a single `data:` line holding a JSON object wrapped by its kind; returns `[kind, payload]`. */
  expectEvent(event: StreamEvent | undefined, where: string): readonly [string, JsonObject] {
    if (event === undefined) return fail(`${where}: stream ended before this event`)
    check(event.dataLines === 1, `${where}: event has ${event.dataLines} data: lines, expected exactly one`)
    check(event.event === undefined, `${where}: expected a data event, got event: ${event.event} ${show(event.data, 200)}`)
    check(event.parseError === undefined, `${where}: event data is not JSON: ${show(event.data, 200)}`)
    const body = asObject(event.json, where)
    const keys = Object.keys(body)
    check(keys.length === 1 && ["task", "message", "statusUpdate", "artifactUpdate"].includes(keys[0]!), `${where}: expected one of task, message, statusUpdate, artifactUpdate, got ${show(keys)}`)
    return [keys[0]!, asObject(body[keys[0]!], `${where}.${keys[0]}`)]
  }

  /** Reads events until a `statusUpdate` with `final: true`; returns them all (kinds and payloads). */
  async untilFinal(session: SseSession, where: string): Promise<Array<readonly [string, JsonObject]>> {
    const events = await session.until((e) => (e.json as { statusUpdate?: { final?: unknown } } | undefined)?.statusUpdate?.final === true)
    const out = events.map((e, i) => this.expectEvent(e, `${where} event #${i + 1}`))
    const last = out.at(-1)
    check(last !== undefined && last[0] === "statusUpdate" && last[1].final === true, `${where}: the stream ended without a final status update`)
    return out
  }

  /** Expects an `event: error` frame carrying `code`, then the end of the stream. */
  async expectErrorEvent(session: SseSession, code: number, where: string): Promise<JsonObject> {
    const event = await session.next()
    if (event === undefined) return fail(`${where}: stream ended without an error event`)
    equal(event.event, "error", `${where}: event type`)
    const error = asObject(event.json, `${where}: error event data`)
    equal(error.code, code, `${where}: error code`)
    check(await session.waitForEnd(), `${where}: stream should end after the error event`)
    return error
  }

  /** Skips the scenario unless the public card (at the base URL's origin) declares `capability`. */
  async requireCapability(capability: "streaming" | "pushNotifications"): Promise<void> {
    const card = await fetch(new URL("/.well-known/agent-card.json", this.base), { signal: AbortSignal.timeout(this.timeoutMs) })
      .then((r) => r.json() as Promise<{ capabilities?: Record<string, unknown> }>)
      .catch(() => undefined)
    if (card?.capabilities?.[capability] !== true) this.skip(`capabilities.${capability} is not true on the public card`)
  }

  /** Marks the scenario as not applicable. */
  skip(reason: string): never {
    throw new ScenarioSkipped(reason)
  }

  /** Registers cleanup work that runs (bounded, errors ignored) after the scenario. */
  defer(fn: () => Promise<unknown>): void {
    this.cleanups.push(async () => {
      await fn()
    })
  }

  /** Runs the registered cleanups, newest first, each bounded. */
  async cleanup(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([fn().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, this.timeoutMs)))])
      clearTimeout(timer)
    }
    this.cleanups.length = 0
  }
}
