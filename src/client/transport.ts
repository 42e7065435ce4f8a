/**
 * The small interface every wire binding of the client implements (JSON-RPC, REST), so `A2AClient` derives
 * its methods, retries and stream resumption once, whatever the binding.
 *
 * @module
 */
import type { Effect, Stream } from "effect"
import type { StreamResult } from "../../schemas/events.ts"
import type { ListTasksParams, ListTasksResult } from "../../schemas/list-tasks.ts"
import type { MethodName, MethodParams, MethodResult, methods } from "../../schemas/methods.ts"
import type { A2AClientError } from "./errors.ts"
import type { RpcConfig, RpcFrame } from "./json-rpc-transport.ts"

/** Methods answered with one response. */
export type UnaryMethod = { [M in MethodName]: (typeof methods)[M]["streaming"] extends true ? never : M }[MethodName]
/** Methods answered with an SSE stream. */
export type StreamingMethod = Exclude<MethodName, UnaryMethod>

/** The bindings the client speaks, spelled as agent cards spell them in `preferredTransport`. */
export type TransportProtocol = "JSONRPC" | "HTTP+JSON"

/** Which binding a client uses: one of them, or `auto` (the card's preference when supported). */
export type TransportChoice = TransportProtocol | "auto"

/** The A2A versions the client speaks. */
export type ProtocolVersion = "1.0" | "0.3"

/** Which version a client speaks: one of them, or `auto` (1.0 when the card offers it, else 0.3). */
export type VersionChoice = ProtocolVersion | "auto"

/** Every binding this client implements, in the order `auto` falls back through a card's interfaces. */
export const supportedProtocols: ReadonlyArray<TransportProtocol> = ["JSONRPC", "HTTP+JSON"]

/** One binding bound to one agent URL. Limits and per-call headers come with each call. */
export interface ClientTransport {
  /** The binding's name as cards spell it. */
  readonly protocol: TransportProtocol
  /** The A2A version every request speaks (and names in `A2A-Version`). */
  readonly protocolVersion: ProtocolVersion
  /** Where requests go: the JSON-RPC endpoint, or the REST base URL (ending in `/`). */
  readonly endpoint: string
  /** One unary method, bounded by `config.timeoutMs`, its answer decoded with the method's result schema. */
  readonly call: <M extends UnaryMethod>(
    config: RpcConfig,
    method: M,
    params: MethodParams<M>,
    headers: Readonly<Record<string, string>> | undefined
  ) => Effect.Effect<MethodResult<M>, A2AClientError>
  /** One connection of a streaming method; resumption is layered on top by the client. */
  readonly open: <M extends StreamingMethod>(
    config: RpcConfig,
    method: M,
    params: MethodParams<M>,
    headers: Readonly<Record<string, string>> | undefined
  ) => Stream.Stream<RpcFrame<StreamResult>, A2AClientError>
  /** `ListTasks` (A2A 1.0); a 0.3 binding fails with UnsupportedOperation, having nothing to send. */
  readonly listTasks: (
    config: RpcConfig,
    params: ListTasksParams,
    headers: Readonly<Record<string, string>> | undefined
  ) => Effect.Effect<ListTasksResult, A2AClientError>
}
