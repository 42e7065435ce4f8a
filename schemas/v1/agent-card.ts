import { Schema } from "effect"
import { JsonObject, optional, StringRecord } from "../internal/common.ts"
import { SecurityRequirement, SecurityScheme } from "./security.ts"

/** `lf.a2a.v1.AgentInterface`: one binding at one URL, for one protocol version (`"0.3"`, `"1.0"`). */
export const AgentInterface = Schema.Struct({
  url: Schema.String,
  protocolBinding: Schema.String,
  tenant: optional(Schema.String),
  protocolVersion: Schema.String
}).annotate({ identifier: "AgentInterface" })
/** @see AgentInterface */
export type AgentInterface = Schema.Schema.Type<typeof AgentInterface>

/** `lf.a2a.v1.AgentProvider`. */
export const AgentProvider = Schema.Struct({
  url: Schema.String,
  organization: Schema.String
}).annotate({ identifier: "AgentProvider" })

/** `lf.a2a.v1.AgentExtension`. */
export const AgentExtension = Schema.Struct({
  uri: optional(Schema.String),
  description: optional(Schema.String),
  required: optional(Schema.Boolean),
  params: optional(JsonObject)
}).annotate({ identifier: "AgentExtension" })

/** `lf.a2a.v1.AgentCapabilities`: `extendedAgentCard` replaces 0.3's `supportsAuthenticatedExtendedCard`. */
export const AgentCapabilities = Schema.Struct({
  streaming: optional(Schema.Boolean),
  pushNotifications: optional(Schema.Boolean),
  extensions: optional(Schema.Array(AgentExtension)),
  extendedAgentCard: optional(Schema.Boolean)
}).annotate({ identifier: "AgentCapabilities" })

/** `lf.a2a.v1.AgentSkill`. */
export const AgentSkill = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  tags: Schema.Array(Schema.String),
  examples: optional(Schema.Array(Schema.String)),
  inputModes: optional(Schema.Array(Schema.String)),
  outputModes: optional(Schema.Array(Schema.String)),
  securityRequirements: optional(Schema.Array(SecurityRequirement))
}).annotate({ identifier: "AgentSkill" })

/** `lf.a2a.v1.AgentCardSignature`: a JWS over the card's canonical JSON (spec §8.4). */
export const AgentCardSignature = Schema.Struct({
  protected: Schema.String,
  signature: Schema.String,
  header: optional(JsonObject)
}).annotate({ identifier: "AgentCardSignature" })

/** `lf.a2a.v1.AgentCard`: where an agent is reached (`supportedInterfaces`, preferred first) and what it does. */
export const AgentCard = Schema.Struct({
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
