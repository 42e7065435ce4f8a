/**
 * The A2A 1.0 JSON-RPC binding for the client: the same exchange, SSE reading and checks as 0.3
 * (`json-rpc-transport.ts`), with 1.0's method names and ProtoJSON params written by `schemas/v1`, answers
 * read into the model, `A2A-Version: 1.0` on every request and error objects read by their ErrorInfo.
 *
 * @module
 */
import { rpcCall, rpcStream } from "./json-rpc-transport.ts"
import { terminalTaskOnRefusal, v1ListTasks, v1Streaming, v1Unary, withFirstPushConfig } from "./v1-operations.ts"
import type { ClientTransport } from "./transport.ts"

/**
 * The 1.0 JSON-RPC binding at `endpoint`; `tenant` (the card interface's) goes in every request.
 *
 * @example
 * ```ts
 * const transport = jsonRpcV1Transport("https://agent.example/a2a")
 * ```
 */
export const jsonRpcV1Transport = (endpoint: string, tenant?: string): ClientTransport => {
  const transport: ClientTransport = {
    protocol: "JSONRPC",
    protocolVersion: "1.0",
    endpoint,
    call: (config, method, params, headers) =>
      withFirstPushConfig((m, p) => {
        const op = v1Unary(m, p, tenant)
        return rpcCall(config, { url: endpoint, method: op.method, paramsJson: op.paramsJson, read: op.read, headers, version: "1.0" })
      })(method, params),
    open: (config, method, params, headers) => {
      const op = v1Streaming(method, params, tenant)
      const stream = rpcStream(config, { url: endpoint, method: op.method, paramsJson: op.paramsJson, read: op.read, headers, version: "1.0" })
      return method === "tasks/resubscribe"
        ? terminalTaskOnRefusal(stream, (params as { readonly id: string }).id, (m, p) => transport.call(config, m, p, headers))
        : stream
    },
    listTasks: (config, params, headers) => {
      const op = v1ListTasks(params, tenant)
      return rpcCall(config, { url: endpoint, method: op.method, paramsJson: op.paramsJson, read: op.read, headers, version: "1.0" })
    }
  }
  return transport
}
