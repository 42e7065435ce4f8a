/**
 * Properties of the 1.0 codec, on values of the runtime's model generated from the 0.3 schemas:
 * - every writer emits JSON that the 1.0 schema accepts (strict output: no `kind`, no `final`, 1.0 enums);
 * - reading it back gives the model value again, up to what 1.0 calls the same (empty strings and lists are
 *   absent, `final` is the state's, several push schemes keep the first);
 * - hence a task's 0.3 and 1.0 views agree: both read back as the same model task.
 */
import { Arbitrary, Effect, Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as model from "../index.ts"
import { dataPartCompatKey } from "../parts.ts"
import { SendMessageRequest, StreamResponse, SendMessageResponse, Task as V1Task, TaskPushNotificationConfig as V1PushConfig, v1Methods } from "./index.ts"
import { cardFromV1, cardToV1 } from "./card.ts"
import { a2aErrorDomain, errorFromV1, errorFromV1Status, errorInfoType, reasonOf, toV1JsonRpcError, toV1StatusBody } from "./errors.ts"
import {
  listTasksFromV1,
  pushConfigFromV1,
  pushConfigListFromV1,
  pushConfigResultFromV1,
  sendParamsFromV1,
  sendResponseFromV1,
  streamResponseFromV1,
  taskFromV1,
  taskPushConfigFromV1
} from "./from-v1.ts"
import {
  cancelTaskRequestJson,
  createPushConfigRequestJson,
  deletePushConfigRequestJson,
  extendedCardRequestJson,
  getPushConfigRequestJson,
  getTaskRequestJson,
  listPushConfigsRequestJson,
  listTasksRequestJson,
  sendMessageRequestJson,
  subscribeToTaskRequestJson
} from "./request-json.ts"
import { decodeV1Response } from "./decode.ts"
import { makeStreamResponseJson, pushConfigJson, sendResponseJson, streamResponseJson, taskJson } from "./v1-json.ts"

const runs = 150

const check = async <A>(values: Arbitrary.Arbitrary<A>, property: (value: A) => void) => {
  const result = await Effect.runPromise(Arbitrary.checkEffect(values, (a) => {
    property(a)
    return true
  }, { runs }))
  expect(Arbitrary.formatCheckFailure(result)).toBeUndefined()
}

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Generated values made to look like the runtime's: timestamps are ISO 8601 (the runtime writes them so; the
 * model leaves them free strings) and inline bytes are base64 (1.0 `raw` is bytes).
 */
const asRuntimeWrites = (u: unknown, key?: string): unknown => {
  if (Array.isArray(u)) return u.map((x) => asRuntimeWrites(x))
  if (!isObject(u)) return u
  if (key === "metadata" || key === "data") return u
  const out: Json = {}
  for (const [k, v] of Object.entries(u)) {
    if (k === "timestamp" && typeof v === "string") out[k] = new Date(Date.UTC(2026, 0, 1) + (v.length * 7919) % 1e10).toISOString()
    else if (k === "bytes" && typeof v === "string") out[k] = Buffer.from(v).toString("base64")
    else out[k] = asRuntimeWrites(v, k)
  }
  return out
}

const generated = <S extends Schema.Codec<any, any>>(schema: S): Arbitrary.Arbitrary<S["Type"]> => {
  const decode = Schema.decodeUnknownSync(schema)
  return Arbitrary.schema(schema).pipe(Arbitrary.map((a) => decode(asRuntimeWrites(JSON.parse(JSON.stringify(a))))))
}

const optionalStrings = new Set(["mediaType", "filename", "name", "mimeType", "description", "taskId", "contextId"])
const optionalLists = new Set(["extensions", "referenceTaskIds", "history", "artifacts"])
const endsStream = new Set(["completed", "failed", "canceled", "rejected", "input-required", "auth-required"])

