/**
 * Hostile request bodies and paths against a real server on 127.0.0.1, over JSON-RPC and REST: prototype keys
 * that would smuggle a skill past authentication, bodies nested too deeply, ids and webhook URLs too long,
 * parts without `kind`, and request targets that start with `//`. Every refusal is the spec's error with a
 * short message and no stack, and none of them leaves a task behind.
 */
import { createServer, request as httpRequest } from "node:http"
import { HttpRouter, HttpServer } from "effect/http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Agent } from "../agent/agent.ts"
import { messageText } from "../agent/messages.ts"
import { serveNode } from "../adapters/node.ts"
import type { Listening } from "../adapters/listening.ts"
import { apiKeyAuthenticator } from "../auth/api-key.ts"
import { A2AServer, type A2AServerHandle } from "./a2a-server.ts"

const PARTNER = { "x-partner-key": "partner-key-1" }
const ADMIN = { "x-admin-key": "admin-key-1" }

/**
 * Every caller needs a key; the partner key is allowed the default skill only, while the `admin` skill has its
 * own requirement. The agent reports the skill it sees in `metadata.skill`, read as agents read it.
 */
const skilledAgent = Agent.make({
  card: {
    name: "skilled agent",
    description: "Reports the skill a message runs.",
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      { id: "chat", name: "Chat", description: "The default skill.", tags: ["default"] },
      { id: "admin", name: "Admin", description: "Administration.", tags: ["admin"], security: [{ adminKey: [] }] }
    ],
    securitySchemes: {
      partnerKey: { type: "apiKey", in: "header", name: "x-partner-key" },
      adminKey: { type: "apiKey", in: "header", name: "x-admin-key" }
    },
    security: [{ partnerKey: [] }, { adminKey: [] }]
  },
  execute: (ctx) => {
    const metadata = ctx.message.metadata as { readonly skill?: unknown } | undefined
    return ctx.complete(`ran: ${String(metadata?.skill ?? "none")} (${messageText(ctx.message)})`)
  }
})

let handle: A2AServerHandle
let listening: Listening
beforeAll(async () => {
  handle = await A2AServer.make(skilledAgent, {
    authentication: {
      authenticators: {
        partnerKey: apiKeyAuthenticator({ keys: { "partner-key-1": { id: "partner" } } }),
        adminKey: apiKeyAuthenticator({ keys: { "admin-key-1": { id: "admin" } } })
      }
    },
    push: { allow: ["127.0.0.1"] }
  })
  listening = await serveNode(handle)
})
afterAll(async () => {
  await listening.close({ graceMs: 0 })
})

const taskCount = async () => (await Effect.runPromise(handle.runtime.store.list())).length

interface Answer {
  readonly status: number
  readonly text: string
  /** The JSON body, or the JSON of the first event of an SSE answer. */
  readonly json: any
  readonly sse: boolean
}

/** One request with a raw target and a raw body, so nothing on the way rewrites either. */
const send = (method: string, target: string, body: string | undefined, headers: Record<string, string> = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const { hostname, port } = new URL(listening.url)
    const req = httpRequest({ host: hostname, port, method, path: target, headers: { "content-type": "application/json", ...headers } }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        const sse = (res.headers["content-type"] ?? "").startsWith("text/event-stream")
        const payload = sse ? /^data: (.*)$/m.exec(text)?.[1] ?? "" : text
        let json: unknown
        try {
          json = payload === "" ? undefined : JSON.parse(payload)
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, text, json, sse })
      })
    })
    req.on("error", reject)
    req.end(body)
  })

const rpc = (body: string, headers: Record<string, string> = PARTNER) => send("POST", "/", body, headers)
const rest = (method: string, path: string, body?: string, headers: Record<string, string> = PARTNER) =>
  send(method, path, body, headers)

/** A JSON-RPC `message/send` body whose message carries `metadata`, written as raw JSON text. */
const rpcSend = (metadataJson: string, extra = "") =>
  `{"jsonrpc":"2.0","id":"h1","method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"${crypto.randomUUID()}","parts":[{"kind":"text","text":"hi"}],"metadata":${metadataJson}${extra}}}}`

