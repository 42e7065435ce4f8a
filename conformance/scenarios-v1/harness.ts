/**
 * The A2A 1.0 scenario context: one set of scenarios for both bindings. `call` and `stream` take a 1.0
 * operation and its ProtoJSON params and speak them over JSON-RPC (PascalCase method, `A2A-Version: 1.0`) or
 * REST (the 1.0 routes, params in the path, query and body); answers come back in one shape, errors with
 * their JSON-RPC code or HTTP status and their ErrorInfo reason. Built on the 0.3 suites' primitives.
 */
import { asObject, check, show, type JsonObject } from "../scenarios/assert.ts"
import { heldMessageIdPrefix, ScenarioSkipped } from "../scenarios/harness.ts"
import { describe, fetchReply, type HttpReply } from "../scenarios/http-client.ts"
import { SseSession } from "../scenarios/sse-session.ts"

/** The binding a run speaks. */
export type Binding = "jsonrpc" | "rest"

/** One 1.0 scenario. */
export interface V1Scenario {
  readonly name: string
  readonly run: (t: V1ScenarioContext) => Promise<void>
}

/** Declares a scenario. */
export const v1Scenario = (name: string, run: (t: V1ScenarioContext) => Promise<void>): V1Scenario => ({ name, run })

/** A refusal as either binding states it. */
export interface V1Error {
  /** The JSON-RPC code (JSON-RPC binding only). */
  readonly code?: number
  /** The HTTP status (REST binding only; JSON-RPC errors travel with 200). */
  readonly status?: number
  /** The ErrorInfo reason, when the error has one. */
  readonly reason?: string
  readonly message: string
}

/** An answer: the result, or the refusal. */
export type V1Reply = { readonly result: JsonObject; readonly error?: undefined } | { readonly error: V1Error; readonly result?: undefined }

/** An open 1.0 stream: its payloads (`StreamResponse`s), or the refusal it started with. */
export interface V1Stream {
  /** The next payload, or undefined when the stream ended; a mid-stream error throws. */
  readonly next: (waitMs?: number) => Promise<JsonObject | undefined>
  /** Every payload to the end of the stream. */
  readonly rest: () => Promise<Array<JsonObject>>
  readonly refused?: V1Error
}

const errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

const reasonOf = (details: unknown): string | undefined => {
  if (!Array.isArray(details)) return undefined
  const info = details.find((d) => typeof d === "object" && d !== null && (d as JsonObject)["@type"] === errorInfoType) as JsonObject | undefined
  return typeof info?.reason === "string" ? info.reason : undefined
}

const q = encodeURIComponent

/** Every 1.0 operation as a REST request: verb, path, query, body. */
const restRequest = (op: string, p: JsonObject): { verb: string; path: string; body?: unknown } => {
  const query = (keys: ReadonlyArray<string>) => {
    const search = new URLSearchParams()
    for (const k of keys) if (p[k] !== undefined) search.set(k, String(p[k]))
    const s = search.toString()
    return s === "" ? "" : `?${s}`
  }
  switch (op) {
    case "SendMessage":
      return { verb: "POST", path: "message:send", body: p }
    case "SendStreamingMessage":
      return { verb: "POST", path: "message:stream", body: p }
    case "GetTask":
      return { verb: "GET", path: `tasks/${q(String(p.id))}${query(["historyLength"])}` }
    case "ListTasks":
      return { verb: "GET", path: `tasks${query(["contextId", "status", "pageSize", "pageToken", "historyLength", "statusTimestampAfter", "includeArtifacts"])}` }
    case "CancelTask":
      return { verb: "POST", path: `tasks/${q(String(p.id))}:cancel`, body: p.metadata === undefined ? {} : { metadata: p.metadata } }
    case "SubscribeToTask":
      return { verb: "POST", path: `tasks/${q(String(p.id))}:subscribe` }
    case "CreateTaskPushNotificationConfig":
      return { verb: "POST", path: `tasks/${q(String(p.taskId))}/pushNotificationConfigs`, body: p }
    case "GetTaskPushNotificationConfig":
      return { verb: "GET", path: `tasks/${q(String(p.taskId))}/pushNotificationConfigs/${q(String(p.id))}` }
    case "ListTaskPushNotificationConfigs":
      return { verb: "GET", path: `tasks/${q(String(p.taskId))}/pushNotificationConfigs` }
    case "DeleteTaskPushNotificationConfig":
      return { verb: "DELETE", path: `tasks/${q(String(p.taskId))}/pushNotificationConfigs/${q(String(p.id))}` }
    case "GetExtendedAgentCard":
      return { verb: "GET", path: "extendedAgentCard" }
    default:
      throw new Error(`no REST route for ${op}`)
  }
}