/** What the 1.0 codec reads back for a model value: the same, as 1.0 says it (see the module comment). */
const as1_0Reads = (u: unknown, key?: string): unknown => {
  if (Array.isArray(u)) return u.map((x) => as1_0Reads(x))
  if (!isObject(u) || key === "metadata" || key === "data" || key === "params") return u
  const out: Json = {}
  for (const [k, v] of Object.entries(u)) {
    const required = (k === "contextId" && u["kind"] === "task") ||
      ((k === "taskId" || k === "contextId") && (u["kind"] === "status-update" || u["kind"] === "artifact-update"))
    if (optionalStrings.has(k) && v === "" && !required) continue
    if (optionalLists.has(k) && Array.isArray(v) && v.length === 0) continue
    out[k] = as1_0Reads(v, k)
  }
  if (out["kind"] === "status-update") out["final"] = endsStream.has((out["status"] as Json)["state"] as string)
  if (out["kind"] === "data" && isObject(out["metadata"]) && out["metadata"][dataPartCompatKey] === true && Object.hasOwn(out["data"] as Json, "value")) {
    const value = (out["data"] as Json)["value"]
    const { [dataPartCompatKey]: _flag, ...rest } = out["metadata"]
    if (isObject(value)) {
      out["data"] = value
      if (Object.keys(rest).length === 0) delete out["metadata"]
      else out["metadata"] = rest
    }
  }
  if (out["kind"] === "artifact-update") {
    if (out["append"] === false) delete out["append"]
    if (out["lastChunk"] === false) delete out["lastChunk"]
  }
  return out
}

const viaJson = (u: unknown): unknown => JSON.parse(JSON.stringify(u))

const ok = <A>(r: Result.Result<A, unknown>): A => {
  if (Result.isFailure(r)) throw new Error(String(r.failure))
  return r.success
}

const strictlyV1 = (json: string) => {
  expect(json).not.toMatch(/"kind":|"final":/)
  return JSON.parse(json) as unknown
}

describe("the 1.0 writers", () => {
  it("write stream events that the 1.0 StreamResponse schema accepts and that read back as the event", () =>
    check(Arbitrary.array(generated(model.StreamResult), { maxLength: 5 }), (events) => {
      const cached = makeStreamResponseJson()
      for (const event of events) {
        const json = streamResponseJson(event)
        expect(cached(event)).toBe(json)
        const wire = strictlyV1(json)
        const decoded = ok(Schema.decodeUnknownResult(StreamResponse)(wire))
        expect(viaJson(streamResponseFromV1(decoded))).toEqual(viaJson(as1_0Reads(event)))
      }
    }))

  it("write SendMessage answers that read back as the Task or Message", () =>
    check(generated(model.SendMessageResult), (result) => {
      const wire = strictlyV1(sendResponseJson(result))
      const decoded = ok(Schema.decodeUnknownResult(SendMessageResponse)(wire))
      expect(viaJson(sendResponseFromV1(decoded))).toEqual(viaJson(as1_0Reads(result)))
    }))

  it("write push configs flat, with the first authentication scheme", () =>
    check(generated(model.TaskPushNotificationConfig), (config) => {
      const wire = JSON.parse(pushConfigJson(config.taskId, config.pushNotificationConfig)) as Json
      const decoded = ok(Schema.decodeUnknownResult(V1PushConfig)(wire))
      expect(decoded.taskId).toBe(config.taskId)
      const c = config.pushNotificationConfig
      const scheme = c.authentication?.schemes[0] || undefined
      expect(pushConfigFromV1(decoded)).toEqual({
        url: c.url,
        ...(c.id === undefined || c.id === "" ? {} : { id: c.id }),
        ...(c.token === undefined || c.token === "" ? {} : { token: c.token }),
        ...(scheme === undefined ? {} : {
          authentication: { schemes: [scheme], ...(c.authentication?.credentials ? { credentials: c.authentication.credentials } : {}) }
        })
      })
    }))
})

