/**
 * The load client: A2A requests over `node:http` (or `node:https`) with a keep-alive pool, which Node, Bun
 * and Deno all provide, and every answer checked before it counts. One request of each workload:
 *
 * - `sendOnce`: a blocking `message/send`; the answer must be a Message or a Task that finished (completed,
 *   or waiting for input or auth), not one still working or one that failed.
 * - `streamOnce`: a `message/stream` read to its end through `StreamCheck`.
 * - `resubscribeOnce`: a `message/stream` cut after some events, resumed with `tasks/resubscribe` and
 *   `Last-Event-ID`; the ids must continue without a gap or a repeat and the whole must pass the checks.
 *
 * Speaks A2A 0.3 or 1.0 (`A2A-Version: 1.0` on every request, 1.0's method names, routes and ProtoJSON
 * bodies written by `schemas/v1`), over JSON-RPC (to the card's endpoint) or REST (`v1/...` in 0.3, the 1.0
 * routes in 1.0, under the card's HTTP+JSON interface).
 *
 * @module
 */
import { randomUUID } from "node:crypto"
import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import type { Message } from "../../schemas/message.ts"
import type { MessageSendParams } from "../../schemas/params.ts"
import { fromRest } from "../../schemas/rest/from-rest.ts"
import { toRest } from "../../schemas/rest/to-rest.ts"
import { fromV1State, type TaskState, taskStateNames } from "../../schemas/v1/enums.ts"
import { sendMessageRequestJson, subscribeToTaskRequestJson } from "../../schemas/v1/request-json.ts"
import { type BenchTransport, type BenchVersion, type OutcomeError, type RequestOutcome, tooShortToCut } from "./outcome.ts"
import { StreamCheck, type StreamCheckOptions } from "./stream-check.ts"
import { connectionPools } from "./internal/connection-pool.ts"

/** How to reach the agent. */
export interface TargetOptions {
  /** Default JSON-RPC. */
  readonly transport?: BenchTransport
  /** Default 0.3 (no `A2A-Version` header, as a 0.3 client sends). */
  readonly version?: BenchVersion
  /** The tenant of a 1.0 interface: in every JSON-RPC request, first in every REST path. */
  readonly tenant?: string
  /** Keep-alive connections in the pool. */
  readonly connections: number
  /** Sent with every request (authentication, ...). */
  readonly headers?: Readonly<Record<string, string>>
  /** Accept a TLS certificate that does not verify (self-signed). */
  readonly insecure?: boolean
  /** Each request (a whole stream) ends with a `timeout` failure after this long; none when absent. */
  readonly timeoutMs?: number
}

/** An endpoint with its own connection pool. */
export interface Target {
  /** The JSON-RPC endpoint, or the REST base (ending in `/`). */
  readonly endpoint: URL
  readonly transport: BenchTransport
  readonly version: BenchVersion
  /** Closes the pooled connections. */
  readonly close: () => void
  /** @internal */
  readonly options: TargetOptions
}


/** A message to send: any A2A Message; `messageId` is replaced on every request. */
export type MessageTemplate = Omit<Message, "messageId"> & { readonly messageId?: string }