/** The REST `message:send` body, plain spelling. */
const restSend = (metadataJson: string) =>
  `{"message":{"kind":"message","role":"user","messageId":"${crypto.randomUUID()}","parts":[{"kind":"text","text":"hi"}],"metadata":${metadataJson}}}`

/** Answers must be short, stack-free spec errors. */
const expectCleanError = (answer: Answer, code: number, binding: "jsonrpc" | "rest", status: number) => {
  expect(answer.status).toBe(status)
  const error = binding === "jsonrpc" ? answer.json?.error : answer.json
  expect(error, answer.text.slice(0, 200)).toMatchObject({ code, message: expect.any(String) })
  if (binding === "jsonrpc") expect(answer.json.jsonrpc).toBe("2.0")
  expect(answer.text.length).toBeLessThan(2_000)
  expect(answer.text).not.toMatch(/\bat .*\.(ts|js):\d+|Error:/)
}

const hostileMetadata = [
  String.raw`{"\u005f_proto__":{"skill":"admin"}}`,
  String.raw`{"\u005F\u005Fproto\u005F\u005F":{"skill":"admin"}}`,
  `{"__proto__":{"skill":"admin"}}`,
  `{"constructor":{"prototype":{"skill":"admin"}}}`
]

describe("a skill smuggled in through a prototype key never runs", () => {
  it("the admin skill needs the admin key, and the agent reports the skill it runs (the controls)", async () => {
    expect((await rpc(rpcSend(`{"skill":"admin"}`))).status).toBe(401)
    expect((await rest("POST", "/v1/message:send", restSend(`{"skill":"admin"}`))).status).toBe(401)
    const admin = await rpc(rpcSend(`{"skill":"admin"}`), ADMIN)
    expect(admin.json.result.status.message.parts[0].text).toBe("ran: admin (hi)")
    const chat = await rpc(rpcSend(`{"skill":"chat"}`))
    expect(chat.json.result.status.message.parts[0].text).toBe("ran: chat (hi)")
  })

  it.each(hostileMetadata)("over JSON-RPC, metadata %s runs no skill for a partner key", async (metadata) => {
    const answer = await rpc(rpcSend(metadata))
    expect(answer.status).toBe(200)
    expect(answer.json.result.status.message.parts[0].text).toBe("ran: none (hi)")
  })

  it.each(hostileMetadata)("over REST, metadata %s runs no skill for a partner key", async (metadata) => {
    const answer = await rest("POST", "/v1/message:send", restSend(metadata))
    expect(answer.status).toBe(200)
    expect(answer.json.task.status.message.content[0].text).toBe("ran: none (hi)")
  })

  it("over REST, a skill named in the protobuf spelling is authenticated like one in the plain spelling", async () => {
    const body = JSON.stringify({
      request: { message_id: crypto.randomUUID(), role: "ROLE_USER", content: [{ text: "hi" }], metadata: { skill: "admin" } }
    })
    expect((await rest("POST", "/v1/message:send", body)).status).toBe(401)
    const admin = await rest("POST", "/v1/message:send", body, ADMIN)
    expect(admin.json.task.status.message.content[0].text).toBe("ran: admin (hi)")
  })
})

