import { Result, Schema } from "effect"
import type { AnyStateMachine, EventFromLogic, EventObject } from "xstate"
import { describeParamsError } from "../../schemas/decode-request.ts"
import type { AgentExtension, Message } from "../../schemas/index.ts"

/**
 * One method of a workflow extension: the call's params (without `taskId`) to a machine event. A plain
 * function receives the params object as sent and may throw to refuse it (its message becomes the
 * InvalidParams message); {@link method} builds one whose params a Schema checks first.
 */
export type ExtensionMethod<TEvent> = (params: Readonly<Record<string, unknown>>) => TEvent

/** A method built by {@link method}: also callable, it then throws on bad params. */
export type SchemaMethod<TEvent> = ExtensionMethod<TEvent> & {
  readonly decode: (params: unknown) => Result.Result<TEvent, string>
  /** The params' schema, published in the card as JSON Schema. */
  readonly paramsSchema: Schema.Top
}

/**
 * A machine seen through the events it accepts. The methods' event type is inferred from what they return
 * (keeping literal `type`s) and this checks that the machine accepts every one of them.
 */
type Accepting<TEvent> = { readonly transition: (snapshot: any, event: TEvent, ...rest: Array<any>) => unknown }

/** Options of {@link extension}; `TEvent` is the union of the methods' events. */
export interface ExtensionOptions<TMachine extends AnyStateMachine, TEvent extends EventObject = EventFromLogic<TMachine>> {
  /** The extension's identifier, declared in the card and activated with `X-A2A-Extensions`. */
  readonly uri: string
  /** Prefix of the JSON-RPC methods: `{namespace}/{action}`. */
  readonly namespace: string
  /** The machine whose events the methods produce (also used to tell whether an event applies). */
  readonly machine: TMachine & Accepting<TEvent>
  readonly methods: Readonly<Record<string, ExtensionMethod<TEvent>>>
  readonly description?: string
  readonly required?: boolean
  /**
   * Published as the declaration's `params`; the method names are added under `methods`, and the JSON Schema
   * of each one's params (`taskId` included) under `methodParams`.
   */
  readonly params?: Readonly<Record<string, unknown>>
  /** Whether a call waits until the task settles again (input-required or terminal). Default true. */
  readonly blocking?: boolean
}