describe("a task's 0.3 and 1.0 views", () => {
  it("read back as the same model task", () =>
    check(generated(model.Task), (task) => {
      const view03 = Schema.decodeUnknownSync(model.Task)(viaJson(task))
      const view10 = taskFromV1(ok(decodeV1Response.task(strictlyV1(taskJson(task)))))
      expect(viaJson(view10)).toEqual(viaJson(as1_0Reads(view03)))
    }))

  it("leave out history and artifacts when asked to, and write `artifacts: []` when a listing asks for them", () => {
    const task = Schema.decodeUnknownSync(model.Task)({
      kind: "task", id: "t", contextId: "c", status: { state: "completed" },
      history: [{ kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "hi" }] }]
    })
    expect(JSON.parse(taskJson(task, { history: false }))).toEqual({ id: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } })
    expect(JSON.parse(taskJson(task, { history: false, artifacts: "always" }))).toMatchObject({ artifacts: [] })
    expect(Schema.decodeUnknownSync(V1Task)(JSON.parse(taskJson(task)))).toMatchObject({ history: [{ role: "ROLE_USER", parts: [{ text: "hi" }] }] })
  })
})

describe("the 1.0 request writers", () => {
  const configurationAs1_0Reads = (c: model.MessageSendConfiguration | undefined): Json | undefined => {
    if (c === undefined) return undefined
    const out: Json = {}
    if (c.acceptedOutputModes !== undefined && c.acceptedOutputModes.length > 0) out["acceptedOutputModes"] = c.acceptedOutputModes
    if (c.historyLength !== undefined && c.historyLength > 0) out["historyLength"] = c.historyLength
    const push = c.pushNotificationConfig
    if (push !== undefined) {
      const scheme = push.authentication?.schemes[0] || undefined
      out["pushNotificationConfig"] = {
        url: push.url,
        ...(push.id ? { id: push.id } : {}),
        ...(push.token ? { token: push.token } : {}),
        ...(scheme === undefined ? {} : { authentication: { schemes: [scheme], ...(push.authentication?.credentials ? { credentials: push.authentication.credentials } : {}) } })
      }
    }
    if (c.blocking === false) out["blocking"] = false
    return out
  }

  it("write SendMessageRequest that the 1.0 schema accepts and that reads back as the message/send params", () =>
    check(generated(model.MessageSendParams), (params) => {
      const decoded = ok(Schema.decodeUnknownResult(SendMessageRequest)(strictlyV1(sendMessageRequestJson(params, "t-1"))))
      expect(decoded.tenant).toBe("t-1")
      const back = sendParamsFromV1(decoded)
      expect(viaJson(back.message)).toEqual(viaJson(as1_0Reads(params.message)))
      expect(back.metadata).toEqual(params.metadata)
      const configuration = configurationAs1_0Reads(params.configuration)
      expect(back.configuration ?? {}).toEqual(configuration ?? {})
    }))

  it("say blocking: false as returnImmediately: true, and a limit of history only when it limits", () => {
    const params = { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "hi" }] } } as const
    expect(JSON.parse(sendMessageRequestJson({ ...params, configuration: { blocking: false, historyLength: 0 } }))).toEqual({
      message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] },
      configuration: { returnImmediately: true }
    })
    expect(JSON.parse(sendMessageRequestJson({ ...params, configuration: { blocking: true } }))).not.toHaveProperty("configuration")
    expect(JSON.parse(getTaskRequestJson({ id: "t", historyLength: 0 }))).toEqual({ id: "t" })
    expect(JSON.parse(getTaskRequestJson({ id: "t", historyLength: 3 }, "acme"))).toEqual({ tenant: "acme", id: "t", historyLength: 3 })
  })

  it("write every other request with 1.0's names, tenant first", () => {
    const schemas = v1Methods
    const decode = <S extends Schema.Codec<any, any>>(schema: S, json: string) => ok(Schema.decodeUnknownResult(schema)(strictlyV1(json)))
    expect(decode(schemas.CancelTask.params, cancelTaskRequestJson({ id: "t", metadata: { why: "done" } }, "acme")))
      .toEqual({ tenant: "acme", id: "t", metadata: { why: "done" } })
    expect(decode(schemas.SubscribeToTask.params, subscribeToTaskRequestJson({ id: "t", metadata: { dropped: true } }))).toEqual({ id: "t" })
    expect(decode(schemas.GetTaskPushNotificationConfig.params, getPushConfigRequestJson({ id: "t", pushNotificationConfigId: "c" })))
      .toEqual({ taskId: "t", id: "c" })
    expect(decode(schemas.DeleteTaskPushNotificationConfig.params, deletePushConfigRequestJson({ id: "t", pushNotificationConfigId: "c" }, "acme")))
      .toEqual({ tenant: "acme", taskId: "t", id: "c" })
    expect(decode(schemas.ListTaskPushNotificationConfigs.params, listPushConfigsRequestJson({ id: "t" }, "acme"))).toEqual({ taskId: "t", tenant: "acme" })
    expect(decode(schemas.GetExtendedAgentCard.params, extendedCardRequestJson("acme"))).toEqual({ tenant: "acme" })
    expect(JSON.parse(extendedCardRequestJson())).toEqual({})
    expect(decode(schemas.ListTasks.params, listTasksRequestJson({
      contextId: "c", status: "input-required", pageSize: 10, pageToken: "p", historyLength: 2, statusTimestampAfter: "2026-01-01T00:00:00.000Z", includeArtifacts: true
    }, "acme"))).toEqual({
      tenant: "acme", contextId: "c", status: "TASK_STATE_INPUT_REQUIRED", pageSize: 10, pageToken: "p", historyLength: 2,
      statusTimestampAfter: "2026-01-01T00:00:00.000Z", includeArtifacts: true
    })
    expect(JSON.parse(listTasksRequestJson({}))).toEqual({})
    expect(JSON.parse(listTasksRequestJson({ historyLength: 0, status: "unknown", includeArtifacts: false }))).toEqual({ includeArtifacts: false })
  })

  it("write push configs flat, the task named by taskId", () =>
    check(generated(model.TaskPushNotificationConfig), (config) => {
      const decoded = ok(Schema.decodeUnknownResult(V1PushConfig)(strictlyV1(createPushConfigRequestJson(config))))
      expect(JSON.parse(createPushConfigRequestJson(config))).toEqual(JSON.parse(pushConfigJson(config.taskId, config.pushNotificationConfig)))
      expect(pushConfigResultFromV1(decoded, "other")).toEqual(taskPushConfigFromV1(decoded, config.taskId === "" ? "other" : config.taskId))
    }))
})