/** A pool of up to `options.connections` keep-alive connections to `endpoint`. */
export const makeTarget = (endpoint: string | URL, options: TargetOptions): Target => {
  const transport = options.transport ?? "JSONRPC"
  const url = new URL(endpoint)
  if (transport === "HTTP+JSON" && !url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`
  if (transport === "HTTP+JSON" && options.version === "1.0" && options.tenant !== undefined) url.pathname = `${url.pathname}${encodeURIComponent(options.tenant)}/`
  const pool = { keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections }
  const agent = url.protocol === "https:" ? new HttpsAgent({ ...pool, rejectUnauthorized: options.insecure !== true }) : new HttpAgent(pool)
  const version = options.version ?? "0.3"
  const headers = version === "1.0" ? { ...options.headers, "a2a-version": "1.0" } : options.headers
  const target: Target = { endpoint: url, transport, version, options: { ...options, ...(headers === undefined ? {} : { headers }) }, close: () => agent.destroy() }
  connectionPools.set(target, agent)
  return target
}

/** A text message template. */
export const textMessage = (text: string): MessageTemplate => ({ kind: "message", role: "user", parts: [{ kind: "text", text }] })

let nextId = 1

const fresh = (message: MessageTemplate): Message => ({ ...message, messageId: randomUUID() }) as Message

/**
 * The path and body of `message/send` (blocking) or `message/stream`. 1.0 sends blocking by default
 * (`returnImmediately` false), so its request carries no configuration.
 */
const messageRequest = (target: Target, method: "message/send" | "message/stream", message: MessageTemplate) => {
  if (target.version === "1.0") {
    const params = sendMessageRequestJson({ message: fresh(message) }, target.transport === "JSONRPC" ? target.options.tenant : undefined)
    if (target.transport === "HTTP+JSON") {
      return { path: `${target.endpoint.pathname}${method === "message/send" ? "message:send" : "message:stream"}`, body: params }
    }
    const name = method === "message/send" ? "SendMessage" : "SendStreamingMessage"
    return { path: target.endpoint.pathname, body: `{"jsonrpc":"2.0","id":${nextId++},"method":"${name}","params":${params}}` }
  }
  const params: MessageSendParams = {
    message: fresh(message),
    ...(method === "message/send" ? { configuration: { blocking: true } } : {})
  }
  if (target.transport === "HTTP+JSON") {
    const route = method === "message/send" ? "v1/message:send" : "v1/message:stream"
    return { path: `${target.endpoint.pathname}${route}`, body: JSON.stringify(toRest.sendMessageRequest(params)) }
  }
  return { path: target.endpoint.pathname, body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }) }
}

/** The path and body of a resubscription to `taskId`. */
const resubscribeRequest = (target: Target, taskId: string) => {
  const v1 = target.version === "1.0"
  if (target.transport === "HTTP+JSON") return { path: `${target.endpoint.pathname}${v1 ? "" : "v1/"}tasks/${encodeURIComponent(taskId)}:subscribe`, body: "" }
  return v1
    ? { path: target.endpoint.pathname, body: `{"jsonrpc":"2.0","id":${nextId++},"method":"SubscribeToTask","params":${subscribeToTaskRequestJson({ id: taskId }, target.options.tenant)}}` }
    : { path: target.endpoint.pathname, body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tasks/resubscribe", params: { id: taskId } }) }
}

interface Exchange {
  readonly onResponse: (res: IncomingMessage) => void
  readonly onError: (error: OutcomeError) => void
}

const transportError = (e: Error & { code?: unknown }): OutcomeError =>
  typeof e.code === "string" ? { kind: `transport: ${e.code}`, message: e.message } : { kind: "transport", message: e.message }

/** Sends one POST; returns a function that aborts it. */
const post = (
  target: Target,
  request: { readonly path: string; readonly body: string },
  accept: string,
  extraHeaders: Readonly<Record<string, string>>,
  exchange: Exchange
): (() => void) => {
  const send = target.endpoint.protocol === "https:" ? httpsRequest : httpRequest
  const req = send({
    protocol: target.endpoint.protocol,
    hostname: target.endpoint.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: target.endpoint.port === "" ? undefined : Number(target.endpoint.port),
    path: request.path,
    method: "POST",
    agent: connectionPools.get(target),
    headers: {
      ...target.options.headers,
      ...extraHeaders,
      accept,
      ...(request.body === "" ? {} : { "content-type": "application/json" }),
      "content-length": Buffer.byteLength(request.body)
    }
  }, exchange.onResponse)
  req.on("error", (e) => exchange.onError(transportError(e)))
  req.end(request.body)
  return () => req.destroy()
}

/** Settles a request once: the first verdict wins, the timer is cleared. */
const settle = (target: Target, abort: () => (() => void) | undefined, resolve: (verdict: OutcomeError | undefined) => void) => {
  let done = false
  const timeoutMs = target.options.timeoutMs
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
    finish({ kind: "timeout", message: `no complete answer within ${timeoutMs} ms` })
    abort()?.()
  }, timeoutMs)
  const finish = (verdict: OutcomeError | undefined) => {
    if (done) return
    done = true
    if (timer !== undefined) clearTimeout(timer)
    resolve(verdict)
  }
  return finish
}

const MAX_ERROR_BODY = 64 * 1024

/** Reads a body that is not the expected answer, to say what it was. */
const refused = (target: Target, res: IncomingMessage, expected: string, done: (e: OutcomeError) => void) => {
  const parts: Array<Buffer> = []
  let size = 0
  res.on("data", (b: Buffer) => {
    if (size < MAX_ERROR_BODY) parts.push(b)
    size += b.length
  })
  res.on("error", (e) => done(transportError(e)))
  res.on("end", () => {
    const text = Buffer.concat(parts).toString("utf8")
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const status = res.statusCode ?? 0
    const rpc = target.transport === "JSONRPC" && isRecord(json) ? json["error"] : undefined
    if (isRecord(rpc)) return done({ kind: `JSON-RPC ${String(rpc["code"])}`, message: String(rpc["message"] ?? text).slice(0, 300) })
    // A 0.3 REST error is `{ code, message }`, a 1.0 one a google.rpc.Status `{ error: { code, status, message } }`.
    const body = isRecord(json) && isRecord(json["error"]) ? json["error"] : json
    const described = isRecord(body) && body["code"] !== undefined ? `error ${String(body["code"])}: ${String(body["message"] ?? "")}` : text.slice(0, 200)
    if (status < 200 || status > 299) return done({ kind: `HTTP ${status}`, message: described })
    done({ kind: "validation: not an answer", message: `expected ${expected}, got ${res.headers["content-type"] ?? "no content type"}: ${described}` })
  })
}

const isRecord = (u: unknown): u is { readonly [key: string]: unknown } => typeof u === "object" && u !== null && !Array.isArray(u)

/** `application/json`, or 1.0's `application/a2a+json` (spec 1.0.1 §11.1). */
const JSON_TYPE = /^application\/(a2a\+)?json\b/i

const ACCEPTED_SEND_STATES = new Set(["completed", "input-required", "auth-required"])

const ACCEPTED_V1_STATES = new Set(["TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"])

/** The verdict on a 1.0 `SendMessageResponse`: exactly one of `task` and `message`, a task that finished. */
const judgeV1SendResult = (result: unknown): OutcomeError | undefined => {
  const shown = () => JSON.stringify(result)?.slice(0, 200)
  if (!isRecord(result) || (result["task"] === undefined) === (result["message"] === undefined)) {
    return { kind: "validation: not a task or message", message: `the answer is not a 1.0 SendMessageResponse ({task} or {message}): ${shown()}` }
  }
  if (isRecord(result["message"])) return undefined
  const task = result["task"]
  const status = isRecord(task) ? task["status"] : undefined
  const state = isRecord(status) ? status["state"] : undefined
  if (!isRecord(task) || typeof task["id"] !== "string" || typeof state !== "string") {
    return { kind: "validation: not a task or message", message: `the answer's task is not a 1.0 Task: ${shown()}` }
  }
  if (ACCEPTED_V1_STATES.has(state)) return undefined
  // Named as the model names states, so that a failure reads the same in both versions.
  const named = (taskStateNames as ReadonlyArray<string>).includes(state) ? fromV1State(state as TaskState) : state
  if (named === "submitted" || named === "working") {
    return { kind: "validation: not finished", message: `the blocking send answered with the task still ${named}` }
  }
  return { kind: "validation: final state", message: `the task ended ${named}` }
}