describe("a body nested deeper than 64 levels is refused before any task exists", () => {
  const nested = (levels: number) => `{"d":${"[".repeat(levels)}${"]".repeat(levels)}}`

  it("over JSON-RPC: -32602, for message/send and message/stream, with no task created", async () => {
    const before = await taskCount()
    for (const method of ["message/send", "message/stream"]) {
      const answer = await rpc(rpcSend(nested(10_000)).replace("message/send", method))
      // A streaming method's refusal is an SSE error event, like every other answer to it.
      expect(answer.sse).toBe(method === "message/stream")
      expectCleanError(answer, -32602, "jsonrpc", 200)
      expect(answer.json.id).toBe("h1")
      expect(answer.json.error.message).toContain("64 levels")
    }
    // 64 levels exactly still pass: envelope, params, message, metadata and 60 arrays.
    const atBound = await rpc(rpcSend(nested(60)))
    expect(atBound.json.result.status.state).toBe("completed")
    expect(await taskCount()).toBe(before + 1)
    expectCleanError(await rpc(rpcSend(nested(61))), -32602, "jsonrpc", 200)
    expect(await taskCount()).toBe(before + 1)
  })

  it("over REST: 400 with -32602, with no task created", async () => {
    const before = await taskCount()
    for (const path of ["/v1/message:send", "/v1/message:stream"]) {
      const answer = await rest("POST", path, restSend(nested(10_000)))
      expectCleanError(answer, -32602, "rest", 400)
      expect(answer.json.message).toContain("64 levels")
    }
    expect(await taskCount()).toBe(before)
  })

  it("an unauthenticated caller gets 401 for it, not the decode error", async () => {
    expect((await rpc(rpcSend(nested(10_000)), {})).status).toBe(401)
    expect((await rest("POST", "/v1/message:send", restSend(nested(10_000)), {})).status).toBe(401)
  })
})

describe("ids are at most 256 characters and webhook URLs at most 2 KiB: -32602 otherwise", () => {
  const huge = "t".repeat(5_000_000)
  const long = "t".repeat(257)

  it("over JSON-RPC: a 5 MB task id is refused without being echoed", async () => {
    for (const method of ["tasks/get", "tasks/cancel", "tasks/pushNotificationConfig/list"]) {
      const answer = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { id: huge } }))
      expectCleanError(answer, -32602, "jsonrpc", 200)
      expect(answer.json.error.message).toBe("Invalid params: at id: an id may be at most 256 characters long")
    }
  })

  it("over JSON-RPC: every id of a message, and push config ids, are bounded", async () => {
    const message = { kind: "message", role: "user", messageId: "m", parts: [{ kind: "text", text: "hi" }] }
    const bodies = [
      { method: "message/send", params: { message: { ...message, messageId: long } } },
      { method: "message/send", params: { message: { ...message, taskId: long } } },
      { method: "message/send", params: { message: { ...message, contextId: long } } },
      { method: "message/send", params: { message: { ...message, referenceTaskIds: [long] } } },
      { method: "tasks/pushNotificationConfig/get", params: { id: "t", pushNotificationConfigId: long } },
      { method: "tasks/pushNotificationConfig/delete", params: { id: "t", pushNotificationConfigId: long } },
      { method: "tasks/pushNotificationConfig/set", params: { taskId: "t", pushNotificationConfig: { url: "http://127.0.0.1:9/", id: long } } }
    ]
    const before = await taskCount()
    for (const body of bodies) {
      const answer = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 8, ...body }))
      expectCleanError(answer, -32602, "jsonrpc", 200)
      expect(answer.json.error.message).toMatch(/an id may be at most 256 characters long$/)
      expect(answer.text).not.toContain(long)
    }
    expect(await taskCount()).toBe(before)
  })

  it("over JSON-RPC: a webhook URL over 2 KiB is refused, inline or set", async () => {
    const url = `http://127.0.0.1:9/${"p".repeat(2_048)}`
    const set = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tasks/pushNotificationConfig/set", params: { taskId: "t", pushNotificationConfig: { url } } }))
    expectCleanError(set, -32602, "jsonrpc", 200)
    expect(set.json.error.message).toContain("pushNotificationConfig.url")
    const inline = await rpc(rpcSend(`{}`).replace(`"metadata":{}}`, `"metadata":{}},"configuration":{"pushNotificationConfig":{"url":"${url}"}}`))
    expectCleanError(inline, -32602, "jsonrpc", 200)
    expect(inline.json.error.message).toContain("configuration.pushNotificationConfig.url")
  })

  it("over REST: ids in the path, in the body and webhook URLs are bounded", async () => {
    const before = await taskCount()
    const answers = [
      await rest("GET", `/v1/tasks/${long}`),
      await rest("POST", `/v1/tasks/${long}:cancel`),
      await rest("GET", `/v1/tasks/${long}:subscribe`),
      await rest("GET", `/v1/tasks/${long}/pushNotificationConfigs`),
      await rest("GET", `/v1/tasks/t/pushNotificationConfigs/${long}`),
      await rest("DELETE", `/v1/tasks/t/pushNotificationConfigs/${long}`),
      await rest("POST", `/v1/tasks/${long}/pushNotificationConfigs`, JSON.stringify({ url: "http://127.0.0.1:9/" })),
      await rest("POST", "/v1/tasks/t/pushNotificationConfigs", JSON.stringify({ url: `http://127.0.0.1:9/${"p".repeat(2_048)}` })),
      await rest("POST", "/v1/message:send", JSON.stringify({ message: { kind: "message", role: "user", messageId: long, parts: [{ kind: "text", text: "x" }] } }))
    ]
    for (const answer of answers) {
      expectCleanError(answer, -32602, "rest", 400)
      expect(answer.text).not.toContain(long)
    }
    expect(await taskCount()).toBe(before)
  })
})

