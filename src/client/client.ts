/**
 * `A2AClient`: the Effect API of the client. Every method of the method table is reachable through the
 * generic `call` / `stream` and through a named method generated from one name table, so no method is
 * spelled twice. The wire binding (JSON-RPC or REST) is a `ClientTransport` chosen once, from the card or
 * by option; retries and stream resumption are the same for both.
 *
 * @module
 */
import { Effect, Schedule, Schema, type Stream } from "effect"
import type { AgentCard } from "../../schemas/agent-card.ts"
import type { InvalidAgentResponse } from "../../schemas/error-catalogue.ts"
import type { StreamResult } from "../../schemas/events.ts"
import type { ListTasksParams, ListTasksResult } from "../../schemas/list-tasks.ts"
import type { Message } from "../../schemas/message.ts"
import { type MethodName, type MethodParams, type MethodResult, methods } from "../../schemas/methods.ts"
import type { MessageSendParams } from "../../schemas/params.ts"
import {
  type CardInterface,
  cardInterfaces,
  type ChosenInterface,
  type DiscoveredCard,
  discoverCard,
  pickInterface,
  selectInterface
} from "./discovery.ts"
import { type A2AClientError, A2AClientTransportError } from "./errors.ts"
import { activating, extensionFor } from "./extension-activation.ts"
import type { ClientInterceptor } from "./interceptors.ts"
import { jsonRpcTransport, type RpcConfig, rpcCall } from "./json-rpc-transport.ts"
import { jsonRpcV1Transport } from "./json-rpc-v1-transport.ts"
import { restTransport } from "./rest-transport.ts"
import { restV1Transport } from "./rest-v1-transport.ts"
import { isResumable, type ResumePolicy, withResume } from "./resume.ts"
import type { ClientTransport, ProtocolVersion, StreamingMethod, TransportChoice, TransportProtocol, UnaryMethod, VersionChoice } from "./transport.ts"

export type { ProtocolVersion, StreamingMethod, TransportChoice, TransportProtocol, UnaryMethod, VersionChoice } from "./transport.ts"

/** Per-call settings. */
export interface CallOptions {
  /** Extra headers for this call only. */
  readonly headers?: Readonly<Record<string, string>>
  /** Overrides the client's `timeoutMs` for this call. */
  readonly timeoutMs?: number
}

/** The arguments of a call: params may be left out when the method takes none. */
export type CallArgs<M extends MethodName> = undefined extends MethodParams<M>
  ? [params?: MethodParams<M>, options?: CallOptions]
  : [params: MethodParams<M>, options?: CallOptions]

/** The named shortcut of each method. Adding a method to the table without a name here fails to compile. */
export const methodNames = {
  sendMessage: "message/send",
  streamMessage: "message/stream",
  getTask: "tasks/get",
  cancelTask: "tasks/cancel",
  resubscribe: "tasks/resubscribe",
  setPushConfig: "tasks/pushNotificationConfig/set",
  getPushConfig: "tasks/pushNotificationConfig/get",
  listPushConfigs: "tasks/pushNotificationConfig/list",
  deletePushConfig: "tasks/pushNotificationConfig/delete",
  getAuthenticatedExtendedCard: "agent/getAuthenticatedExtendedCard"
} as const satisfies Record<string, MethodName>

type Unnamed = Exclude<MethodName, (typeof methodNames)[keyof typeof methodNames]>
const everyMethodNamed: [Unnamed] extends [never] ? true : Unnamed = true
void everyMethodNamed

/** The named methods, typed from the method table. */
export type A2AClientMethods = {
  readonly [K in keyof typeof methodNames]: (typeof methodNames)[K] extends StreamingMethod
    ? (...args: CallArgs<(typeof methodNames)[K]>) => Stream.Stream<StreamResult, A2AClientError>
    : (...args: CallArgs<(typeof methodNames)[K]>) => Effect.Effect<MethodResult<(typeof methodNames)[K]>, A2AClientError>
}

/**
 * A client bound to one agent.
 *
 * @example
 * ```ts
 * const program = Effect.gen(function*() {
 *   const client = yield* A2AClient.make({ url: "http://127.0.0.1:8080" })
 *   const task = yield* client.sendMessage(userText("hello"))
 *   yield* client.streamMessage(userText("count")).pipe(Stream.runForEach(Console.log))
 *   return yield* client.call("tasks/get", { id: "t-1" })
 * })
 * ```
 */
