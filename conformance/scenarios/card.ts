import { asArray, asObject, asString, check, equal, expectRpcError, show, type JsonObject } from "./assert.ts"
import { scenario, type Scenario } from "./harness.ts"

const requiredCardFields = [
  "protocolVersion", "name", "description", "url", "version", "capabilities",
  "defaultInputModes", "defaultOutputModes", "skills"
] as const

const conformanceMimeTypes = ["text/plain", "application/json", "application/octet-stream"]

const fetchCard = async (origin: string, path: string, timeoutMs: number): Promise<{ status: number; type: string; body: unknown; text: string }> => {
  const response = await fetch(new URL(path, origin), { signal: AbortSignal.timeout(timeoutMs) })
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, type: response.headers.get("content-type") ?? "", body, text }
}

/** Agent card discovery and content. */
export const cardScenarios: ReadonlyArray<Scenario> = [
  scenario("card: /.well-known/agent-card.json serves JSON with every required field", async (t) => {
    const reply = await t.cardReply()
    check(reply.status === 200, `expected HTTP 200, got ${reply.status}`)
    check(/^application\/json\b/i.test(reply.contentType), `Content-Type should be application/json, got "${reply.contentType}"`)
    const card = asObject(reply.body, "agent card")
    const missing = requiredCardFields.filter((f) => !(f in card))
    check(missing.length === 0, `agent card lacks required fields: ${missing.join(", ")}`)
    equal(card.protocolVersion, "0.3.0", "protocolVersion")
    for (const f of ["name", "description", "url", "version"] as const) asString(card[f], `card.${f}`)
    asObject(card.capabilities, "card.capabilities")
    asArray(card.defaultInputModes, "card.defaultInputModes")
    asArray(card.defaultOutputModes, "card.defaultOutputModes")
  }),

  scenario("card: legacy /.well-known/agent.json serves the same card", async (t) => {
    const card = await t.card()
    const legacy = await fetchCard(t.origin, "/.well-known/agent.json", t.timeoutMs)
    check(legacy.status === 200, `legacy path: expected HTTP 200, got ${legacy.status}`)
    equal(legacy.body, card, "legacy card")
  }),

  scenario("card: every skill has id, name, description and tags", async (t) => {
    const skills = asArray((await t.card()).skills, "card.skills")
    check(skills.length > 0, "card.skills should list at least one skill")
    for (const [i, s] of skills.entries()) {
      const skill = asObject(s, `skills[${i}]`)
      for (const f of ["id", "name", "description"] as const) asString(skill[f], `skills[${i}].${f}`)
      asArray(skill.tags, `skills[${i}].tags`)
    }
  }),

  scenario("card: preferredTransport is JSONRPC and the endpoint is listed in additionalInterfaces", async (t) => {
    const card = await t.card()
    equal(card.preferredTransport, "JSONRPC", "preferredTransport")
    const interfaces = asArray(card.additionalInterfaces, "card.additionalInterfaces") as Array<JsonObject>
    check(
      interfaces.some((i) => i.transport === "JSONRPC" && i.url === card.url),
      `additionalInterfaces should contain { transport: "JSONRPC", url: ${show(card.url)} }, got ${show(interfaces)}`
    )
  }),

  scenario("card: conformance agent declares streaming, pushNotifications and the three MIME types", async (t) => {
    const card = await t.card()
    const caps = asObject(card.capabilities, "capabilities")
    equal(caps.streaming, true, "capabilities.streaming")
    equal(caps.pushNotifications, true, "capabilities.pushNotifications")
    for (const field of ["defaultInputModes", "defaultOutputModes"] as const) {
      const modes = asArray(card[field], field)
      const missing = conformanceMimeTypes.filter((m) => !modes.includes(m))
      check(missing.length === 0, `${field} lacks ${missing.join(", ")}`)
    }
  }),

  scenario("card: agent/getAuthenticatedExtendedCard without a configured extended card is -32007", async (t) => {
    const card = await t.card()
    if (card.supportsAuthenticatedExtendedCard === true) {
      t.skip("the card declares supportsAuthenticatedExtendedCard; this scenario needs an agent without one")
    }
    expectRpcError(await t.rpc("agent/getAuthenticatedExtendedCard", {}), -32007)
    expectRpcError(await t.rpc("agent/getAuthenticatedExtendedCard"), -32007, { where: "without params" })
  })
]