/** The verdict on the result of a blocking send. */
const judgeSendResult = (result: unknown): OutcomeError | undefined => {
  if (!isRecord(result)) return { kind: "validation: not a task or message", message: `the answer is ${JSON.stringify(result)?.slice(0, 200)}` }
  if (result["kind"] === "message") return undefined
  if (result["kind"] !== "task" || typeof result["id"] !== "string") {
    return { kind: "validation: not a task or message", message: `the answer is neither a Task nor a Message: ${JSON.stringify(result).slice(0, 200)}` }
  }
  const status = result["status"]
  const state = isRecord(status) ? status["state"] : undefined
  if (typeof state === "string" && ACCEPTED_SEND_STATES.has(state)) return undefined
  if (state === "submitted" || state === "working") {
    return { kind: "validation: not finished", message: `the blocking send answered with the task still ${state}` }
  }
  return { kind: "validation: final state", message: `the task ended ${String(state)}` }
}

/** One blocking `message/send`. */
export const sendOnce = (target: Target, message: MessageTemplate): Promise<RequestOutcome> =>
  new Promise((resolve) => {
    const start = performance.now()
    let bytes = 0
    let abort: (() => void) | undefined
    const done = settle(target, () => abort, (error) =>
      resolve({ ok: error === undefined, ...(error === undefined ? {} : { error }), startMs: start, latencyMs: performance.now() - start, events: 0, chunks: 0, bytes }))
    abort = post(target, messageRequest(target, "message/send", message), "application/json", {}, {
      onError: done,
      onResponse: (res) => {
        const type = res.headers["content-type"] ?? ""
        const status = res.statusCode ?? 0
        if (status < 200 || status > 299 || !JSON_TYPE.test(type)) return refused(target, res, "a JSON answer", done)
        const parts: Array<Buffer> = []
        res.on("data", (b: Buffer) => {
          bytes += b.length
          parts.push(b)
        })
        res.on("error", (e) => done(transportError(e)))
        res.on("end", () => {
          const text = Buffer.concat(parts).toString("utf8")
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            return done({ kind: "validation: not JSON", message: text.slice(0, 200) })
          }
          const judge = target.version === "1.0" ? judgeV1SendResult : judgeSendResult
          if (target.transport === "HTTP+JSON") return done(target.version === "1.0" ? judge(json) : judge(fromRest.sendResponse(json)))
          if (!isRecord(json)) return done({ kind: "validation: not JSON-RPC", message: text.slice(0, 200) })
          const error = json["error"]
          if (isRecord(error)) return done({ kind: `JSON-RPC ${String(error["code"])}`, message: String(error["message"] ?? "").slice(0, 300) })
          done(judge(json["result"]))
        })
      }
    })
  })

