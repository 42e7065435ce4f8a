/**
 * What `a2a-actors card` shows a client beyond the card's description: which credentials a request needs
 * (each security requirement, with the header or token this command sends for it) and the params each
 * extension method takes (from the JSON Schemas a declaration lists in `params.methodParams`).
 *
 * @module
 */
import type { AgentCard } from "../../schemas/agent-card.ts"
import type { SecurityScheme } from "../../schemas/security-schemes.ts"

type Requirement = Readonly<Record<string, ReadonlyArray<string>>>

/** A scheme as a client must answer it, with the option of this command that does. */
const describeScheme = (scheme: SecurityScheme): string => {
  switch (scheme.type) {
    case "apiKey":
      return scheme.in === "header"
        ? `API key in header ${scheme.name}: --header "${scheme.name}: <key>"`
        : scheme.in === "cookie"
        ? `API key in cookie ${scheme.name}: --header "Cookie: ${scheme.name}=<key>"`
        : `API key in query parameter ${scheme.name} (of every request URL)`
    case "http": {
      const name = scheme.scheme.toLowerCase()
      if (name === "bearer") return `HTTP bearer token${scheme.bearerFormat === undefined ? "" : ` (${scheme.bearerFormat})`}: --token <token>`
      if (name === "basic") return 'HTTP basic: --header "Authorization: Basic <base64 of user:password>"'
      return `HTTP ${scheme.scheme}: --header "Authorization: ${scheme.scheme} <credentials>"`
    }
    case "oauth2": {
      const flows = Object.entries(scheme.flows).flatMap(([flow, value]) => {
        if (value === undefined) return []
        const url = "tokenUrl" in value ? value.tokenUrl : value.authorizationUrl
        return [`${flow} at ${url}`]
      })
      return `OAuth 2 access token${flows.length === 0 ? "" : ` (${flows.join("; ")})`}: --token <token>`
    }
    case "openIdConnect":
      return `OpenID Connect token (provider ${scheme.openIdConnectUrl}): --token <token>`
    case "mutualTLS":
      return "TLS client certificate (this command does not send one)"
  }
}

/** One requirement: every scheme it names (all needed together), each with its scopes. */
const describeRequirement = (card: AgentCard, requirement: Requirement): string => {
  const names = Object.keys(requirement)
  if (names.length === 0) return "no credentials"
  return names.map((name) => {
    const scopes = requirement[name] ?? []
    const scheme = card.securitySchemes?.[name]
    const label = `${name}${scopes.length === 0 ? "" : ` (scopes ${scopes.join(", ")})`}`
    return `${label}: ${scheme === undefined ? "a scheme the card does not declare" : describeScheme(scheme)}`
  }).join("; and ")
}

/** The lines of `requirements` (any one of them is enough), indented by `indent`. */
const requirementLines = (card: AgentCard, requirements: ReadonlyArray<Requirement>, indent: string): ReadonlyArray<string> =>
  requirements.length === 1
    ? [`${indent}- ${describeRequirement(card, requirements[0]!)}`]
    : requirements.map((r, i) => `${indent}- ${i === 0 ? "" : "or "}${describeRequirement(card, r)}`)

/** The card's `security` (what every request needs) and, when none is required, the schemes it declares. */
export const securityLines = (card: AgentCard): ReadonlyArray<string> => {
  const requirements = card.security ?? []
  const schemes = Object.entries(card.securitySchemes ?? {})
  if (requirements.length > 0) return ["Security (every request):", ...requirementLines(card, requirements, "  ")]
  if (schemes.length === 0) return ["Security: none required"]
  return [
    "Security: none required by the card; schemes it declares:",
    ...schemes.map(([name, scheme]) => `  - ${name}: ${describeScheme(scheme)}`)
  ]
}

/** What a skill with its own `security` needs, as lines under the skill. */
export const skillSecurityLines = (card: AgentCard, security: ReadonlyArray<Requirement> | undefined): ReadonlyArray<string> =>
  security === undefined || security.length === 0 ? [] : ["    needs:", ...requirementLines(card, security, "      ")]

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === "object" && u !== null && !Array.isArray(u)

/** At most this many characters of one method's params. */
const PARAMS_WIDTH = 200

/** A JSON Schema as a short type: `string`, `"a" | "b"`, `{ taskId: string, note?: string }`. */
const typeOf = (schema: unknown, depth: number): string => {
  if (!isRecord(schema)) return "any"
  if (Array.isArray(schema["enum"])) return schema["enum"].map((v) => JSON.stringify(v)).join(" | ")
  if ("const" in schema) return JSON.stringify(schema["const"])
  for (const key of ["anyOf", "oneOf"]) {
    const options = schema[key]
    if (Array.isArray(options)) return options.map((o) => typeOf(o, depth)).join(" | ")
  }
  if (typeof schema["$ref"] === "string") return schema["$ref"].replace(/^#\/\$defs\//, "")
  const type = schema["type"]
  if (type === "array") return `Array<${typeOf(schema["items"], depth)}>`
  if (type === "object" || isRecord(schema["properties"])) {
    const properties = isRecord(schema["properties"]) ? Object.entries(schema["properties"]) : []
    if (properties.length === 0) return "object"
    if (depth >= 3) return "{ … }"
    const required = new Set(Array.isArray(schema["required"]) ? schema["required"] : [])
    const fields = properties.map(([name, value]) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(value, depth + 1)}`)
    return `{ ${fields.join(", ")} }`
  }
  if (Array.isArray(type)) return type.join(" | ")
  return typeof type === "string" ? type : "any"
}

/** The params of an extension method, from its declaration's `params.methodParams[method]`, or undefined. */
export const methodParamsText = (declarationParams: unknown, method: string): string | undefined => {
  const all = isRecord(declarationParams) ? declarationParams["methodParams"] : undefined
  if (!isRecord(all) || !Object.hasOwn(all, method)) return undefined
  const text = typeOf(all[method], 0)
  return text.length > PARAMS_WIDTH ? `${text.slice(0, PARAMS_WIDTH - 1)}…` : text
}
