import { Schema } from "effect"
import { JsonObject, optional, StringRecord } from "../internal/common.ts"
import { SecurityRequirement, SecurityScheme } from "./security.ts"

/** `lf.a2a.v1.AgentInterface`: one binding at one URL, for one protocol version (`"0.3"`, `"1.0"`). */
export const AgentInterface: Schema.Struct<{
  readonly url: Schema.String
  readonly protocolBinding: Schema.String
  readonly tenant: Schema.optionalKey<Schema.String>
  readonly protocolVersion: Schema.String
}> = Schema.Struct({
  url: Schema.String,
  protocolBinding: Schema.String,
  tenant: optional(Schema.String),
  protocolVersion: Schema.String
}).annotate({ identifier: "AgentInterface" })
/** @see AgentInterface */
export type AgentInterface = Schema.Schema.Type<typeof AgentInterface>

/** `lf.a2a.v1.AgentProvider`. */
export const AgentProvider: Schema.Struct<{
  readonly url: Schema.String
  readonly organization: Schema.String
}> = Schema.Struct({
  url: Schema.String,
  organization: Schema.String
}).annotate({ identifier: "AgentProvider" })

/** `lf.a2a.v1.AgentExtension`. */
export const AgentExtension: Schema.Struct<{
  readonly uri: Schema.optionalKey<Schema.String>
  readonly description: Schema.optionalKey<Schema.String>
  readonly required: Schema.optionalKey<Schema.Boolean>
  readonly params: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
}> = Schema.Struct({
  uri: optional(Schema.String),
  description: optional(Schema.String),
  required: optional(Schema.Boolean),
  params: optional(JsonObject)
}).annotate({ identifier: "AgentExtension" })

/** `lf.a2a.v1.AgentCapabilities`: `extendedAgentCard` replaces 0.3's `supportsAuthenticatedExtendedCard`. */
export const AgentCapabilities: Schema.Struct<{
  readonly streaming: Schema.optionalKey<Schema.Boolean>
  readonly pushNotifications: Schema.optionalKey<Schema.Boolean>
  readonly extensions: Schema.optionalKey<Schema.$Array<typeof AgentExtension>>
  readonly extendedAgentCard: Schema.optionalKey<Schema.Boolean>
}> = Schema.Struct({
  streaming: optional(Schema.Boolean),
  pushNotifications: optional(Schema.Boolean),
  extensions: optional(Schema.Array(AgentExtension)),
  extendedAgentCard: optional(Schema.Boolean)
}).annotate({ identifier: "AgentCapabilities" })

/** `lf.a2a.v1.AgentSkill`. */
export const AgentSkill: Schema.Struct<{
  readonly id: Schema.String
  readonly name: Schema.String
  readonly description: Schema.String
  readonly tags: Schema.$Array<Schema.String>
  readonly examples: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly inputModes: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly outputModes: Schema.optionalKey<Schema.$Array<Schema.String>>
  readonly securityRequirements: Schema.optionalKey<Schema.$Array<typeof SecurityRequirement>>
}> = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  tags: Schema.Array(Schema.String),
  examples: optional(Schema.Array(Schema.String)),
  inputModes: optional(Schema.Array(Schema.String)),
  outputModes: optional(Schema.Array(Schema.String)),
  securityRequirements: optional(Schema.Array(SecurityRequirement))
}).annotate({ identifier: "AgentSkill" })
/** @see AgentSkill */
export type AgentSkill = Schema.Schema.Type<typeof AgentSkill>

/** `lf.a2a.v1.AgentCardSignature`: a JWS over the card's canonical JSON (spec §8.4). */
export const AgentCardSignature: Schema.Struct<{
  readonly protected: Schema.String
  readonly signature: Schema.String
  readonly header: Schema.optionalKey<Schema.$Record<Schema.String, Schema.Unknown>>
}> = Schema.Struct({
  protected: Schema.String,
  signature: Schema.String,
  header: optional(JsonObject)
}).annotate({ identifier: "AgentCardSignature" })

/** `lf.a2a.v1.AgentCard`: where an agent is reached (`supportedInterfaces`, preferred first) and what it does. */
export const AgentCard: Schema.Struct<{
  readonly name: Schema.String
  readonly description: Schema.String
  readonly supportedInterfaces: Schema.$Array<typeof AgentInterface>
  readonly provider: Schema.optionalKey<typeof AgentProvider>
  readonly version: Schema.String
  readonly documentationUrl: Schema.optionalKey<Schema.String>
  readonly capabilities: typeof AgentCapabilities
  readonly securitySchemes: Schema.optionalKey<Schema.$Record<Schema.String, typeof SecurityScheme>>
  readonly securityRequirements: Schema.optionalKey<Schema.$Array<typeof SecurityRequirement>>
  readonly defaultInputModes: Schema.$Array<Schema.String>
  readonly defaultOutputModes: Schema.$Array<Schema.String>
  readonly skills: Schema.$Array<typeof AgentSkill>
  readonly signatures: Schema.optionalKey<Schema.$Array<typeof AgentCardSignature>>
  readonly iconUrl: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  name: Schema.String,
  description: Schema.String,
  supportedInterfaces: Schema.Array(AgentInterface).check(Schema.isMinLength(1)),
  provider: optional(AgentProvider),
  version: Schema.String,
  documentationUrl: optional(Schema.String),
  capabilities: AgentCapabilities,
  securitySchemes: optional(StringRecord(SecurityScheme)),
  securityRequirements: optional(Schema.Array(SecurityRequirement)),
  defaultInputModes: Schema.Array(Schema.String),
  defaultOutputModes: Schema.Array(Schema.String),
  skills: Schema.Array(AgentSkill),
  signatures: optional(Schema.Array(AgentCardSignature)),
  iconUrl: optional(Schema.String)
}).annotate({ identifier: "AgentCard" })
/** @see AgentCard */
export type AgentCard = Schema.Schema.Type<typeof AgentCard>
