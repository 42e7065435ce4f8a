import { check, show } from "./assert.ts"
import { scenario, type Scenario, type ScenarioContext } from "./harness.ts"
import { rawRequest } from "./raw-http.ts"

/**
 * Spellings of `path` that a URL parser resolves to `path` itself: dot segments (plain and percent-encoded),
 * backslashes, and an empty segment popped by `..`. Sent as written, none may reach what `path` reaches.
 */
export const unnormalised = (path: string): ReadonlyArray<string> => {
  const cut = path.lastIndexOf("/")
  const dir = path.slice(0, cut + 1)
  const last = path.slice(cut + 1)
  return [
    `${dir}x/../${last}`,
    `/%2e%2e${path}`,
    `/%2E%2e${path}`,
    `/.${path}`,
    `/..\\..\\${path.slice(1)}`,
    `${dir}x\\..\\${last}`,
    `//..${path}`,
    `${dir}x/%2e%2e/${last}`
  ]
}

const expectNotRouted = async (t: ScenarioContext, method: string, target: string, body: string | undefined) => {
  const answer = await rawRequest(t.url, method, target, body, t.timeoutMs)
  check(answer.status === 404 || answer.status === 400, `${method} ${target}: expected 404 (or 400), got ${answer.status}: ${show(answer.text.slice(0, 200))}`)
  check(!answer.text.includes('"jsonrpc"') && !answer.text.includes('"protocolVersion"'), `${method} ${target} reached an endpoint: ${show(answer.text.slice(0, 200))}`)
}

/** Request targets: only the target as published reaches an endpoint, however else it may be spelled. */
export const targetScenarios: ReadonlyArray<Scenario> = [
  scenario("targets: the JSON-RPC endpoint is not reached through dot segments, %2e or backslashes (404)", async (t) => {
    const path = new URL(t.url).pathname
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "x" } })
    // The endpoint as published answers; the same request through each other spelling does not.
    const direct = await rawRequest(t.url, "POST", path, body, t.timeoutMs)
    check(direct.text.includes('"jsonrpc"'), `POST ${path} should answer: ${show(direct.text.slice(0, 200))}`)
    for (const target of unnormalised(path)) await expectNotRouted(t, "POST", target, body)
  }),

  scenario("targets: the agent card is not reached through dot segments, %2e or backslashes (404)", async (t) => {
    for (const target of unnormalised("/.well-known/agent-card.json")) await expectNotRouted(t, "GET", target, undefined)
  })
]
