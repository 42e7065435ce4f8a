/**
 * The agent card in the REST form (`GET /v1/card`) and back.
 *
 * The `.proto` card differs from the A2A JSON card in two places: a security scheme is wrapped by its
 * kind (`{ apiKeySecurityScheme: { location, name } }` for `{ type: "apiKey", in, name }`), and a security
 * requirement is `{ schemes: { name: { list: [scopes] } } }` instead of `{ name: [scopes] }`. Everything
 * else keeps its camelCase name. The JS SDK's REST client reads only the wrapped forms (a plain scheme
 * makes it throw), so they are what we write; both are read.
 *
 * @module
 */
import type { AgentCard } from "../agent-card.ts"
import type { SecurityScheme } from "../security-schemes.ts"
import { compact, isRecord, type JsonRecord, mapArray, mapRecord, pick, repeated } from "./internal/fields.ts"

type Requirement = { readonly [scheme: string]: ReadonlyArray<string> }

const requirementToRest = (r: Requirement) => ({
  schemes: Object.fromEntries(Object.entries(r).map(([name, scopes]) => [name, { list: scopes }]))
})

const schemeToRest = (s: SecurityScheme): JsonRecord => {
  switch (s.type) {
    case "apiKey":
      return { apiKeySecurityScheme: compact({ description: s.description, location: s.in, name: s.name }) }
    case "http":
      return { httpAuthSecurityScheme: compact({ description: s.description, scheme: s.scheme, bearerFormat: s.bearerFormat }) }
    case "oauth2":
      return {
        oauth2SecurityScheme: compact({ description: s.description, flows: s.flows, oauth2MetadataUrl: s.oauth2MetadataUrl })
      }
    case "openIdConnect":
      return { openIdConnectSecurityScheme: compact({ description: s.description, openIdConnectUrl: s.openIdConnectUrl }) }
    case "mutualTLS":
      return { mtlsSecurityScheme: compact({ description: s.description }) }
  }
}

/** The card in the REST form. Pure; the card must already be valid. */
export const cardToRest = (card: AgentCard): JsonRecord =>
  compact({
    ...card,
    securitySchemes: card.securitySchemes === undefined
      ? undefined
      : Object.fromEntries(Object.entries(card.securitySchemes).map(([name, s]) => [name, schemeToRest(s)])),
    security: card.security?.map(requirementToRest),
    skills: card.skills.map((skill) => compact({ ...skill, security: skill.security?.map(requirementToRest) }))
  })

const requirementFromRest = (u: unknown): unknown =>
  mapRecord(u, (r) => {
    const schemes = pick(r, "schemes")
    const wrapped = isRecord(schemes) && Object.values(schemes).every(isRecord)
    if (!wrapped) return r
    return Object.fromEntries(Object.entries(schemes as JsonRecord).map(([name, v]) => [name, pick(v as JsonRecord, "list") ?? []]))
  })

const flows = (u: unknown): unknown =>
  mapRecord(u, (f) => {
    const flow = (v: unknown) =>
      mapRecord(v, (o) =>
        compact({
          authorizationUrl: pick(o, "authorizationUrl", "authorization_url"),
          tokenUrl: pick(o, "tokenUrl", "token_url"),
          refreshUrl: pick(o, "refreshUrl", "refresh_url"),
          scopes: pick(o, "scopes")
        }))
    return compact({
      authorizationCode: flow(pick(f, "authorizationCode", "authorization_code")),
      clientCredentials: flow(pick(f, "clientCredentials", "client_credentials")),
      implicit: flow(pick(f, "implicit")),
      password: flow(pick(f, "password"))
    })
  })

