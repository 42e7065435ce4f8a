import { describe, expect, it } from "vitest"
import type { AgentCard } from "../../schemas/agent-card.ts"
import { testCard } from "../../testing/runtime/fixtures.ts"
import { formatCard } from "./format.ts"

/** The indented lines under the line `title` of `text`. */
const section = (text: string, title: string): ReadonlyArray<string> => {
  const lines = text.split("\n")
  const after = lines.slice(lines.indexOf(title) + 1)
  const end = after.findIndex((l) => !l.startsWith("  "))
  return end === -1 ? after : after.slice(0, end)
}

const card = (fields: Partial<AgentCard>): AgentCard => ({ ...testCard(), ...fields })
const show = (c: AgentCard) =>
  formatCard(c, { endpoint: c.url, transport: "JSONRPC", version: "0.3", interfaces: [{ url: c.url, protocolBinding: "JSONRPC", protocolVersion: "0.3" }] })

describe("a2a-actors card: what a client needs to send", () => {
  it("names each required scheme with the header or token that answers it, and the alternatives", () => {
    const text = show(card({
      securitySchemes: {
        partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        sessionKey: { type: "apiKey", in: "cookie", name: "sid" },
        jwt: { type: "http", scheme: "Bearer", bearerFormat: "JWT" },
        basic: { type: "http", scheme: "basic" },
        oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://auth.example/token", scopes: { read: "read" } } } },
        oidc: { type: "openIdConnect", openIdConnectUrl: "https://id.example/.well-known/openid-configuration" },
        mtls: { type: "mutualTLS" }
      },
      security: [{ partnerKey: [] }, { oauth: ["read", "write"] }, { jwt: [], mtls: [] }, { sessionKey: [] }, { basic: [] }, { oidc: [] }, { ghost: [] }]
    }))
    expect(section(text, "Security (every request):")).toEqual([
      '  - partnerKey: API key in header X-API-Key: --header "X-API-Key: <key>"',
      "  - or oauth (scopes read, write): OAuth 2 access token (clientCredentials at https://auth.example/token): --token <token>",
      "  - or jwt: HTTP bearer token (JWT): --token <token>; and mtls: TLS client certificate (this command does not send one)",
      '  - or sessionKey: API key in cookie sid: --header "Cookie: sid=<key>"',
      '  - or basic: HTTP basic: --header "Authorization: Basic <base64 of user:password>"',
      "  - or oidc: OpenID Connect token (provider https://id.example/.well-known/openid-configuration): --token <token>",
      "  - or ghost: a scheme the card does not declare"
    ])
  })

  it("says when nothing is required, listing the schemes a card declares anyway", () => {
    expect(show(card({}))).toContain("\nSecurity: none required\n")
    const declared = show(card({ securitySchemes: { q: { type: "apiKey", in: "query", name: "key" } } }))
    expect(section(declared, "Security: none required by the card; schemes it declares:")).toEqual([
      "  - q: API key in query parameter key (of every request URL)"
    ])
  })

  it("shows under a skill what that skill needs", () => {
    const text = show(card({
      securitySchemes: { adminKey: { type: "apiKey", in: "header", name: "X-Admin-Key" } },
      skills: [
        { id: "echo", name: "Echo", description: "echoes", tags: [] },
        { id: "admin", name: "Admin", description: "rotates", tags: [], security: [{ adminKey: [] }] }
      ]
    }))
    expect(section(text, "Skills:")).toEqual([
      "  - echo: Echo - echoes",
      "  - admin: Admin - rotates",
      "    needs:",
      '      - adminKey: API key in header X-Admin-Key: --header "X-Admin-Key: <key>"'
    ])
  })
})

describe("a2a-actors card: extension methods' params", () => {
  const ext = (params: Record<string, unknown>) => card({ capabilities: { extensions: [{ uri: "https://x.example/ext", params }] } })

  it("renders each method's JSON Schema as a short type", () => {
    const text = show(ext({
      methods: ["x/set", "x/pick", "x/bare"],
      methodParams: {
        "x/set": {
          type: "object",
          properties: {
            taskId: { type: "string" },
            values: { type: "array", items: { type: "integer" } },
            mode: { type: "string", enum: ["fast", "safe"] },
            note: { anyOf: [{ type: "string" }, { type: "null" }] },
            nested: { type: "object", properties: { a: { type: "object", properties: { b: { type: "object", properties: { c: { type: "string" } } } } } } }
          },
          required: ["taskId", "values"]
        },
        "x/pick": { $ref: "#/$defs/Pick" }
      }
    }))
    expect(section(text, "Extensions:")).toEqual([
      "  - https://x.example/ext",
      "    methods:",
      '      x/set { taskId: string, values: Array<integer>, mode?: "fast" | "safe", note?: string | null, nested?: { a?: { b?: { … } } } }',
      "      x/pick Pick",
      "      x/bare"
    ])
  })

  it("keeps the plain list for a card without methodParams, and cuts a long one short", () => {
    expect(section(show(ext({ methods: ["x/a", "x/b"] })), "Extensions:")).toEqual(["  - https://x.example/ext", "    methods: x/a, x/b"])
    const properties = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`field${i}`, { type: "string" }]))
    const long = section(show(ext({ methods: ["x/a"], methodParams: { "x/a": { type: "object", properties } } })), "Extensions:")
    expect(long[2]!.length).toBe("      x/a ".length + 200)
    expect(long[2]!.endsWith("…")).toBe(true)
  })
})
