/**
 * Our `A2AServer` on Node, 127.0.0.1, port 0, exactly as users serve it: `A2AServer.make` then
 * `serveNode`. Interop tests point foreign clients at it.
 *
 * @module
 */
import { serveNode } from "../../../src/adapters/node.ts"
import type { Agent } from "../../../src/agent/agent.ts"
import { A2AServer, type A2AServerConfig } from "../../../src/server/a2a-server.ts"

/** A running server. */
export interface OurServer {
  /** The origin, e.g. `http://127.0.0.1:41241`; the JSON-RPC endpoint is `${url}/`. */
  readonly url: string
  readonly close: () => Promise<void>
}

/** Serves `agent` with `config`; resolves once it listens. Closing cancels running tasks at once. */
export const startOurServer = async (agent: Agent, config: A2AServerConfig = {}): Promise<OurServer> => {
  const listening = await serveNode(await A2AServer.make(agent, config), { port: 0, host: "127.0.0.1" })
  return { url: listening.url, close: () => listening.close({ graceMs: 0 }) }
}