export interface A2AClient extends A2AClientMethods {
  /** The agent card, when the client was made from a URL or a card (a 1.0 card as the model's, see `cardFromV1`). */
  readonly card: AgentCard | undefined
  /** The interfaces the card lists, preferred first, each with its A2A version; empty without a card. */
  readonly interfaces: ReadonlyArray<CardInterface>
  /**
   * Where calls go: the JSON-RPC endpoint, or the REST base URL (ending in `/`; 0.3 appends `v1/...`, 1.0
   * its routes, after the tenant when the interface names one).
   */
  readonly endpoint: string
  /** The binding calls use. */
  readonly transport: TransportProtocol
  /** The A2A version every call speaks (sent as `A2A-Version`). */
  readonly protocolVersion: ProtocolVersion
  /**
   * `ListTasks`: one page of the caller's tasks, newest status first, filtered by `contextId`, `status`,
   * `statusTimestampAfter`; the next page with `pageToken: page.nextPageToken` until it is `""`. An A2A 1.0
   * operation: over 0.3 it fails with UnsupportedOperation, without a request.
   */
  readonly listTasks: (params?: ListTasksParams, options?: CallOptions) => Effect.Effect<ListTasksResult, A2AClientError>
  /** Calls a unary method of the method table. */
  readonly call: <M extends UnaryMethod>(method: M, ...args: CallArgs<M>) => Effect.Effect<MethodResult<M>, A2AClientError>
  /** Opens a streaming method of the method table, resuming it if the connection drops. */
  readonly stream: <M extends StreamingMethod>(method: M, ...args: CallArgs<M>) => Stream.Stream<MethodResult<M>, A2AClientError>
  /**
   * Calls an extension method (`{namespace}/{action}`) the agent's card declares through an
   * extension, and activates that extension for the call: its URI joins the extensions header
   * (`A2A-Extensions` in 1.0, `X-A2A-Extensions` in 0.3), merged with the URIs the client's or the call's
   * headers already ask for. The URI is `options.extension`, else the
   * card's declaration whose `params.methods` lists the method (or another of its namespace); without
   * either (e.g. a client made from a bare endpoint) the call goes out as given. The result is decoded
   * with `options.result` (default: any JSON value). Always JSON-RPC (REST has no route for extension
   * methods): a REST client sends it to the card's JSON-RPC interface of its version (else of the other
   * version), and fails with `NoJsonRpcInterface` when there is none.
   */
  readonly callExtension: <A = unknown>(
    method: string,
    params: unknown,
    options?: ExtensionCallOptions<A>
  ) => Effect.Effect<A, A2AClientError>
}

/** Options of {@link A2AClient.callExtension}. */
export interface ExtensionCallOptions<A> extends CallOptions {
  /** The schema of the result; a result that does not match is an InvalidAgentResponse. */
  readonly result?: Schema.Codec<A, any>
  /** The URI of the extension the method belongs to; default: the one the card declares it under. */
  readonly extension?: string
}

/**
 * Where the agent is: a base or card URL (discovery), a card (with the interfaces it lists, when known:
 * see `A2AClient.discover`; else those of its 0.3 members), or a bare endpoint (no card): a JSON-RPC URL,
 * or with `transport: "HTTP+JSON"` a REST base URL, spoken to in A2A 0.3 unless `protocolVersion` says 1.0.
 */
export type A2AClientInit =
  | { readonly url: string }
  | { readonly card: AgentCard; readonly interfaces?: ReadonlyArray<CardInterface> }
  | { readonly endpoint: string }

/** Client settings; every field has a default. */
export interface A2AClientOptions {
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch
  /** Request hooks, e.g. `authHeader(...)`, `extensionsHeader(...)`. */
  readonly interceptors?: ReadonlyArray<ClientInterceptor>
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>
  /** Use this URL instead of the card's one for the chosen binding (JSON-RPC endpoint or REST base URL). */
  readonly endpoint?: string
  /**
   * The wire binding: `auto` (default) takes the binding of the interface chosen by `protocolVersion`
   * (the card's order is its preference); `"HTTP+JSON"` forces REST, `"JSONRPC"` JSON-RPC.
   * Without a card, `auto` means JSON-RPC.
   */
  readonly transport?: TransportChoice
  /**
   * The A2A version: `auto` (default) takes the first 1.0 interface of the card this client can use, else
   * the first 0.3 one; `"1.0"` or `"0.3"` pins it (a card without an interface of it is a
   * `NoVersionInterface` error). The card itself is asked for with `A2A-Version: 1.0` (`"0.3"` when pinned to
   * 0.3). Without a card, `auto` means 0.3.
   */
  readonly protocolVersion?: VersionChoice
  /** Deadline of a unary call, a card fetch and a stream's response headers. Default 30 s. */
  readonly timeoutMs?: number
  /** Longest silence inside a response body or stream. Default 120 s. */
  readonly idleTimeoutMs?: number
  /** Largest stream event. Default 8 MiB. */
  readonly maxEventBytes?: number
  /** Largest unary response or card. Default 16 MiB. */
  readonly maxResponseBytes?: number
  /** Retries of idempotent calls (card, `tasks/get`, `listTasks`, push-config get/list) on connection failures. Default 2. */
  readonly retries?: number
  /** First retry delay, doubled each time. Default 100 ms. */
  readonly retryDelayMs?: number
  /** Resumption of dropped streams; `false` disables it. Default 3 attempts, 100 ms first delay. */
  readonly resume?: Partial<ResumePolicy> | false
}