/** What every 1.0 scenario receives. */
export class V1ScenarioContext {
  private readonly cleanups: Array<() => Promise<void>> = []
  private counter = 0

  constructor(
    readonly binding: Binding,
    /** The server's origin: the card is at `/.well-known/agent-card.json`. */
    readonly origin: string,
    /** The JSON-RPC endpoint. */
    readonly rpcUrl: string,
    /** The REST base, ending in `/`. */
    readonly restBase: string,
    readonly timeoutMs: number,
    readonly webhookUrl: string
  ) {}

  /** Headers of every request. */
  headers(extra: Record<string, string> = {}): Headers {
    return new Headers({ "a2a-version": "1.0", ...extra })
  }

  /** A raw request to a URL with the given headers (for negotiation and card scenarios). */
  raw(url: string, init: RequestInit = {}): Promise<HttpReply> {
    return fetchReply(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) }, { label: `${init.method ?? "GET"} ${url}`, timeoutMs: this.timeoutMs, sentId: undefined, emptyIsNoBody: true })
  }

  private toReply(reply: HttpReply, where: string): V1Reply {
    check(reply.parseError === undefined, `${where}: the answer is not JSON (HTTP ${reply.status}): ${show(reply.text, 200)}`)
    const body = reply.body as JsonObject | undefined
    if (this.binding === "jsonrpc") {
      check(reply.status === 200 && body?.jsonrpc === "2.0", `${where}: expected a JSON-RPC response with HTTP 200, got ${reply.status}: ${show(reply.text, 200)}`)
      check(!(typeof body!.result === "object" && body!.result !== null && "kind" in (body!.result as JsonObject)), `${where}: 1.0 results carry no kind: ${show(body)}`)
      if (body!.error !== undefined) {
        const e = asObject(body!.error, `${where}: error`)
        check(e.data === undefined || Array.isArray(e.data), `${where}: 1.0 error data is a list of typed details, got ${show(e.data)}`)
        const reason = reasonOf(e.data)
        return { error: { code: e.code as number, message: String(e.message), ...(reason === undefined ? {} : { reason }) } }
      }
      return { result: asObject(body!.result, `${where}: result`) }
    }
    if (reply.status >= 400) {
      const e = asObject(asObject(body, `${where}: error body`).error, `${where}: google.rpc.Status error`)
      check(e.code === reply.status, `${where}: error.code ${show(e.code)} should be the HTTP status ${reply.status}`)
      check(typeof e.status === "string" && typeof e.message === "string", `${where}: error.status and error.message are strings: ${show(e)}`)
      const reason = reasonOf(e.details)
      return { error: { status: reply.status, message: String(e.message), ...(reason === undefined ? {} : { reason }) } }
    }
    check(reply.status === 200, `${where}: expected HTTP 200, got ${reply.status}`)
    check(/application\/(a2a\+)?json/i.test(reply.contentType), `${where}: Content-Type should be JSON, got ${reply.contentType}`)
    return { result: asObject(body ?? {}, `${where}: body`) }
  }

  /** Calls a unary 1.0 operation. */
  async call(op: string, params: JsonObject = {}, extra: Record<string, string> = {}): Promise<V1Reply> {
    if (this.binding === "jsonrpc") {
      const id = `v1-${++this.counter}`
      const headers = this.headers({ "content-type": "application/json", ...extra })
      const reply = await this.raw(this.rpcUrl, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method: op, params }) })
      return this.toReply(reply, op)
    }
    const { verb, path, body } = restRequest(op, params)
    const headers = this.headers(body === undefined ? extra : { "content-type": "application/json", ...extra })
    const reply = await this.raw(`${this.restBase}${path}`, { method: verb, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    return this.toReply(reply, `${verb} ${path}`)
  }

  /** The result of a call that must succeed. */
  async ok(op: string, params: JsonObject = {}): Promise<JsonObject> {
    const reply = await this.call(op, params)
    if (reply.error !== undefined) throw new Error(`${op}: expected a result, got ${show(reply.error)}`)
    return reply.result
  }

  /** Opens a streaming 1.0 operation; refused streams report the refusal instead of payloads. */
  async stream(op: string, params: JsonObject, extra: Record<string, string> = {}): Promise<V1Stream> {
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(new Error(`no response headers within ${this.timeoutMs} ms`)), this.timeoutMs)
    let response: Response
    try {
      if (this.binding === "jsonrpc") {
        response = await fetch(this.rpcUrl, {
          method: "POST",
          headers: this.headers({ "content-type": "application/json", accept: "text/event-stream", ...extra }),
          body: JSON.stringify({ jsonrpc: "2.0", id: `v1-${++this.counter}`, method: op, params }),
          signal: abort.signal
        })
      } else {
        const { verb, path, body } = restRequest(op, params)
        response = await fetch(`${this.restBase}${path}`, {
          method: verb,
          headers: this.headers({ accept: "text/event-stream", ...(body === undefined ? {} : { "content-type": "application/json" }), ...extra }),
          signal: abort.signal,
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      }
    } catch (e) {
      throw new Error(`${op} stream failed: ${describe(e)}`)
    } finally {
      clearTimeout(timer)
    }
    if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      const text = await response.text()
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      const reply = this.toReply({ status: response.status, headers: response.headers, contentType: response.headers.get("content-type") ?? "", text, body, sentId: undefined }, op)
      check(reply.error !== undefined, `${op}: a stream answered with a non-SSE success: ${show(text, 200)}`)
      return { refused: reply.error, next: async () => undefined, rest: async () => [] }
    }
    const session = new SseSession(response, abort, this.timeoutMs)
    this.defer(() => session.close())
    const next = async (waitMs?: number): Promise<JsonObject | undefined> => {
      const event = await session.next(waitMs)
      if (event === undefined) return undefined
      const json = asObject(event.json, `${op}: SSE data`)
      if (this.binding === "jsonrpc") {
        check(json.error === undefined, `${op}: the stream ended with an error: ${show(json.error)}`)
        const result = asObject(json.result, `${op}: SSE result`)
        check(!("kind" in result) && !("final" in (result.statusUpdate as JsonObject ?? {})), `${op}: 1.0 events carry no kind and no final: ${show(result)}`)
        return result
      }
      check(event.event !== "error", `${op}: the stream ended with an error: ${show(json)}`)
      return json
    }
    return {
      next,
      rest: async () => {
        const all: Array<JsonObject> = []
        for (let e = await next(); e !== undefined; e = await next()) all.push(e)
        return all
      }
    }
  }

  /** Expects a refusal with `reason` (and, per binding, the JSON-RPC code or HTTP status). */
  expectError(reply: V1Reply | V1Stream, where: string, expected: { readonly reason?: string; readonly code: number; readonly status: number }): V1Error {
    const error = "refused" in reply ? reply.refused : (reply as V1Reply).error
    check(error !== undefined, `${where}: expected an error, got ${show((reply as V1Reply).result)}`)
    if (this.binding === "jsonrpc") check(error.code === expected.code, `${where}: expected code ${expected.code}, got ${show(error)}`)
    else check(error.status === expected.status, `${where}: expected HTTP ${expected.status}, got ${show(error)}`)
    if (expected.reason !== undefined) check(error.reason === expected.reason, `${where}: expected ErrorInfo reason ${expected.reason}, got ${show(error)}`)
    return error
  }

  /** A 1.0 user message with a fresh id; `prefix` selects the agent's behaviour (see the kit's table). */
  message(text = "hello from the 1.0 scenarios", prefix?: string, extra: JsonObject = {}): JsonObject {
    const id = crypto.randomUUID()
    return { messageId: prefix === undefined ? id : `${prefix}-${id.slice(0, 8)}`, role: "ROLE_USER", parts: [{ text }], ...extra }
  }

  /** Starts a task that stays live (the 0.3 suites' held prefix), canceled when the scenario ends. */
  async heldTask(): Promise<JsonObject> {
    const answer = await this.ok("SendMessage", {
      message: this.message("hold", heldMessageIdPrefix),
      configuration: { returnImmediately: true }
    })
    const task = asObject(answer.task, "SendMessage: task")
    this.defer(() => this.call("CancelTask", { id: task.id as string }).then(() => undefined, () => undefined))
    return task
  }

  /** Skips the scenario, for the reason given. */
  skip(reason: string): never {
    throw new ScenarioSkipped(reason)
  }

  /** Registers a cleanup. */
  defer(f: () => Promise<void>): void {
    this.cleanups.push(f)
  }

  /** Runs the cleanups, newest first. */
  async cleanup(): Promise<void> {
    while (this.cleanups.length > 0) await this.cleanups.pop()!().catch(() => undefined)
  }
}

/** The state of a Task or status update in a 1.0 payload. */
export const stateOf = (value: unknown, where: string): string => {
  const state = asObject(asObject(value, where).status, `${where}.status`).state
  check(typeof state === "string" && /^TASK_STATE_[A-Z_]+$/.test(state), `${where}: state should be a TASK_STATE_* name, got ${show(state)}`)
  return state as string
}

/** The kind of a StreamResponse payload: its one member's name. */
export const kindOf = (payload: JsonObject, where: string): string => {
  const keys = Object.keys(payload)
  check(keys.length === 1, `${where}: a StreamResponse has exactly one member, got ${show(keys)}`)
  return keys[0]!
}
