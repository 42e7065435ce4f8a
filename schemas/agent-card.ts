import { Schema } from "effect"
import { JsonObject, optional, StringRecord } from "./internal/common.ts"
import { SecurityScheme } from "./security-schemes.ts"

/** The transports an agent interface may declare. Interface fields stay plain strings, as upstream. */
export const TransportProtocol: Schema.Literals<readonly ["JSONRPC", "GRPC", "HTTP+JSON"]> = Schema.Literals(["JSONRPC", "GRPC", "HTTP+JSON"]).annotate({
  identifier: "TransportProtocol"
})
/** @see TransportProtocol */
export type TransportProtocol = Schema.Schema.Type<typeof TransportProtocol>

/** A protocol extension the agent supports; `required` makes clients that do not activate it fail. */
export const AgentExtension: Schema.Struct<{
  readonly uri: Schema.String
  readonly description: Schema.optionalKey<Schema.String>
  readonly required: Schema.optionalKey<Schema.Boolean>
  readonly params: Schema.optionalKey<typeof JsonObject>
}> = Schema.Struct({
  uri: Schema.String,
  description: optional(Schema.String),
  required: optional(Schema.Boolean),
  params: optional(JsonObject)
}).annotate({ identifier: "AgentExtension" })
/** @see AgentExtension */
export type AgentExtension = Schema.Schema.Type<typeof AgentExtension>

/** Optional capabilities: streaming, push notifications, state history, extensions. */
export const AgentCapabilities: Schema.Struct<{
  readonly streaming: Schema.optionalKey<Schema.Boolean>
  readonly pushNotifications: Schema.optionalKey<Schema.Boolean>
  readonly stateTransitionHistory: Schema.optionalKey<Schema.Boolean>
  readonly extensions: Schema.optionalKey<Schema.$Array<typeof AgentExtension>>
}> = Schema.Struct({
  streaming: optional(Schema.Boolean),
  pushNotifications: optional(Schema.Boolean),
  stateTransitionHistory: optional(Schema.Boolean),
  extensions: optional(Schema.Array(AgentExtension))
}).annotate({ identifier: "AgentCapabilities" })
/** @see AgentCapabilities */
export type AgentCapabilities = Schema.Schema.Type<typeof AgentCapabilities>

/** A URL and the transport spoken there. */
export const AgentInterface: Schema.Struct<{
  readonly url: Schema.String
  readonly transport: Schema.String
}> = Schema.Struct({
  url: Schema.String,
  transport: Schema.String
}).annotate({ identifier: "AgentInterface" })
/** @see AgentInterface */
export type AgentInterface = Schema.Schema.Type<typeof AgentInterface>

/** The organisation behind the agent. */
export const AgentProvider: Schema.Struct<{
  readonly organization: Schema.String
  readonly url: Schema.String
}> = Schema.Struct({
  organization: Schema.String,
  url: Schema.String
}).annotate({ identifier: "AgentProvider" })
/** @see AgentProvider */
export type AgentProvider = Schema.Schema.Type<typeof AgentProvider>

/** A security requirement: scheme name to required scopes (OpenAPI style). */
const SecurityRequirement = StringRecord(Schema.Array(Schema.String))

/** A capability the agent offers. */
export const AgentSkill: Schema.Struct<{
  readonly id: Schema.String
  readonly name: Schema.String
  readonly description: Schema.String
  readonly tags: Schema.$Array<Schema.String>
  readonly examples: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly inputModes: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly outputModes: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly security: Schema.optionalKey<
    Schema.$Array<Schema.$Record<Schema.String, Schema.$Array<Schema.String>>>
  >
}> = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  tags: Schema.Array(Schema.String),
  examples: optional(Schema.Array(Schema.String)),
  inputModes: optional(Schema.Array(Schema.String)),
  outputModes: optional(Schema.Array(Schema.String)),
  security: optional(Schema.Array(SecurityRequirement))
}).annotate({ identifier: "AgentSkill" })
/** @see AgentSkill */
export type AgentSkill = Schema.Schema.Type<typeof AgentSkill>

/** A JWS (RFC 7515, JSON serialisation) over the card. */
export const AgentCardSignature: Schema.Struct<{
  readonly protected: Schema.String
  readonly signature: Schema.String
  readonly header: Schema.optionalKey<typeof JsonObject>
}> = Schema.Struct({
  protected: Schema.String,
  signature: Schema.String,
  header: optional(JsonObject)
}).annotate({ identifier: "AgentCardSignature" })
/** @see AgentCardSignature */
export type AgentCardSignature = Schema.Schema.Type<typeof AgentCardSignature>

/**
 * The agent's self-description, served at `/.well-known/agent-card.json`. `protocolVersion` and
 * `preferredTransport` stay free strings on input (upstream defaults "0.3.0" and "JSONRPC") so cards of other
 * versions still decode; what a peer supports is decided by the caller.
 */
export const AgentCard: Schema.Struct<{
  readonly protocolVersion: Schema.String
  readonly name: Schema.String
  readonly description: Schema.String
  readonly url: Schema.String
  readonly preferredTransport: Schema.optionalKey<Schema.String>
  readonly additionalInterfaces: Schema.optionalKey<Schema.$Array<typeof AgentInterface>>
  readonly iconUrl: Schema.optionalKey<Schema.String>
  readonly provider: Schema.optionalKey<typeof AgentProvider>
  readonly version: Schema.String
  readonly documentationUrl: Schema.optionalKey<Schema.String>
  readonly capabilities: typeof AgentCapabilities
  readonly securitySchemes: Schema.optionalKey<
    Schema.$Record<Schema.String, typeof SecurityScheme>
  >
  readonly security: Schema.optionalKey<
    Schema.$Array<Schema.$Record<Schema.String, Schema.$Array<Schema.String>>>
  >
  readonly defaultInputModes: Schema.$Array<Schema.String>
  readonly defaultOutputModes: Schema.$Array<Schema.String>
  readonly skills: Schema.$Array<typeof AgentSkill>
  readonly supportsAuthenticatedExtendedCard: Schema.optionalKey<Schema.Boolean>
  readonly signatures: Schema.optionalKey<Schema.$Array<typeof AgentCardSignature>>
}> = Schema.Struct({
  protocolVersion: Schema.String,
  name: Schema.String,
  description: Schema.String,
  url: Schema.String,
  preferredTransport: optional(Schema.String),
  additionalInterfaces: optional(Schema.Array(AgentInterface)),
  iconUrl: optional(Schema.String),
  provider: optional(AgentProvider),
  version: Schema.String,
  documentationUrl: optional(Schema.String),
  capabilities: AgentCapabilities,
  securitySchemes: optional(StringRecord(SecurityScheme)),
  security: optional(Schema.Array(SecurityRequirement)),
  defaultInputModes: Schema.Array(Schema.String),
  defaultOutputModes: Schema.Array(Schema.String),
  skills: Schema.Array(AgentSkill),
  supportsAuthenticatedExtendedCard: optional(Schema.Boolean),
  signatures: optional(Schema.Array(AgentCardSignature))
}).annotate({ identifier: "AgentCard" })
/** @see AgentCard */
export type AgentCard = Schema.Schema.Type<typeof AgentCard>
