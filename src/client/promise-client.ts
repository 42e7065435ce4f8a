/**
 * The Promise / AsyncIterable face of `A2AClient`, for code that does not use Effect.
 *
 * Failures reject with the same tagged error instances the Effect API fails with (they are `Error`s:
 * `e._tag === "TaskNotFound"`, `e instanceof A2AClientTransportError`). An aborted `signal` rejects with
 * `signal.reason`, like `fetch`.
 *
 * @module
 */
import { Cause, Effect, Exit, Option, Scope, Stream } from "effect"
import type { AgentCard } from "../../schemas/agent-card.ts"
import type { StreamResult } from "../../schemas/events.ts"
import type { ListTasksParams, ListTasksResult } from "../../schemas/list-tasks.ts"
import type { MethodParams, MethodResult } from "../../schemas/methods.ts"
import {
  type ExtensionCallOptions,
  A2AClient,
  type A2AClientInit,
  type A2AClientOptions,
  type CallOptions,
  methodNames,
  type ProtocolVersion,
  type StreamingMethod,
  type TransportProtocol,
  type UnaryMethod
} from "./client.ts"
import type { CardInterface } from "./discovery.ts"

/** Per-call settings of the Promise API. */
export interface PromiseCallOptions extends CallOptions {
  /** Aborts the call (or ends the stream) and rejects with `signal.reason`. */
  readonly signal?: AbortSignal
}

/** Arguments of a Promise API call. */
export type PromiseCallArgs<M extends keyof MethodTable> = undefined extends MethodParams<M>
  ? [params?: MethodParams<M>, options?: PromiseCallOptions]
  : [params: MethodParams<M>, options?: PromiseCallOptions]

type MethodTable = { [M in UnaryMethod | StreamingMethod]: M }

/** The named methods of the Promise API. */
export type A2APromiseClientMethods = {
  readonly [K in keyof typeof methodNames]: (typeof methodNames)[K] extends StreamingMethod
    ? (...args: PromiseCallArgs<(typeof methodNames)[K]>) => AsyncIterable<StreamResult>
    : (...args: PromiseCallArgs<(typeof methodNames)[K]>) => Promise<MethodResult<(typeof methodNames)[K]>>
}

/**
 * A Promise-based client bound to one agent.
 *
 * @example
 * ```ts
 * const client = await createA2AClient({ url: "http://127.0.0.1:8080" })
 * const result = await client.sendMessage(userText("hello"))
 * for await (const event of client.streamMessage(userText("count to 3"))) console.log(event.kind)
 * ```
 */
export interface A2APromiseClient extends A2APromiseClientMethods {
  readonly card: AgentCard | undefined
  /** The interfaces the card lists, each with its version (see `A2AClient.interfaces`). */
  readonly interfaces: ReadonlyArray<CardInterface>
  /** Where calls go (see `A2AClient.endpoint`). */
  readonly endpoint: string
  /** The binding calls use: `JSONRPC` or `HTTP+JSON`. */
  readonly transport: TransportProtocol
  /** The A2A version calls speak: `1.0` or `0.3`. */
  readonly protocolVersion: ProtocolVersion
  /** One page of the caller's tasks (A2A 1.0 `ListTasks`; see `A2AClient.listTasks`). */
  readonly listTasks: (params?: ListTasksParams, options?: PromiseCallOptions) => Promise<ListTasksResult>
  /** The underlying Effect client. */
  readonly effect: A2AClient
  /** Calls a unary method of the method table. */
  readonly call: <M extends UnaryMethod>(method: M, ...args: PromiseCallArgs<M>) => Promise<MethodResult<M>>
  /** Opens a streaming method of the method table. */
  readonly stream: <M extends StreamingMethod>(method: M, ...args: PromiseCallArgs<M>) => AsyncIterable<MethodResult<M>>
  /** Calls an extension method (`{namespace}/{action}`); see `A2AClient.callExtension`. */
  readonly callExtension: <A = unknown>(
    method: string,
    params: unknown,
    options?: ExtensionCallOptions<A> & PromiseCallOptions
  ) => Promise<A>
}