describe("1.0 answers read by clients", () => {
  it("a push config list, and a ListTasks page", () => {
    const list = ok(decodeV1Response.pushConfigList({ configs: [{ id: "c", url: "https://h.example/x", authentication: { scheme: "Bearer" } }] }))
    expect(pushConfigListFromV1(list, "t")).toEqual([{ taskId: "t", pushNotificationConfig: { id: "c", url: "https://h.example/x", authentication: { schemes: ["Bearer"] } } }])
    expect(pushConfigListFromV1(ok(decodeV1Response.pushConfigList({})), "t")).toEqual([])
    const page = ok(decodeV1Response.listTasks({
      tasks: [{ id: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } }], nextPageToken: "", pageSize: 50, totalSize: 1
    }))
    expect(listTasksFromV1(page)).toEqual({
      tasks: [{ kind: "task", id: "t", contextId: "c", status: { state: "working" } }], nextPageToken: "", pageSize: 50, totalSize: 1
    })
  })

  it("errors: the ErrorInfo reason names the class, else the code; REST bodies without one by their status", () => {
    for (const Class of model.catalogue) {
      const error = new Class({ message: "m" })
      const expected = error instanceof model.TaskTerminal ? model.UnsupportedOperation : Class
      expect(errorFromV1(toV1JsonRpcError(error))).toBeInstanceOf(expected)
      const fromStatus = errorFromV1Status(toV1StatusBody(error))
      if (reasonOf(error.code) !== undefined || [-32602, -32603].includes(error.code)) expect(fromStatus).toBeInstanceOf(expected)
    }
    const info = (reason: string) => [{ "@type": errorInfoType, reason, domain: a2aErrorDomain }]
    // A peer whose code disagrees with its ErrorInfo: the reason wins (it is what 1.0 says names the error).
    expect(errorFromV1({ code: -32000, message: "gone", data: info("TASK_NOT_FOUND") })).toMatchObject({ _tag: "TaskNotFound", message: "gone" })
    expect(errorFromV1({ code: -32001, message: "x", data: [{ "@type": errorInfoType, reason: "TASK_NOT_FOUND", domain: "example.com" }, 7, null] }))
      .toMatchObject({ _tag: "TaskNotFound" })
    expect(errorFromV1({ code: -32050, message: "custom" })).toMatchObject({ _tag: "RemoteError", code: -32050 })
    expect(errorFromV1Status({ error: { code: 404, status: "NOT_FOUND", message: "no route" } })).toBeUndefined()
    expect(errorFromV1Status({ error: { code: 400, status: "INVALID_ARGUMENT", message: "bad" } })).toBeInstanceOf(model.InvalidParams)
    expect(errorFromV1Status({ error: { code: 404, status: "NOT_FOUND", message: "t", details: info("TASK_NOT_FOUND") } })).toBeInstanceOf(model.TaskNotFound)
  })
})