const IDEMPOTENT: ReadonlySet<string> = new Set<MethodName>([
  "tasks/get",
  "tasks/pushNotificationConfig/get",
  "tasks/pushNotificationConfig/list",
  "agent/getAuthenticatedExtendedCard"
])

const defaultFetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init)

/** The resolved settings of a client. */
interface Resolved extends RpcConfig {
  readonly retries: number
  readonly retryDelayMs: number
  readonly resume: ResumePolicy
}

const resolve = (options: A2AClientOptions): Resolved => ({
  fetch: options.fetch ?? defaultFetch,
  interceptors: options.interceptors ?? [],
  headers: options.headers ?? {},
  timeoutMs: options.timeoutMs ?? 30_000,
  idleTimeoutMs: options.idleTimeoutMs ?? 120_000,
  maxEventBytes: options.maxEventBytes ?? 8 * 1024 * 1024,
  maxResponseBytes: options.maxResponseBytes ?? 16 * 1024 * 1024,
  retries: options.retries ?? 2,
  retryDelayMs: options.retryDelayMs ?? 100,
  resume: options.resume === false
    ? { maxAttempts: 0, backoffMs: 0 }
    : { maxAttempts: options.resume?.maxAttempts ?? 3, backoffMs: options.resume?.backoffMs ?? 100 }
})

const retrying = (config: Resolved) => <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>) =>
  Effect.retry(effect, {
    times: config.retries,
    schedule: Schedule.exponential(config.retryDelayMs),
    while: (e) => {
      const error = e as unknown as A2AClientError
      return isResumable(error) && error.reason !== "Timeout"
    }
  })

/** Where extension methods go: a JSON-RPC URL and the version spoken there. */
interface RpcTarget {
  readonly url: string
  readonly version: ProtocolVersion
}

const build = (
  config: Resolved,
  transport: ClientTransport,
  rpcTarget: RpcTarget | undefined,
  card: AgentCard | undefined,
  interfaces: ReadonlyArray<CardInterface>
): A2AClient => {
  const withCallOptions = (options: CallOptions | undefined): RpcConfig =>
    options?.timeoutMs === undefined ? config : { ...config, timeoutMs: options.timeoutMs }
  const call = <M extends UnaryMethod>(method: M, ...[params, options]: CallArgs<M>) => {
    const effect = transport.call(withCallOptions(options), method, params as MethodParams<M>, options?.headers)
    return IDEMPOTENT.has(method) ? retrying(config)(effect) : effect
  }
  const stream = <M extends StreamingMethod>(method: M, ...[params, options]: CallArgs<M>) => {
    const rpc = withCallOptions(options)
    const knownTask = method === "tasks/resubscribe" ? (params as MethodParams<"tasks/resubscribe">).id : undefined
    return withResume(
      transport.open(rpc, method, params as MethodParams<M>, options?.headers),
      (taskId, lastEventId) =>
        transport.open(
          rpc,
          "tasks/resubscribe",
          { id: taskId },
          lastEventId === undefined ? options?.headers : { ...options?.headers, "Last-Event-ID": lastEventId }
        ),
      config.resume,
      transport.endpoint,
      knownTask
    ) as Stream.Stream<MethodResult<M>, A2AClientError>
  }
  const named = Object.fromEntries(
    Object.entries(methodNames).map(([name, method]) => [
      name,
      methods[method].streaming
        ? (...args: Array<never>) => stream(method as StreamingMethod, ...(args as [never]))
        : (...args: Array<never>) => call(method as UnaryMethod, ...(args as [never]))
    ])
  ) as unknown as A2AClientMethods
  const extensionHeaders = (method: string, options: Pick<ExtensionCallOptions<unknown>, "extension" | "headers"> | undefined) => {
    const uri = options?.extension ?? extensionFor(card, method)
    return uri === undefined ? options?.headers : activating(uri, config.headers, options?.headers)
  }
  // A query: retried on connection failures, as the other reads are.
  const listTasks = (params: ListTasksParams = {}, options?: CallOptions) =>
    retrying(config)(transport.listTasks(withCallOptions(options), params, options?.headers))
  const callExtension = <A>(method: string, params: unknown, options?: ExtensionCallOptions<A>) =>
    rpcTarget === undefined
      ? Effect.fail(
        new A2AClientTransportError({
          reason: "NoJsonRpcInterface",
          message: `extension method ${method.slice(0, 100)} needs a JSON-RPC interface, and this REST client knows none`,
          url: transport.endpoint
        })
      )
      : rpcCall(withCallOptions(options), {
        url: rpcTarget.url,
        method,
        params,
        read: Schema.decodeUnknownResult((options?.result ?? Schema.Unknown) as Schema.Codec<A, unknown>),
        headers: extensionHeaders(method, options),
        version: rpcTarget.version
      }) as Effect.Effect<A, A2AClientError>
  return {
    ...named,
    card,
    interfaces,
    endpoint: transport.endpoint,
    transport: transport.protocol,
    protocolVersion: transport.protocolVersion,
    call,
    stream,
    listTasks,
    callExtension
  }
}