const runOptions = (signal: AbortSignal | undefined) => (signal === undefined ? undefined : { signal })

const rethrow = (cause: Cause.Cause<unknown>, signal: AbortSignal | undefined): never => {
  if (signal?.aborted === true && Cause.hasInterruptsOnly(cause)) throw signal.reason
  throw Cause.squash(cause)
}

/** Runs an Effect as a Promise; rejects with the typed failure itself, not a wrapper. */
export const runToPromise = async <A, E>(effect: Effect.Effect<A, E>, signal?: AbortSignal): Promise<A> => {
  signal?.throwIfAborted()
  const exit = await Effect.runPromiseExit(effect, runOptions(signal))
  return Exit.isSuccess(exit) ? exit.value : rethrow(exit.cause, signal)
}

/**
 * Turns a Stream into an AsyncIterable that pulls on demand. Leaving the loop early (`break`, a throw)
 * or aborting `signal` closes the stream, which cancels the underlying HTTP body.
 */
export const streamToAsyncIterable = <A, E>(stream: Stream.Stream<A, E>, signal?: AbortSignal): AsyncIterable<A> => ({
  async *[Symbol.asyncIterator]() {
    signal?.throwIfAborted()
    const scope = Effect.runSync(Scope.make())
    try {
      const pull = await runToPromise(Scope.provide(Stream.toPull(stream), scope), signal)
      while (true) {
        const exit = await Effect.runPromiseExit(pull, runOptions(signal))
        if (Exit.isSuccess(exit)) {
          yield* exit.value
          continue
        }
        const failure = Cause.findErrorOption(exit.cause)
        if (Option.isSome(failure)) {
          if (Cause.isDone(failure.value)) return
          throw failure.value
        }
        rethrow(exit.cause, signal)
      }
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
})

/** Wraps an Effect client in the Promise API. */
export const toPromiseClient = (client: A2AClient): A2APromiseClient => {
  const call = <M extends UnaryMethod>(method: M, ...[params, options]: PromiseCallArgs<M>) =>
    runToPromise(client.call(method, ...([params, options] as never as [never])), options?.signal) as Promise<MethodResult<M>>
  const stream = <M extends StreamingMethod>(method: M, ...[params, options]: PromiseCallArgs<M>) =>
    streamToAsyncIterable(client.stream(method, ...([params, options] as never as [never])), options?.signal) as AsyncIterable<
      MethodResult<M>
    >
  const named = Object.fromEntries(
    Object.entries(methodNames).map(([name, method]) => [
      name,
      method === "message/stream" || method === "tasks/resubscribe"
        ? (...args: Array<never>) => stream(method, ...(args as [never]))
        : (...args: Array<never>) => call(method, ...(args as [never]))
    ])
  ) as unknown as A2APromiseClientMethods
  const callExtension = <A>(method: string, params: unknown, options?: ExtensionCallOptions<A> & PromiseCallOptions) =>
    runToPromise(client.callExtension(method, params, options), options?.signal)
  const listTasks = (params?: ListTasksParams, options?: PromiseCallOptions) => runToPromise(client.listTasks(params, options), options?.signal)
  return {
    ...named,
    card: client.card,
    interfaces: client.interfaces,
    endpoint: client.endpoint,
    transport: client.transport,
    protocolVersion: client.protocolVersion,
    effect: client,
    call,
    stream,
    listTasks,
    callExtension
  }
}

/**
 * Makes a Promise-based client; fetches the agent card unless given a card or a bare endpoint.
 *
 * @example
 * ```ts
 * const client = await createA2AClient({ url: "https://agent.example" }, {
 *   interceptors: [authHeader({ token: process.env.TOKEN! })]
 * })
 * ```
 */
export const createA2AClient = async (
  init: A2AClientInit,
  options: A2AClientOptions & { readonly signal?: AbortSignal } = {}
): Promise<A2APromiseClient> => toPromiseClient(await runToPromise(A2AClient.make(init, options), options.signal))
