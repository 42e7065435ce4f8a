/**
 * The agent card as A2A 1.0 writes it, from the one card description the server keeps (the 0.3 shape of
 * `schemas/agent-card.ts`) and the interfaces the server publishes; and a 1.0 card read back as that
 * description (`cardFromV1`), for clients.
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
import type { AgentCard, AgentInterface, AgentSkill } from "./agent-card.ts"
import type { OAuthFlows, SecurityRequirement, SecurityScheme } from "./security.ts"

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

const requirementFromV1 = (r: SecurityRequirement): Requirement =>
  Object.fromEntries(Object.entries(r.schemes ?? {}).map(([name, scopes]) => [name, scopes.list ?? []]))

const flowsFromV1 = (flows: OAuthFlows): ModelOAuthFlows => {
  const scopes = (s: Readonly<Record<string, string>> | undefined) => s ?? {}
  const refresh = (f: { readonly refreshUrl?: string }) => (f.refreshUrl === undefined || f.refreshUrl === "" ? {} : { refreshUrl: f.refreshUrl })
  const { authorizationCode: code, clientCredentials: client, implicit, password } = flows
  if (code !== undefined) {
    return { authorizationCode: { authorizationUrl: code.authorizationUrl, tokenUrl: code.tokenUrl, ...refresh(code), scopes: scopes(code.scopes) } }
  }
  if (client !== undefined) return { clientCredentials: { tokenUrl: client.tokenUrl, ...refresh(client), scopes: scopes(client.scopes) } }
  if (implicit !== undefined) {
    return { implicit: { authorizationUrl: implicit.authorizationUrl ?? "", ...refresh(implicit), scopes: scopes(implicit.scopes) } }
  }
  if (password !== undefined) return { password: { tokenUrl: password.tokenUrl ?? "", ...refresh(password), scopes: scopes(password.scopes) } }
  // A device code flow has no 0.3 counterpart.
  return {}
}

const described = (d: string | undefined) => (d === undefined || d === "" ? {} : { description: d })

const schemeFromV1 = (s: SecurityScheme): ModelSecurityScheme => {
  if (s.apiKeySecurityScheme !== undefined) {
    const k = s.apiKeySecurityScheme
    return { type: "apiKey", in: k.location as "header", name: k.name, ...described(k.description) }
  }
  if (s.httpAuthSecurityScheme !== undefined) {
    const h = s.httpAuthSecurityScheme
    return { type: "http", scheme: h.scheme, ...(h.bearerFormat === undefined || h.bearerFormat === "" ? {} : { bearerFormat: h.bearerFormat }), ...described(h.description) }
  }
  if (s.oauth2SecurityScheme !== undefined) {
    const o = s.oauth2SecurityScheme
    return {
      type: "oauth2",
      flows: flowsFromV1(o.flows),
      ...(o.oauth2MetadataUrl === undefined || o.oauth2MetadataUrl === "" ? {} : { oauth2MetadataUrl: o.oauth2MetadataUrl }),
      ...described(o.description)
    }
  }
  if (s.openIdConnectSecurityScheme !== undefined) {
    const o = s.openIdConnectSecurityScheme
    return { type: "openIdConnect", openIdConnectUrl: o.openIdConnectUrl, ...described(o.description) }
  }
  return { type: "mutualTLS", ...described(s.mtlsSecurityScheme?.description) }
}

const skillFromV1 = (skill: AgentSkill): ModelAgentSkill => {
  const out: Json = { id: skill.id, name: skill.name, description: skill.description, tags: skill.tags }
  set(out, "examples", skill.examples)
  set(out, "inputModes", skill.inputModes)
  set(out, "outputModes", skill.outputModes)
  set(out, "security", skill.securityRequirements?.map(requirementFromV1))
  return out as unknown as ModelAgentSkill
}

/**
 * The model's card (the 0.3 shape) of a 1.0 card, the inverse of {@link cardToV1}: the first of
 * `supportedInterfaces` gives `url`, `preferredTransport` and `protocolVersion`, the others (each URL and
 * binding once) `additionalInterfaces`; `capabilities.extendedAgentCard` becomes
 * `supportsAuthenticatedExtendedCard`; security comes back in 0.3's shapes. What the model cannot hold is
 * left out: an interface's version and tenant (read them from `supportedInterfaces` itself), a device code
 * flow, and the signatures, which sign the 1.0 bytes (verify the card as it was received).
 *
 * @example
 * const card = cardFromV1(decoded) // decoded: the 1.0 AgentCard, e.g. from decodeV1Response.card
 * card.url // the preferred interface's URL
 */
export const cardFromV1 = (card: AgentCard): ModelAgentCard => {
  const [first, ...rest] = card.supportedInterfaces
  const seen = new Set([`${first?.protocolBinding} ${first?.url}`])
  const additional = rest.flatMap((i) => {
    const key = `${i.protocolBinding} ${i.url}`
    if (seen.has(key)) return []
    seen.add(key)
    return [{ url: i.url, transport: i.protocolBinding }]
  })
  const out: Json = {
    protocolVersion: first?.protocolVersion ?? "1.0",
    name: card.name,
    description: card.description,
    url: first?.url ?? ""
  }
  if (first !== undefined) out["preferredTransport"] = first.protocolBinding
  set(out, "additionalInterfaces", additional)
  set(out, "iconUrl", card.iconUrl)
  if (card.provider !== undefined) out["provider"] = { organization: card.provider.organization, url: card.provider.url }
  out["version"] = card.version
  set(out, "documentationUrl", card.documentationUrl)
  const capabilities: Json = {}
  const c = card.capabilities
  if (c.streaming !== undefined) capabilities["streaming"] = c.streaming
  if (c.pushNotifications !== undefined) capabilities["pushNotifications"] = c.pushNotifications
  set(capabilities, "extensions", c.extensions?.map((e) => {
    const ext: Json = { uri: e.uri ?? "" }
    set(ext, "description", e.description)
    if (e.required === true) ext["required"] = true
    if (e.params !== undefined) ext["params"] = e.params
    return ext
  }))
  out["capabilities"] = capabilities
  if (card.securitySchemes !== undefined && Object.keys(card.securitySchemes).length > 0) {
    out["securitySchemes"] = Object.fromEntries(Object.entries(card.securitySchemes).map(([name, s]) => [name, schemeFromV1(s)]))
  }
  set(out, "security", card.securityRequirements?.map(requirementFromV1))
  out["defaultInputModes"] = card.defaultInputModes
  out["defaultOutputModes"] = card.defaultOutputModes
  out["skills"] = card.skills.map(skillFromV1)
  if (c.extendedAgentCard !== undefined) out["supportsAuthenticatedExtendedCard"] = c.extendedAgentCard
  return out as unknown as ModelAgentCard
}