/** The transport of one binding and version at `url`. */
const bind = (chosen: Omit<ChosenInterface, "url">, url: string): ClientTransport => {
  if (chosen.version === "1.0") return chosen.transport === "HTTP+JSON" ? restV1Transport(url, chosen.tenant) : jsonRpcV1Transport(url, chosen.tenant)
  return chosen.transport === "HTTP+JSON" ? restTransport(url) : jsonRpcTransport(url)
}

const make = (
  init: A2AClientInit,
  options: A2AClientOptions = {}
): Effect.Effect<A2AClient, A2AClientTransportError | InvalidAgentResponse> =>
  Effect.gen(function*() {
    const config = resolve(options)
    const choice = { transport: options.transport ?? "auto", version: options.protocolVersion ?? "auto" } as const
    if ("endpoint" in init) {
      const url = options.endpoint ?? init.endpoint
      const chosen = { transport: choice.transport === "HTTP+JSON" ? "HTTP+JSON" : "JSONRPC", version: choice.version === "1.0" ? "1.0" : "0.3" } as const
      return build(config, bind(chosen, url), chosen.transport === "JSONRPC" ? { url, version: chosen.version } : undefined, undefined, [])
    }
    const { card, cardUrl, interfaces } = "card" in init
      ? { card: init.card, cardUrl: init.card.url, interfaces: init.interfaces ?? cardInterfaces(init.card) }
      : yield* retrying(config)(discoverCard(cardConfig(config, choice.version), init.url))
    const chosen = yield* selectInterface(card, interfaces, choice)
    const url = options.endpoint ?? new URL(chosen.url, cardUrl).href
    const rpc = chosen.transport === "JSONRPC"
      ? chosen
      : pickInterface(interfaces, { transport: "JSONRPC", version: chosen.version }) ?? pickInterface(interfaces, { transport: "JSONRPC", version: "auto" })
    const rpcTarget = rpc === undefined ? undefined : { url: rpc === chosen ? url : new URL(rpc.url, cardUrl).href, version: rpc.version }
    return build(config, bind(chosen, url), rpcTarget, card, interfaces)
  })

/** The card is asked for in the version pinned, else in 1.0 (0.3-only agents ignore the header). */
const cardConfig = (config: Resolved, version: VersionChoice) => (version === "0.3" ? { ...config, cardVersion: "0.3" as const } : config)

/** Finds and decodes an agent card without making a client (see `discoverCard` for the search order). */
const discover = (
  url: string,
  options: A2AClientOptions = {}
): Effect.Effect<DiscoveredCard, InvalidAgentResponse | A2AClientTransportError> => {
  const config = resolve(options)
  return retrying(config)(discoverCard(cardConfig(config, options.protocolVersion ?? "auto"), url))
}

/** Makes A2A clients. */
export const A2AClient = {
  /**
   * A client for the agent at `init`; fetches its card unless given a card or a bare endpoint.
   *
   * @example
   * ```ts
   * const rest = yield* A2AClient.make({ url: "http://127.0.0.1:8080" }, { transport: "HTTP+JSON" })
   * ```
   */
  make,
  /** Fetches an agent's card. */
  discover
} as const

/**
 * `MessageSendParams` for a user text message with a fresh `messageId`, optionally continuing a task or
 * context.
 *
 * @example
 * ```ts
 * client.sendMessage(userText("and now in French", { taskId: task.id }))
 * ```
 */
export const userText = (
  text: string,
  options: {
    readonly taskId?: string
    readonly contextId?: string
    readonly configuration?: MessageSendParams["configuration"]
  } = {}
): MessageSendParams => {
  const message: Message = {
    kind: "message",
    messageId: crypto.randomUUID(),
    role: "user",
    parts: [{ kind: "text", text }],
    ...(options.taskId === undefined ? {} : { taskId: options.taskId }),
    ...(options.contextId === undefined ? {} : { contextId: options.contextId })
  }
  return options.configuration === undefined ? { message } : { message, configuration: options.configuration }
}
