/**
 * Workflows: XState machines as A2A agents, and A2A method extensions that drive them.
 *
 * @module
 */
import { router } from "./extension-router.ts"
import { toAgent } from "./workflow-agent.ts"
import { extension, method } from "./workflow-extension.ts"

export type { ExtensionRouter } from "./extension-router.ts"
export {
  artifactParts,
  isA2AEmitted,
  stateAction,
  type A2AArtifactEmitted,
  type A2AEmitted,
  type A2AStateMeta,
  type A2AStatusEmitted,
  type StateAction,
  type TextOf
} from "./state-meta.ts"
export { workflowExtensionsOf, workflowMetadataKey, type WorkflowAgent, type WorkflowAgentOptions } from "./workflow-agent.ts"
export {
  type ExtensionCall,
  type ExtensionMethod,
  type ExtensionOptions,
  type SchemaMethod,
  type WorkflowExtension
} from "./workflow-extension.ts"

/**
 * Builds workflow agents and extensions: `toAgent` runs a machine per task, `extension` declares
 * `{namespace}/{action}` methods over its events, `method` gives one Schema-checked params, and `router`
 * routes those methods for the server.
 */
export const Workflow = { toAgent, extension, method, router } as const