describe("the card read back from 1.0", () => {
  const interfaces = [
    { url: "https://a.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    { url: "https://a.example/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    { url: "https://a.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "0.3" }
  ]

  it("is the inverse of cardToV1 on what 1.0 says: writing it again gives the same 1.0 card", () =>
    check(generated(model.AgentCard), (card) => {
      const v1 = ok(decodeV1Response.card(JSON.parse(JSON.stringify(cardToV1(card, interfaces)))))
      const back = cardFromV1(v1)
      expect(Result.isSuccess(Schema.decodeUnknownResult(model.AgentCard)(viaJson(back)))).toBe(true)
      expect(viaJson(cardToV1(back, v1.supportedInterfaces))).toEqual(viaJson(v1))
    }))

  it("takes url, transport and version from the preferred interface, and 0.3's names for capabilities and security", () => {
    const v1 = ok(decodeV1Response.card({
      name: "n", description: "d", version: "1", supportedInterfaces: interfaces,
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: {
        key: { apiKeySecurityScheme: { location: "header", name: "X-Key" } },
        oauth: { oauth2SecurityScheme: { flows: { deviceCode: { deviceAuthorizationUrl: "https://a.example/d", tokenUrl: "https://a.example/t", scopes: {} } } } }
      },
      securityRequirements: [{ schemes: { key: {}, oauth: { list: ["read"] } } }],
      defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
      skills: [{ id: "s", name: "s", description: "s", tags: [], securityRequirements: [{ schemes: { key: {} } }] }],
      signatures: [{ protected: "p", signature: "s" }]
    }))
    expect(cardFromV1(v1)).toEqual({
      protocolVersion: "1.0", name: "n", description: "d", url: "https://a.example/rpc", preferredTransport: "JSONRPC",
      additionalInterfaces: [{ url: "https://a.example/rest", transport: "HTTP+JSON" }],
      version: "1",
      capabilities: { streaming: true },
      securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" }, oauth: { type: "oauth2", flows: {} } },
      security: [{ key: [], oauth: ["read"] }],
      defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
      skills: [{ id: "s", name: "s", description: "s", tags: [], security: [{ key: [] }] }],
      supportsAuthenticatedExtendedCard: true
    })
  })
})
