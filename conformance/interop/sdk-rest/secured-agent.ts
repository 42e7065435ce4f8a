/**
 * A variant of the REST test agent that requires an API key (`x-api-key: secret`) and has an extended
 * card declaring every kind of security scheme, so `GET /v1/card` exercises the card mapping and the
 * REST form of authentication refusals.
 *
 * @module
 */
import { Effect } from "effect"
import type { AgentCard, SecurityScheme } from "../../../schemas/index.ts"
import { Agent, completeCard } from "../../../src/agent/agent.ts"
import type { Authenticator } from "../../../src/auth/authenticator.ts"
import { restTestAgent, restTestCard } from "./rest-test-agent.ts"

/** The API key the secured agent accepts. */
export const apiKey = "secret"

const keyScheme: SecurityScheme = { type: "apiKey", in: "header", name: "x-api-key", description: "Test key" }

/** The secured agent: the test agent's behaviour behind an API key. */
export const securedAgent = (): Agent =>
  Agent.make({
    card: { ...restTestCard(), securitySchemes: { key: keyScheme }, security: [{ key: [] }] },
    execute: restTestAgent().execute
  })

/** Accepts `x-api-key: secret` as principal `alice`. */
export const keyAuthenticator: Authenticator = (request) =>
  Effect.succeed(request.headers.get("x-api-key") === apiKey ? { id: "alice", scheme: "key" } : undefined)

/** The extended card: one more skill, and every security scheme kind. */
export const extendedCard: AgentCard = completeCard({
  ...restTestCard(),
  name: "REST test agent (extended)",
  skills: [
    ...restTestCard().skills,
    { id: "secret", name: "Secret skill", description: "Only for callers with a key", tags: ["private"], security: [{ key: [] }] }
  ],
  securitySchemes: {
    key: keyScheme,
    bearer: { type: "http", scheme: "Bearer", bearerFormat: "JWT" },
    oauth: {
      type: "oauth2",
      flows: { clientCredentials: { tokenUrl: "https://auth.example.com/token", scopes: { "tasks:write": "Create tasks" } } }
    },
    oidc: { type: "openIdConnect", openIdConnectUrl: "https://auth.example.com/.well-known/openid-configuration" },
    mtls: { type: "mutualTLS" }
  },
  security: [{ key: [] }, { oauth: ["tasks:write"] }]
})