/** Reads one SSE connection into `check`; `cut` (checked after each piece) ends it early. */
const readStream = (
  target: Target,
  request: { readonly path: string; readonly body: string },
  headers: Readonly<Record<string, string>>,
  check: StreamCheck,
  cut: () => boolean,
  done: (verdict: { readonly error?: OutcomeError; readonly cut: boolean; readonly bytes: number }) => void,
  setAbort: (abort: () => void) => void
) => {
  let bytes = 0
  let settled = false
  const end = (verdict: { readonly error?: OutcomeError; readonly cut: boolean }) => {
    if (settled) return
    settled = true
    done({ ...verdict, bytes })
  }
  setAbort(post(target, request, "text/event-stream", headers, {
    onError: (error) => end({ error, cut: false }),
    onResponse: (res) => {
      const type = res.headers["content-type"] ?? ""
      if (res.statusCode !== 200 || !type.startsWith("text/event-stream")) {
        return refused(target, res, "an SSE stream", (error) => end({ error, cut: false }))
      }
      res.on("data", (b: Buffer) => {
        if (settled) return
        bytes += b.length
        check.feed(b.toString("latin1"))
        if (check.failure !== undefined || cut()) {
          end({ cut: true })
          res.destroy()
        }
      })
      res.on("end", () => end({ cut: false }))
      res.on("error", (e) => end({ error: transportError(e), cut: false }))
    }
  }))
}

/** One `message/stream` read to its end and checked. */
export const streamOnce = (target: Target, message: MessageTemplate, checks: StreamCheckOptions = {}): Promise<RequestOutcome> =>
  new Promise((resolve) => {
    const start = performance.now()
    const check = new StreamCheck(target.transport, checks, undefined, target.version)
    let bytes = 0
    let abort: (() => void) | undefined
    const done = settle(target, () => abort, (error) => {
      const verdict = error ?? check.failure ?? check.finish()
      resolve(outcome(start, verdict, check, bytes))
    })
    readStream(target, messageRequest(target, "message/stream", message), {}, check, () => false, (v) => {
      bytes = v.bytes
      done(v.error)
    }, (a) => (abort = a))
  })

const outcome = (start: number, error: OutcomeError | undefined, check: StreamCheck, bytes: number): RequestOutcome => ({
  ok: error === undefined,
  ...(error === undefined ? {} : { error }),
  startMs: start,
  latencyMs: performance.now() - start,
  ...(check.firstEventAt < 0 ? {} : { firstEventMs: check.firstEventAt - start }),
  events: check.events,
  chunks: check.chunks,
  bytes
})

/**
 * One `message/stream` cut after `dropAfter` events and resumed with `tasks/resubscribe` and
 * `Last-Event-ID`: the SSE ids must continue without a gap or a repeat and the joined stream must pass
 * every check.
 */
