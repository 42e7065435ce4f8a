/**
 * Chooses an example agent by name, for the per-runtime server files.
 */
import type { Agent } from "../../src/agent/agent.ts"
import { conformanceAgent } from "./conformance.ts"
import { demoAgent } from "./demo.ts"

/** `conformance` picks the conformance agent; anything else the demo agent. */
export const pickAgent = (name: string | undefined): Agent => (name === "conformance" ? conformanceAgent : demoAgent)