const schemeFromRest = (u: unknown): unknown =>
  mapRecord(u, (s) => {
    if (pick(s, "type") !== undefined) return s
    const of = (...keys: Array<string>) => pick(s, ...keys) as JsonRecord | undefined
    const apiKey = of("apiKeySecurityScheme", "api_key_security_scheme")
    if (isRecord(apiKey)) {
      return compact({ type: "apiKey", in: pick(apiKey, "location", "in"), name: pick(apiKey, "name"), description: pick(apiKey, "description") })
    }
    const http = of("httpAuthSecurityScheme", "http_auth_security_scheme")
    if (isRecord(http)) {
      return compact({
        type: "http",
        scheme: pick(http, "scheme"),
        bearerFormat: pick(http, "bearerFormat", "bearer_format"),
        description: pick(http, "description")
      })
    }
    const oauth = of("oauth2SecurityScheme", "oauth2_security_scheme")
    if (isRecord(oauth)) {
      return compact({
        type: "oauth2",
        flows: flows(pick(oauth, "flows")),
        oauth2MetadataUrl: pick(oauth, "oauth2MetadataUrl", "oauth2_metadata_url"),
        description: pick(oauth, "description")
      })
    }
    const oidc = of("openIdConnectSecurityScheme", "open_id_connect_security_scheme")
    if (isRecord(oidc)) {
      return compact({
        type: "openIdConnect",
        openIdConnectUrl: pick(oidc, "openIdConnectUrl", "open_id_connect_url"),
        description: pick(oidc, "description")
      })
    }
    const mtls = of("mtlsSecurityScheme", "mtls_security_scheme")
    if (isRecord(mtls)) return compact({ type: "mutualTLS", description: pick(mtls, "description") })
    return s
  })

const skillFromRest = (u: unknown): unknown =>
  mapRecord(u, (s) =>
    compact({
      id: pick(s, "id"),
      name: pick(s, "name"),
      description: pick(s, "description"),
      tags: repeated(s, "tags"),
      examples: pick(s, "examples"),
      inputModes: pick(s, "inputModes", "input_modes"),
      outputModes: pick(s, "outputModes", "output_modes"),
      security: mapArray(pick(s, "security"), requirementFromRest)
    }))

/** A card in either REST spelling (or plain A2A JSON) as plain A2A JSON, for the AgentCard schema to judge. */
export const cardFromRest = (u: unknown): unknown =>
  mapRecord(u, (c) => {
    const capabilities = pick(c, "capabilities")
    const schemes = pick(c, "securitySchemes", "security_schemes")
    return compact({
      protocolVersion: pick(c, "protocolVersion", "protocol_version"),
      name: pick(c, "name"),
      description: pick(c, "description"),
      url: pick(c, "url"),
      preferredTransport: pick(c, "preferredTransport", "preferred_transport"),
      additionalInterfaces: pick(c, "additionalInterfaces", "additional_interfaces"),
      iconUrl: pick(c, "iconUrl", "icon_url"),
      provider: pick(c, "provider"),
      version: pick(c, "version"),
      documentationUrl: pick(c, "documentationUrl", "documentation_url"),
      capabilities: mapRecord(capabilities, (k) =>
        compact({
          streaming: pick(k, "streaming"),
          pushNotifications: pick(k, "pushNotifications", "push_notifications"),
          stateTransitionHistory: pick(k, "stateTransitionHistory", "state_transition_history"),
          extensions: pick(k, "extensions")
        })),
      securitySchemes: mapRecord(schemes, (o) =>
        Object.fromEntries(Object.entries(o).map(([name, s]) => [name, schemeFromRest(s)]))),
      security: mapArray(pick(c, "security"), requirementFromRest),
      defaultInputModes: repeated(c, "defaultInputModes", "default_input_modes"),
      defaultOutputModes: repeated(c, "defaultOutputModes", "default_output_modes"),
      skills: mapArray(repeated(c, "skills"), skillFromRest),
      supportsAuthenticatedExtendedCard: pick(c, "supportsAuthenticatedExtendedCard", "supports_authenticated_extended_card"),
      signatures: pick(c, "signatures")
    })
  })
