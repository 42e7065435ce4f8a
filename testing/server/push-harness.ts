/**
 * Test support (not shipped API): JSON-RPC calls through a server's Web handler, bounded polling,
 * the push options every push test shares, and reading what a webhook received.
 *
 * @module
 */
import { Effect } from "effect"
import type { Message, PushNotificationConfig, Task, TaskState } from "../../schemas/index.ts"
import type { AuditEvent } from "../../src/audit/audit-event.ts"
import type { MemoryAuditSink } from "../../src/audit/audit-sink.ts"
import type { ReceivedCall } from "../push/webhook-stub.ts"
import type { PushOptions } from "../../src/server/push-service.ts"

/** A JSON-RPC reply as the tests read it. */
export interface RpcReply {
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string }
}

/** Calls a JSON-RPC method through `handler`, with extra request headers (credentials). */
export type RpcCall = (method: string, params: unknown, headers?: Record<string, string>) => Promise<RpcReply>

/** A caller for the server's JSON-RPC endpoint at `/`, in process. */
export const rpcClient = (handler: (request: Request) => Promise<Response>): RpcCall => {
  let id = 0
  return async (method, params, headers = {}) => {
    const response = await handler(new Request("http://127.0.0.1/", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })
    }))
    if (response.status !== 200) throw new Error(`${method}: HTTP ${response.status} ${await response.text()}`)
    return (await response.json()) as RpcReply
  }
}

/** The result of a reply, or a thrown error naming the JSON-RPC error it carried instead. */
export const resultOf = <A>(reply: RpcReply): A => {
  if (reply.error !== undefined) throw new Error(`expected a result, got error ${reply.error.code}: ${reply.error.message}`)
  return reply.result as A
}

/** A user message, optionally continuing a task. */
export const userText = (text: string, taskId?: string): Message => ({
  kind: "message",
  messageId: crypto.randomUUID(),
  role: "user",
  parts: [{ kind: "text", text }],
  ...(taskId === undefined ? {} : { taskId })
})

/** `message/send` params, with an inline push config when given. */
export const sendParams = (text: string, options: { taskId?: string; push?: PushNotificationConfig } = {}) => ({
  message: userText(text, options.taskId),
  ...(options.push === undefined ? {} : { configuration: { pushNotificationConfig: options.push } })
})

/** The push options of these tests: loopback allowlisted, fast real-time retries, a known issuer. */
export const testIssuer = "http://agent.test"

/** See {@link testIssuer}. */
export const pushTestOptions = (extra: PushOptions = {}): PushOptions => ({
  allow: ["127.0.0.1/32"],
  retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 3 },
  issuer: testIssuer,
  ...extra
})

/**
 * Polls `done` every few milliseconds until it holds or `timeoutMs` passes (then throws with `what`).
 * For waiting on deliveries made in real time; ordering is asserted on what arrived, never on timing.
 */
export const waitUntil = async (done: () => boolean, what: string, timeoutMs = 5000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** The Task a webhook call carried. */
export const taskOfCall = (call: ReceivedCall): Task => JSON.parse(call.body) as Task

/** The task states of webhook calls, in arrival order (optionally only those to `path`). */
export const statesOf = (calls: ReadonlyArray<ReceivedCall>, path?: string): Array<TaskState> =>
  calls.filter((c) => path === undefined || c.path === path).map((c) => taskOfCall(c).status.state)

/** The audit events of a memory sink, oldest first. */
export const auditEvents = (sink: MemoryAuditSink): ReadonlyArray<AuditEvent> =>
  Effect.runSync(sink.snapshot).map((r) => r.event)

/** Audit events of one kind. */
export const auditOfKind = <K extends AuditEvent["kind"]>(
  sink: MemoryAuditSink,
  kind: K
): Array<Extract<AuditEvent, { kind: K }>> =>
  auditEvents(sink).filter((e): e is Extract<AuditEvent, { kind: K }> => e.kind === kind)

/**
 * A gate a webhook responder can wait on: `open` releases every waiter, `opened` is the promise.
 * Used to hold deliveries until the test has taken the step it wants to observe.
 */
export const gate = () => {
  let open: () => void = () => undefined
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open: () => open() }
}
