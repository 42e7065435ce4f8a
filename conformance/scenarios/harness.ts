import {
  asObject, check, expectEnvelope, expectKinds, expectRpcResult, expectTask, fail, show, type JsonObject
} from "./assert.ts"
import { describe, HttpClient, type CallOptions, type HttpReply, type RpcId } from "./http-client.ts"
import type { SseSession, StreamEvent } from "./sse-session.ts"

/**
 * The messageId prefix the official TCK uses for a task it resubscribes to while it runs; its
 * reference agent, like ours, keeps such a task working for at least 10 s. Scenarios that need a
 * task to stay live (to cancel, continue or resubscribe to it) start it with this prefix.
 */
export const heldMessageIdPrefix = "test-resubscribe-message-id"

/** Thrown by `t.skip`: the scenario does not apply to this server, for the stated reason. */
export class ScenarioSkipped extends Error {
  override readonly name = "ScenarioSkipped"
}

/** One black-box scenario: a name (unique, prefixed by its area) and its body. */
export interface Scenario {
  readonly name: string
  readonly run: (t: ScenarioContext) => Promise<void>
}

/** Declares a scenario. Scenario files export arrays of these; `run.ts` gathers them. */
export const scenario = (name: string, run: (t: ScenarioContext) => Promise<void>): Scenario => ({ name, run })

/** An open SSE response together with the request id it must echo. */
export interface StreamHandle {
  readonly session: SseSession
  readonly id: RpcId
}

/** What every scenario body receives: HTTP helpers bound to the server, plus A2A conveniences. */
export class ScenarioContext {
  private readonly cleanups: Array<() => Promise<void>> = []
  /** The plain HTTP client, for requests the helpers below do not cover. */
  readonly http: HttpClient

  constructor(
    /** The JSON-RPC endpoint under test. */
    readonly url: string,
    /** Per-request bound in milliseconds. */
    readonly timeoutMs: number,
    private readonly cardLoader: () => Promise<HttpReply>,
    /** The webhook URL used in push-notification configs (never contacted by the scenarios). */
    readonly webhookUrl: string
  ) {
    this.http = new HttpClient(url, timeoutMs)
  }

  /** The origin of the endpoint (where the well-known card lives). */
  get origin(): string {
    return new URL(this.url).origin
  }

  /** Sends a JSON-RPC request and returns the whole reply. */
  rpc(method: string, params?: unknown, options?: CallOptions): Promise<HttpReply> {
    return this.http.rpc(method, params, options)
  }

  /** Sends a raw body with the given Content-Type (`null` sends none). */
  raw(body: string | Uint8Array, contentType: string | null = "application/json", options?: { readonly headers?: Record<string, string>; readonly timeoutMs?: number; readonly method?: string }): Promise<HttpReply> {
    return this.http.raw(body, contentType, options)
  }

  /** Opens a streaming request; the session is closed automatically when the scenario ends. */
  async stream(method: string, params?: unknown, options?: CallOptions): Promise<StreamHandle> {
    const handle = await this.http.stream(method, params, options)
    this.defer(() => handle.session.close())
    return handle
  }

  /** The public agent card reply (fetched once per run from `/.well-known/agent-card.json`). */
  async cardReply(): Promise<HttpReply> {
    return this.cardLoader()
  }

  /** The public agent card, or a failure when it cannot be read. */
  async card(): Promise<JsonObject> {
    const reply = await this.cardLoader()
    check(reply.status === 200, `agent card: HTTP ${reply.status}`)
    return asObject(reply.body, "agent card")
  }

  /** Marks the scenario as not applicable, with the reason printed by the runner. */
  skip(reason: string): never {
    throw new ScenarioSkipped(reason)
  }

  /** Registers cleanup work that runs (bounded, errors ignored) after the scenario. */
  defer(fn: () => Promise<unknown>): void {
    this.cleanups.push(async () => {
      await fn()
    })
  }