/** A workflow extension: its card declaration and methods that turn calls into the machine's events. */
export interface WorkflowExtension<TMachine extends AnyStateMachine = AnyStateMachine> {
  readonly uri: string
  readonly namespace: string
  readonly machine: TMachine
  /** For the card's `capabilities.extensions`. */
  readonly declaration: AgentExtension
  /** The JSON-RPC method names, `{namespace}/{action}`. */
  readonly methodNames: ReadonlyArray<string>
  readonly blocking: boolean
  /** The event for a call of `action` with `params`, or why there is none (unknown action, bad params). */
  readonly decode: (action: string, params: unknown) => Result.Result<EventObject, string>
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A method with Schema-checked params. Failures name the failing path, as the core methods' do.
 *
 * @example
 * reject: Workflow.method(Schema.Struct({ reason: Schema.NonEmptyString }), (p) => ({ type: "review.reject", reason: p.reason }))
 */
export const method = <A, I, const TEvent extends { readonly type: string }>(
  params: Schema.Codec<A, I>,
  toEvent: (params: A) => TEvent
): SchemaMethod<TEvent> => {
  const decodeParams = Schema.decodeUnknownResult(params)
  const decode = (u: unknown): Result.Result<TEvent, string> =>
    Result.match(decodeParams(u), {
      onFailure: (error: Schema.SchemaError) => Result.fail(describeParamsError(error).message.replace(/^Invalid params: /, "")),
      onSuccess: (a) => Result.succeed(toEvent(a))
    })
  const call = (u: Readonly<Record<string, unknown>>): TEvent =>
    Result.getOrThrowWith(decode(u), (message) => new Error(message))
  return Object.assign(call, { decode, paramsSchema: params })
}

type JsonSchema = Readonly<Record<string, unknown>>

const taskIdParams: JsonSchema = { type: "object", properties: { taskId: { type: "string" } }, required: ["taskId"] }

/**
 * The JSON Schema of a method's params as a client sends them: `taskId` and, for a {@link method}, what its
 * Schema checks. A plain function's own params are not known, so only `taskId` is described.
 */
const paramsJsonSchema = (m: ExtensionMethod<unknown>): JsonSchema => {
  if (!("paramsSchema" in m)) return taskIdParams
  let document: { readonly schema: JsonSchema; readonly definitions: JsonSchema }
  try {
    document = Schema.toJsonSchemaDocument((m as SchemaMethod<unknown>).paramsSchema) as typeof document
  } catch {
    return taskIdParams
  }
  const { schema, definitions } = document
  const defs = Object.keys(definitions).length === 0 ? {} : { $defs: definitions }
  if (schema["type"] !== "object" || !isRecord(schema["properties"])) return { allOf: [taskIdParams, schema], ...defs }
  const required = Array.isArray(schema["required"]) ? schema["required"] : []
  return {
    ...schema,
    properties: { taskId: { type: "string" }, ...schema["properties"] },
    required: ["taskId", ...required.filter((name) => name !== "taskId")],
    ...defs
  }
}

/**
 * Describes an A2A method extension over a workflow machine: the declaration for the agent card and
 * `{namespace}/{action}` JSON-RPC methods whose params (`taskId` plus the method's own) become an event of
 * that task's machine. Pass it to `Workflow.toAgent({ extensions })`; the server routes the methods with
 * `Workflow.router(runtime)`.
 *
 * @example
 * import { Result, Schema } from "effect"
 * import { Workflow } from "a2a-actors"
 * import { approvalMachine } from "a2a-actors/machines"
 *
 * // Methods return the machine's events; TypeScript checks the machine accepts each one.
 * export const approval = Workflow.extension({
 *   uri: "https://example.com/ext/approval/v1",
 *   namespace: "approval",
 *   machine: approvalMachine,
 *   description: "Review drafts with approval/approve, approval/reject and approval/revise",
 *   methods: {
 *     approve: () => ({ type: "review.approve" }),
 *     reject: Workflow.method(Schema.Struct({ reason: Schema.NonEmptyString }), ({ reason }) =>
 *       ({ type: "review.reject", reason })),
 *     revise: Workflow.method(Schema.Struct({ comment: Schema.NonEmptyString }), ({ comment }) =>
 *       ({ type: "review.revise", comment }))
 *   }
 * })
 * // Declared in the card by Workflow.toAgent({ ..., extensions: [approval] }); the server routes the
 * // methods with Workflow.router(runtime). A client then calls, on a task waiting for review:
 * //   POST /  X-A2A-Extensions: https://example.com/ext/approval/v1
 * //   { "jsonrpc": "2.0", "id": 1, "method": "approval/revise",
 * //     "params": { "taskId": "…", "comment": "add the date" } }
 * // -> result: the Task once it waits again (input-required with draft 2) or has ended.
 * // Bad params -> -32602 naming the field; unknown or foreign task -> -32001.
 */
export const extension = <TMachine extends AnyStateMachine, const TEvent extends EventObject>(
  options: ExtensionOptions<TMachine, TEvent>
): WorkflowExtension<TMachine> => {
  const actions = new Map(Object.entries(options.methods))
  const methodNames = [...actions.keys()].map((action) => `${options.namespace}/${action}`)
  const declaration: AgentExtension = {
    uri: options.uri,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.required === undefined ? {} : { required: options.required }),
    params: {
      ...options.params,
      methods: methodNames,
      methodParams: Object.fromEntries([...actions].map(([action, m]) => [`${options.namespace}/${action}`, paramsJsonSchema(m)]))
    }
  }
  return {
    uri: options.uri,
    namespace: options.namespace,
    machine: options.machine,
    declaration,
    methodNames,
    blocking: options.blocking ?? true,
    decode: (action, params) => {
      const m = actions.get(action)
      if (m === undefined) return Result.fail(`unknown method ${options.namespace}/${action}`)
      const args = params === undefined ? {} : params
      if (!isRecord(args)) return Result.fail("params must be an object")
      if ("decode" in m && typeof m.decode === "function") return (m as SchemaMethod<TEvent>).decode(args)
      try {
        return Result.succeed<EventObject>(m(args))
      } catch (e) {
        return Result.fail(e instanceof Error ? e.message : String(e))
      }
    }
  }
}

/** A call of an extension method carried by a user message: `metadata[uri] = { method, params }`. */
export interface ExtensionCall {
  readonly method: string
  readonly params: unknown
}

/** The extension call a message carries, with the extension that declares it. */
export const callOf = (
  message: Message,
  extensions: ReadonlyArray<WorkflowExtension>
): { readonly extension: WorkflowExtension; readonly call: ExtensionCall } | undefined => {
  const metadata = message.metadata
  if (metadata === undefined) return undefined
  for (const ext of extensions) {
    const call = Object.hasOwn(metadata, ext.uri) ? metadata[ext.uri] : undefined
    if (isRecord(call) && typeof call["method"] === "string") return { extension: ext, call: { method: call["method"], params: call["params"] } }
  }
  return undefined
}