describe("parts must carry kind", () => {
  it("over JSON-RPC, a part without kind or with an unknown one is -32602", async () => {
    for (const part of [`{"text":"hi"}`, `{"data":{"a":1}}`, `{"file":{"uri":"https://x.example/f"}}`, `{"kind":"image","text":"hi"}`]) {
      const body = rpcSend(`{}`).replace(`[{"kind":"text","text":"hi"}]`, `[${part}]`)
      const answer = await rpc(body)
      expectCleanError(answer, -32602, "jsonrpc", 200)
      expect(answer.json.error.message).toMatch(/message\.parts\[0\]/)
    }
  })
})

describe("request targets starting with // are not found, never a server error", () => {
  const targets: ReadonlyArray<readonly [string, string]> = [
    ["POST", "//"],
    ["POST", "///"],
    ["POST", "//?x=1"],
    ["POST", "//v1/message:send"],
    ["GET", "//v1/card"],
    ["GET", "//.well-known/agent-card.json"],
    ["GET", "//v1/tasks/t1"]
  ]

  it.each(targets)("%s %s answers 404 or 405, with or without credentials", async (method, target) => {
    for (const headers of [PARTNER, {}]) {
      const answer = await send(method, target, method === "POST" ? rpcSend(`{}`) : undefined, headers)
      expect([404, 405], `${method} ${target}: ${answer.status} ${answer.text.slice(0, 100)}`).toContain(answer.status)
      expect(answer.text).not.toMatch(/\bat .*\.(ts|js):\d+/)
    }
  })

  it("the ordinary targets still answer", async () => {
    expect((await send("GET", "/.well-known/agent-card.json", undefined, {})).status).toBe(200)
    expect((await rpc(rpcSend(`{}`))).json.result.status.state).toBe("completed")
    expect((await rest("GET", "/v1/tasks/unknown-task")).status).toBe(404)
  })
})

describe("mounted in an app's own router, which folds // into / as the router does by default", () => {
  it("POST // is not found there either, with or without credentials, and POST / is served", async () => {
    const scope = Effect.runSync(Scope.make())
    const served = HttpRouter.serve(A2AServer.layer(skilledAgent, {
      authentication: {
        authenticators: {
          partnerKey: apiKeyAuthenticator({ keys: { "partner-key-1": { id: "partner" } } }),
          adminKey: apiKeyAuthenticator({ keys: { "admin-key-1": { id: "admin" } } })
        }
      }
    }), { disableListenLog: true, disableLogger: true }).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
    )
    const context = await Effect.runPromise(Layer.buildWithScope(served, scope))
    const address = Context.get(context, HttpServer.HttpServer).address
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    const target = (path: string, headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${address.port}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: rpcSend(`{}`) })
    try {
      // The router folds // into / and hands it to the JSON-RPC route, which still reads the target as sent.
      expect((await target("//", {})).status).toBe(404)
      expect((await target("//", PARTNER)).status).toBe(404)
      expect((await target("/", {})).status).toBe(401)
      const answer = await target("/", PARTNER)
      expect(answer.status).toBe(200)
      expect((await answer.json()).result.status.state).toBe("completed")
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })
})
