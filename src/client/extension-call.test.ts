import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approvalMachine, reviewEventFromText } from "../../machines/approval.ts"
import type { Task } from "../../schemas/index.ts"
import type { AgentCardInput } from "../agent/agent-card-input.ts"
import { serveNode } from "../adapters/node.ts"
import type { Listening } from "../adapters/listening.ts"
import { messageText } from "../agent/messages.ts"
import { testCard } from "../../testing/runtime/fixtures.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { Workflow } from "../workflow/index.ts"
import { approvalExtension } from "../../testing/workflow/fixtures.ts"
import { A2AClient, type A2AClientOptions, userText } from "./client.ts"
import { extensionFor } from "./extension-activation.ts"
import { extensionsHeader } from "./interceptors.ts"

const APPROVAL = approvalExtension.uri
const TRACE = "https://example.com/ext/trace/v1"

// The approval workflow, on a card that also declares an extension without methods; the server fills in
// the card's URL from the address it listens on.
const { url: _url, ...base } = testCard()
const card: AgentCardInput = {
  ...base,
  capabilities: { ...base.capabilities, extensions: [{ uri: TRACE, description: "traces requests" }] }
}
const agent = Workflow.toAgent({
  card,
  machine: approvalMachine,
  input: (message) => ({ request: messageText(message), maxRevisions: 2 }),
  toEvent: (reply) => reviewEventFromText(messageText(reply)),
  extensions: [approvalExtension]
})

let server: Listening
beforeAll(async () => {
  server = await serveNode(await A2AServer.make(agent))
})
afterAll(() => server.close({ graceMs: 0 }))

const quick: A2AClientOptions = { timeoutMs: 10_000, retries: 0 }
const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)

/** A client that records, per operation, the extension URIs the server echoed as activated. */
const observed = async (init: { url: string } | { endpoint: string }, options: A2AClientOptions = {}) => {
  const activated = new Map<string, ReadonlyArray<string>>()
  const client = await run(A2AClient.make(init, {
    ...quick,
    ...options,
    interceptors: [...(options.interceptors ?? []), extensionsHeader([], (uris, operation) => activated.set(operation, [...uris].sort()))]
  }))
  return { client, activated }
}

/** A task of the workflow waiting for review, ready for approval/approve. */
const draft = async (client: A2AClient): Promise<string> => {
  const task = await run(client.sendMessage(userText("Write a launch note"))) as Task
  expect(task.status.state).toBe("input-required")
  return task.id
}

describe("callExtension activates the extension it calls", () => {
  it("sends the URI the card declares the method under, with no header from the caller", async () => {
    const { client, activated } = await observed({ url: server.url })
    const approved = await run(client.callExtension("approval/approve", { taskId: await draft(client) })) as Task
    expect(approved.status.state).toBe("completed")
    expect(activated.get("approval/approve")).toEqual([APPROVAL])
  })

  it("merges it with the URIs the call's headers, the client's headers and interceptors ask for", async () => {
    const perCall = await observed({ url: server.url })
    await run(perCall.client.callExtension("approval/approve", { taskId: await draft(perCall.client) }, {
      headers: { "x-a2a-extensions": TRACE }
    }))
    expect(perCall.activated.get("approval/approve")).toEqual([APPROVAL, TRACE].sort())

    const clientWide = await observed({ url: server.url }, { headers: { "X-A2A-Extensions": TRACE } })
    await run(clientWide.client.callExtension("approval/approve", { taskId: await draft(clientWide.client) }))
    expect(clientWide.activated.get("approval/approve")).toEqual([APPROVAL, TRACE].sort())

    const intercepted = await observed({ url: server.url }, { interceptors: [extensionsHeader([TRACE])] })
    await run(intercepted.client.callExtension("approval/approve", { taskId: await draft(intercepted.client) }))
    expect(intercepted.activated.get("approval/approve")).toEqual([APPROVAL, TRACE].sort())
  })

  it("takes the URI from options.extension when there is no card to look in", async () => {
    const bare = await observed({ endpoint: `${server.url}/` })
    await run(bare.client.callExtension("approval/approve", { taskId: await draft(bare.client) }, { extension: APPROVAL }))
    expect(bare.activated.get("approval/approve")).toEqual([APPROVAL])
    // Without a card and without the option, the call goes out as given: nothing is activated.
    bare.activated.clear()
    await run(bare.client.callExtension("approval/approve", { taskId: await draft(bare.client) }))
    expect(bare.activated.get("approval/approve")).toBeUndefined()
  })
})

describe("extensionFor", () => {
  const declared = agent.card
  it("finds the declaration listing the method, else one listing a method of its namespace", () => {
    expect(extensionFor(declared, "approval/approve")).toBe(APPROVAL)
    expect(extensionFor(declared, "approval/escalate")).toBe(APPROVAL)
  })

  it("finds nothing for another namespace, a name without one, or a card without methods in its declarations", () => {
    expect(extensionFor(declared, "billing/charge")).toBeUndefined()
    expect(extensionFor(declared, "approve")).toBeUndefined()
    expect(extensionFor({ ...declared, capabilities: { extensions: [{ uri: TRACE }, { uri: APPROVAL, params: { methods: "approval/approve" } }] } }, "approval/approve")).toBeUndefined()
    expect(extensionFor(undefined, "approval/approve")).toBeUndefined()
  })
})
