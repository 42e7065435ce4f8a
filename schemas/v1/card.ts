/**
 * The agent card as A2A 1.0 writes it, from the one card description the server keeps (the 0.3 shape of
 * `schemas/agent-card.ts`) and the interfaces the server publishes.
 *
 * 0.3 → 1.0: `url`, `preferredTransport`, `additionalInterfaces` and `protocolVersion` become
 * `supportedInterfaces`; `supportsAuthenticatedExtendedCard` becomes `capabilities.extendedAgentCard`;
 * `security` becomes `securityRequirements` (`{ schemes: { name: { list } } }`), each security scheme is wrapped
 * by its kind (`apiKeySecurityScheme`, with `in` as `location`, ...); `stateTransitionHistory` is gone. 1.0's
 * OAuth flows are a oneof: a scheme that lists several flows keeps the first of authorization code, client
 * credentials, implicit and password. Signatures are not carried over: a 1.0 card is signed on its own bytes.
 * Defaults are left out (ProtoJSON field presence), so the result is also the form a 1.0 signature covers.
 *
 * @module
 */
import type { AgentCard as ModelAgentCard, AgentSkill as ModelAgentSkill } from "../agent-card.ts"
import type { OAuthFlows as ModelOAuthFlows, SecurityScheme as ModelSecurityScheme } from "../security-schemes.ts"
import type { AgentCard, AgentInterface } from "./agent-card.ts"

type Json = Record<string, unknown>

const set = (out: Json, key: string, value: unknown): void => {
  if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) return
  out[key] = value
}

type Requirement = { readonly [scheme: string]: ReadonlyArray<string> }

const requirementToV1 = (r: Requirement): Json => {
  const schemes: Json = {}
  for (const [name, scopes] of Object.entries(r)) schemes[name] = scopes.length === 0 ? {} : { list: scopes }
  return Object.keys(schemes).length === 0 ? {} : { schemes }
}

const flowsToV1 = (flows: ModelOAuthFlows): Json => {
  /** A flow with its REQUIRED members always written (even empty), the others when set. */
  const flow = (f: Json, required: ReadonlyArray<string>): Json => {
    const out: Json = {}
    for (const [k, v] of Object.entries(f)) {
      if (required.includes(k)) out[k] = v
      else set(out, k, v)
    }
    if (f["scopes"] !== undefined) out["scopes"] = f["scopes"]
    return out
  }
  if (flows.authorizationCode !== undefined) return { authorizationCode: flow(flows.authorizationCode, ["authorizationUrl", "tokenUrl"]) }
  if (flows.clientCredentials !== undefined) return { clientCredentials: flow(flows.clientCredentials, ["tokenUrl"]) }
  if (flows.implicit !== undefined) return { implicit: flow(flows.implicit, []) }
  if (flows.password !== undefined) return { password: flow(flows.password, []) }
  return {}
}

const schemeToV1 = (s: ModelSecurityScheme): Json => {
  const out: Json = {}
  set(out, "description", s.description)
  switch (s.type) {
    case "apiKey":
      out["location"] = s.in
      out["name"] = s.name
      return { apiKeySecurityScheme: out }
    case "http":
      out["scheme"] = s.scheme
      set(out, "bearerFormat", s.bearerFormat)
      return { httpAuthSecurityScheme: out }
    case "oauth2":
      out["flows"] = flowsToV1(s.flows)
      set(out, "oauth2MetadataUrl", s.oauth2MetadataUrl)
      return { oauth2SecurityScheme: out }
    case "openIdConnect":
      out["openIdConnectUrl"] = s.openIdConnectUrl
      return { openIdConnectSecurityScheme: out }
    case "mutualTLS":
      return { mtlsSecurityScheme: out }
  }
}

const skillToV1 = (skill: ModelAgentSkill): Json => {
  const out: Json = { id: skill.id, name: skill.name, description: skill.description, tags: skill.tags }
  set(out, "examples", skill.examples)
  set(out, "inputModes", skill.inputModes)
  set(out, "outputModes", skill.outputModes)
  set(out, "securityRequirements", skill.security?.map(requirementToV1))
  return out
}

/**
 * The 1.0 card of `card`, reached at `supportedInterfaces` (preferred first). Pure; the card must be valid.
 *
 * @example
 * cardToV1(card, [{ url: "https://a.example.com/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }])
 */
export const cardToV1 = (card: ModelAgentCard, supportedInterfaces: ReadonlyArray<AgentInterface>): AgentCard => {
  const out: Json = { name: card.name, description: card.description, supportedInterfaces }
  if (card.provider !== undefined) out["provider"] = { url: card.provider.url, organization: card.provider.organization }
  out["version"] = card.version
  set(out, "documentationUrl", card.documentationUrl)
  const capabilities: Json = {}
  const c = card.capabilities
  if (c.streaming !== undefined) capabilities["streaming"] = c.streaming
  if (c.pushNotifications !== undefined) capabilities["pushNotifications"] = c.pushNotifications
  set(capabilities, "extensions", c.extensions?.map((e) => {
    const ext: Json = {}
    set(ext, "uri", e.uri)
    set(ext, "description", e.description)
    if (e.required === true) ext["required"] = true
    if (e.params !== undefined) ext["params"] = e.params
    return ext
  }))
  if (card.supportsAuthenticatedExtendedCard !== undefined) capabilities["extendedAgentCard"] = card.supportsAuthenticatedExtendedCard
  out["capabilities"] = capabilities
  if (card.securitySchemes !== undefined && Object.keys(card.securitySchemes).length > 0) {
    out["securitySchemes"] = Object.fromEntries(Object.entries(card.securitySchemes).map(([name, s]) => [name, schemeToV1(s)]))
  }
  set(out, "securityRequirements", card.security?.map(requirementToV1))
  out["defaultInputModes"] = card.defaultInputModes
  out["defaultOutputModes"] = card.defaultOutputModes
  out["skills"] = card.skills.map(skillToV1)
  set(out, "iconUrl", card.iconUrl)
  return out as unknown as AgentCard
}
