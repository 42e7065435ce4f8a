/**
 * Our server (JSON-RPC and the REST binding) on Node, 127.0.0.1, port 0, for REST tests.
 *
 * @module
 */
import type { AgentCard } from "../../../schemas/index.ts"
import type { Agent } from "../../../src/agent/agent.ts"
import { serveNode } from "../../../src/adapters/node.ts"
import { A2AServer, type A2AServerConfig } from "../../../src/server/a2a-server.ts"

/** Options of {@link startOurRestServer}. */
export interface OurRestServerOptions extends Omit<A2AServerConfig, "extendedCard"> {
  /** The authenticated extended card `GET /v1/card` serves (else: not configured). */
  readonly extendedCard?: AgentCard
}

/** A running server. */
export interface OurRestServer {
  /** Origin, e.g. `http://127.0.0.1:41241`. */
  readonly url: string
  /** The REST interface URL the card publishes (the origin with a trailing `/`). */
  readonly restUrl: string
  readonly close: () => Promise<void>
}

/** Starts `agent`; resolves once it listens. */
export const startOurRestServer = async (agent: Agent, config: OurRestServerOptions = {}): Promise<OurRestServer> => {
  const server = await A2AServer.make(agent, config)
  const listening = await serveNode(server)
  return { url: listening.url, restUrl: `${listening.url}/`, close: () => listening.close({ graceMs: 0 }) }
}