  /** A user text message with a fresh messageId; `overrides` are merged on top. */
  message(text = "hello from the conformance scenarios", overrides: JsonObject = {}): JsonObject {
    return { kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text }], ...overrides }
  }

  /**
   * A user text message whose task stays live while the scenario uses it: its messageId starts with
   * {@link heldMessageIdPrefix}, which conformance agents keep working for at least 10 s.
   */
  heldMessage(text = "hello from the conformance scenarios", overrides: JsonObject = {}): JsonObject {
    return this.message(text, { messageId: `${heldMessageIdPrefix}-${crypto.randomUUID()}`, ...overrides })
  }

  /**
   * MessageSendParams that answer at once (`blocking: false`): a blocking send would only return
   * when the task ends, which for a held task is seconds away.
   */
  sendParams(message: JsonObject, configuration: JsonObject = {}): JsonObject {
    return { message, configuration: { blocking: false, ...configuration } }
  }

  /** Starts a live task with a {@link heldMessage}; it is canceled when the scenario ends. */
  async createTask(messageOverrides: JsonObject = {}): Promise<JsonObject> {
    const reply = await this.rpc("message/send", this.sendParams(this.heldMessage(undefined, messageOverrides)))
    const task = expectTask(expectRpcResult(reply, "message/send"), "message/send result")
    this.cancelLater(task.id as string)
    return task
  }

  /** Cancels the task after the scenario (ignoring the outcome) so servers do not accumulate work. */
  cancelLater(taskId: string): void {
    this.defer(() => this.rpc("tasks/cancel", { id: taskId }, { timeoutMs: Math.min(this.timeoutMs, 3000) }).catch(() => undefined))
  }

  /** Checks one SSE event is a single-line JSON-RPC response echoing `id`; returns the envelope. */
  expectEventEnvelope(event: StreamEvent | undefined, id: RpcId, where: string): JsonObject {
    if (event === undefined) return fail(`${where}: stream ended before this event`)
    check(event.dataLines === 1, `${where}: event has ${event.dataLines} data: lines, expected exactly one`)
    check(event.parseError === undefined, `${where}: event data is not JSON: ${show(event.data, 200)}`)
    const envelope = expectEnvelope(event.json, where)
    check(envelope.id === (id ?? null), `${where}: event id should echo the request id ${show(id)}, got ${show(envelope.id)}`)
    return envelope
  }

  /** Checks one SSE event is a successful response with a correctly kinded result; returns the result. */
  expectEventResult(event: StreamEvent | undefined, id: RpcId, where: string): JsonObject {
    const envelope = this.expectEventEnvelope(event, id, where)
    if ("error" in envelope) fail(`${where}: expected a result, got error ${show(envelope.error)}`)
    expectKinds(envelope.result, `${where}.result`)
    return envelope.result as JsonObject
  }

  /** Checks a streaming response is text/event-stream with HTTP 200. */
  expectSse(handle: StreamHandle, where: string): void {
    const s = handle.session
    check(s.status === 200, `${where}: expected HTTP 200, got ${s.status}`)
    check(/^text\/event-stream\b/i.test(s.contentType), `${where}: Content-Type should be text/event-stream, got "${s.contentType}"`)
  }

  /**
   * Expects a streaming request to be refused with `code`, either as a JSON-RPC error body
   * or as a JSON-RPC error event inside the SSE stream (followed by the end of the stream).
   */
  async expectStreamError(handle: StreamHandle, codes: ReadonlyArray<number>, where: string): Promise<JsonObject> {
    const s = handle.session
    let envelope: JsonObject
    if (/^text\/event-stream\b/i.test(s.contentType)) {
      check(s.status === 200, `${where}: SSE error stream should be HTTP 200, got ${s.status}`)
      envelope = this.expectEventEnvelope(await s.next(), handle.id, where)
      check(await s.waitForEnd(), `${where}: stream should end after the error event`)
    } else {
      check(s.status === 200, `${where}: JSON-RPC error should travel with HTTP 200, got ${s.status} (${s.contentType})`)
      const text = await s.readText()
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch (e) {
        return fail(`${where}: body is neither SSE nor JSON (${s.contentType}): ${show(text, 200)} ${describe(e)}`)
      }
      envelope = expectEnvelope(body, where)
      check(envelope.id === (handle.id ?? null), `${where}: id should echo ${show(handle.id)}, got ${show(envelope.id)}`)
    }
    if (!("error" in envelope)) fail(`${where}: expected error ${codes.join(" or ")}, got result ${show(envelope.result)}`)
    const error = envelope.error as JsonObject
    check(codes.includes(error.code as number), `${where}: expected error code ${codes.join(" or ")}, got ${error.code} (${show(error.message)})`)
    return error
  }

  /** Runs the registered cleanups, newest first, each bounded. */
  async cleanup(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      await Promise.race([fn().catch(() => undefined), new Promise((r) => setTimeout(r, this.timeoutMs))])
    }
    this.cleanups.length = 0
  }
}