export const resubscribeOnce = (
  target: Target,
  message: MessageTemplate,
  dropAfter: number,
  checks: StreamCheckOptions = {}
): Promise<RequestOutcome> =>
  new Promise((resolve) => {
    const start = performance.now()
    const check = new StreamCheck(target.transport, { ...checks, consecutiveIds: true }, undefined, target.version)
    let bytes = 0
    let abort: (() => void) | undefined
    const done = settle(target, () => abort, (error) => {
      const verdict = error ?? check.failure ?? check.finish()
      resolve(outcome(start, verdict, check, bytes))
    })
    check.cutAfter = dropAfter
    const cut = () => check.wasCut
    readStream(target, messageRequest(target, "message/stream", message), {}, check, cut, (first) => {
      bytes += first.bytes
      if (first.error !== undefined || check.failure !== undefined) return done(first.error)
      if (!first.cut) {
        return done({ kind: "validation: ended before the cut", message: tooShortToCut(check.events, dropAfter) })
      }
      const taskId = check.taskId
      const lastId = check.lastEventId
      if (taskId === undefined) return done({ kind: "validation: no task", message: "the stream was cut before it named its task" })
      if (lastId === undefined) return done({ kind: "validation: no event ids", message: "the server sends no SSE ids, so a stream cannot resume with Last-Event-ID" })
      check.resume()
      readStream(target, resubscribeRequest(target, taskId), { "last-event-id": lastId }, check, () => false, (second) => {
        bytes += second.bytes
        done(second.error)
      }, (a) => (abort = a))
    }, (a) => (abort = a))
  })

/**
 * A task's stream read from after `lastEventId` (`tasks/resubscribe` with `Last-Event-ID`; "0" replays it
 * from its first event) to its end, checked, with consecutive ids. Latency runs from `start` (default: now),
 * so a caller that first started the task elsewhere can count that too.
 */
export const resumeOnce = (
  target: Target,
  taskId: string,
  lastEventId: string,
  checks: StreamCheckOptions = {},
  start: number = performance.now()
): Promise<RequestOutcome> =>
  new Promise((resolve) => {
    const check = new StreamCheck(target.transport, { ...checks, consecutiveIds: true }, undefined, target.version)
    let bytes = 0
    let abort: (() => void) | undefined
    const done = settle(target, () => abort, (error) => {
      const verdict = error ?? check.failure ?? check.finish()
      resolve(outcome(start, verdict, check, bytes))
    })
    readStream(target, resubscribeRequest(target, taskId), { "last-event-id": lastEventId }, check, () => false, (v) => {
      bytes = v.bytes
      done(v.error)
    }, (a) => (abort = a))
  })

/** What a GET of a JSON document gave. */
export type JsonFetch =
  | { readonly _tag: "Json"; readonly json: unknown }
  | { readonly _tag: "Status"; readonly status: number }
  | { readonly _tag: "NotJson"; readonly text: string }
  | { readonly _tag: "Failed"; readonly error: OutcomeError }

/** GETs `url` as JSON (the agent card), over the same `node:http(s)` as the load, with `headers`. */
export const getJson = (
  url: string,
  options: { readonly headers?: Readonly<Record<string, string>>; readonly insecure?: boolean; readonly timeoutMs: number }
): Promise<JsonFetch> =>
  new Promise((resolve) => {
    const u = new URL(url)
    const get = u.protocol === "https:" ? httpsRequest : httpRequest
    const req = get(u, { method: "GET", headers: { ...options.headers, accept: "application/json" }, ...(u.protocol === "https:" ? { rejectUnauthorized: options.insecure !== true } : {}) }, (res) => {
      const parts: Array<Buffer> = []
      let size = 0
      res.on("data", (b: Buffer) => {
        size += b.length
        if (size <= 4 * 1024 * 1024) parts.push(b)
        else res.destroy(new Error("the card is larger than 4 MiB"))
      })
      res.on("error", (e) => resolve({ _tag: "Failed", error: transportError(e) }))
      res.on("end", () => {
        clearTimeout(timer)
        const status = res.statusCode ?? 0
        if (status < 200 || status > 299) return resolve({ _tag: "Status", status })
        const text = Buffer.concat(parts).toString("utf8")
        try {
          resolve({ _tag: "Json", json: JSON.parse(text) })
        } catch {
          resolve({ _tag: "NotJson", text: text.slice(0, 200) })
        }
      })
    })
    const timer = setTimeout(() => {
      resolve({ _tag: "Failed", error: { kind: "timeout", message: `no answer within ${options.timeoutMs} ms` } })
      req.destroy()
    }, options.timeoutMs)
    req.on("error", (e) => {
      clearTimeout(timer)
      resolve({ _tag: "Failed", error: transportError(e) })
    })
    req.end()
  })
