import { describe, expect, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { AgentCard } from "../agent-card.ts"
import { SendMessageResult, StreamResult } from "../events.ts"
import { MessageSendParams } from "../params.ts"
import { TaskPushNotificationConfig } from "../push.ts"
import { Task } from "../task.ts"
import {
  cardFromRest,
  cardToRest,
  decodeRestRequest,
  decodeRestResponse,
  fromRest,
  fromRestRole,
  fromRestState,
  taskStates,
  toRest,
  toRestRole,
  toRestState
} from "./index.ts"

const runs = 40
// What a peer reads back. Generated values are compared through it too, since JSON has no -0.
const viaJson = <A>(u: A): A => JSON.parse(JSON.stringify(u)) as A
const right = <A, E>(e: Result.Result<A, E>): A => {
  if (Result.isFailure(e)) throw new Error(`expected a decoded value, got ${String(e.failure)}`)
  return e.success
}
const leftMessage = <A, E extends { message: string }>(e: Result.Result<A, E>): string => {
  if (Result.isSuccess(e)) throw new Error(`expected a failure, got ${JSON.stringify(e.success)}`)
  return e.failure.message
}

/**
 * What the 0.3 protobuf mapping reads back: the same value but for the `mediaType` and `filename` of text and
 * data parts (1.0's members, which the 0.3 `.proto` has no field for, so the 0.3 REST form leaves them out).
 */
const as03ProtoReads = <A>(u: A): A => {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip)
    if (typeof v !== "object" || v === null) return v
    const o = v as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(o)) {
      if ((o["kind"] === "text" || o["kind"] === "data") && (k === "mediaType" || k === "filename")) continue
      out[k] = k === "metadata" || k === "data" ? x : strip(x)
    }
    return out
  }
  return viaJson(strip(u)) as A
}

// Resource names (`tasks/{id}/...`) cannot carry a `/` in an id, nor be empty: the `.proto` naming scheme's own
// limit. Push configs are generated with such task ids only.
const ResourceNamedPushConfig = Schema.Struct({
  ...TaskPushNotificationConfig.fields,
  taskId: Schema.String.check(Schema.isPattern(/^[^/]{1,256}$/))
})

describe("REST mapping round trips (encode to the REST form, then decode, gives the value back)", () => {
  it.effect.prop("Task", [Task], ([t]) =>
    Effect.sync(() => {
      expect(right(decodeRestResponse.task(viaJson(toRest.task(t))))).toEqual(as03ProtoReads(t))
    }), { arbitrary: { runs } })

  it.effect.prop("every stream event, wrapped by kind", [StreamResult], ([e]) =>
    Effect.sync(() => {
      expect(right(decodeRestResponse.streamResponse(viaJson(toRest.streamResponse(e))))).toEqual(as03ProtoReads(e))
    }), { arbitrary: { runs } })

  it.effect.prop("send results", [SendMessageResult], ([r]) =>
    Effect.sync(() => {
      expect(right(decodeRestResponse.sendResponse(viaJson(toRest.sendResponse(r))))).toEqual(as03ProtoReads(r))
    }), { arbitrary: { runs } })

  it.effect.prop("send requests; a configuration always says whether it blocks", [MessageSendParams], ([p]) =>
    Effect.sync(() => {
      const expected = p.configuration === undefined
        ? p
        : { ...p, configuration: { ...p.configuration, blocking: p.configuration.blocking ?? true } }
      expect(right(decodeRestRequest.sendParams(viaJson(toRest.sendMessageRequest(p))))).toEqual(as03ProtoReads(expected))
    }), { arbitrary: { runs } })

  it.effect.prop(
    "task push configs, alone and as a creation request",
    [ResourceNamedPushConfig],
    ([c]) =>
      Effect.sync(() => {
        const expected = viaJson(c)
        expect(right(decodeRestResponse.taskPushConfig(viaJson(toRest.taskPushConfig(c))))).toEqual(expected)
        expect(right(decodeRestRequest.createPushConfig(viaJson(toRest.createPushConfigRequest(c)), c.taskId))).toEqual(expected)
        expect(right(decodeRestResponse.pushConfigList(viaJson(toRest.pushConfigList([c, c]))))).toEqual([expected, expected])
      }),
    { arbitrary: { runs } }
  )

  it.effect.prop("agent cards, security schemes and requirements included", [AgentCard], ([card]) =>
    Effect.sync(() => {
      expect(right(decodeRestResponse.card(viaJson(cardToRest(card))))).toEqual(viaJson(card))
    }), { arbitrary: { runs: 25 } })
})

describe("REST enums", () => {
  it("maps every task state both ways, by name and by number", () => {
    expect(taskStates).toHaveLength(9)
    for (const [state, name, n] of taskStates) {
      expect(toRestState(state)).toBe(name)
      expect(fromRestState(name)).toBe(state)
      expect(fromRestState(n)).toBe(state)
      expect(fromRestState(state)).toBe(state)
    }
    expect(toRestState("canceled")).toBe("TASK_STATE_CANCELLED")
    expect(fromRestState("TASK_STATE_CANCELED")).toBe("canceled")
    expect(fromRestState("TASK_STATE_BOGUS")).toBe("TASK_STATE_BOGUS")
  })

  it("maps both roles both ways", () => {
    expect(toRestRole("user")).toBe("ROLE_USER")
    expect(toRestRole("agent")).toBe("ROLE_AGENT")
    expect([fromRestRole("ROLE_USER"), fromRestRole(1), fromRestRole("user")]).toEqual(["user", "user", "user"])
    expect([fromRestRole("ROLE_AGENT"), fromRestRole(2), fromRestRole("agent")]).toEqual(["agent", "agent", "agent"])
    expect(fromRestRole("ROLE_UNSPECIFIED")).toBe("ROLE_UNSPECIFIED")
  })
})

describe("REST input in the spellings peers use", () => {
  const expectedParams = {
    message: {
      kind: "message",
      messageId: "m-1",
      contextId: "c-1",
      taskId: "t-1",
      role: "user",
      parts: [
        { kind: "text", text: "hi" },
        { kind: "file", file: { uri: "https://example.com/a.png", mimeType: "image/png", name: "a.png" } },
        { kind: "file", file: { bytes: "aGk=", mimeType: "text/plain" } },
        { kind: "data", data: { answer: 42 } }
      ],
      referenceTaskIds: ["t-0"],
      metadata: { trace: "x" }
    },
    configuration: {
      acceptedOutputModes: ["text/plain"],
      historyLength: 3,
      pushNotificationConfig: { url: "https://hooks.example.com", token: "tok", authentication: { schemes: ["Bearer"] } },
      blocking: true
    },
    metadata: { m: 1 }
  }

  it("the protobuf mapping in snake_case, with the `request` wrapper", () => {
    const body = {
      request: {
        message_id: "m-1",
        context_id: "c-1",
        task_id: "t-1",
        role: "ROLE_USER",
        content: [
          { text: "hi" },
          { file: { file_with_uri: "https://example.com/a.png", mime_type: "image/png", name: "a.png" } },
          { file: { file_with_bytes: "aGk=", mime_type: "text/plain" } },
          { data: { data: { answer: 42 } } }
        ],
        reference_task_ids: ["t-0"],
        metadata: { trace: "x" }
      },
      configuration: {
        accepted_output_modes: ["text/plain"],
        history_length: 3,
        push_notification: { url: "https://hooks.example.com", token: "tok", authentication: { schemes: ["Bearer"] } },
        blocking: true
      },
      metadata: { m: 1 }
    }
    expect(right(decodeRestRequest.sendParams(body))).toEqual(expectedParams)
  })

  it("the protobuf mapping in camelCase, as the JS SDK sends it", () => {
    const body = viaJson(toRest.sendMessageRequest(expectedParams as MessageSendParams))
    expect(body).toMatchObject({ message: { role: "ROLE_USER", content: [{ text: "hi" }, {}, {}, { data: { data: { answer: 42 } } }] } })
    expect(right(decodeRestRequest.sendParams(body))).toEqual(expectedParams)
  })

  it("plain A2A JSON, unchanged, kind-less parts included", () => {
    const plain = { ...expectedParams, message: { ...expectedParams.message, parts: [{ text: "hi" }] } }
    expect(right(decodeRestRequest.sendParams(plain))).toEqual({
      ...expectedParams,
      message: { ...expectedParams.message, parts: [{ kind: "text", text: "hi" }] }
    })
  })

  it("an absent `blocking` means false in the protobuf form (its default), and stays absent in plain JSON", () => {
    const proto = { message: { messageId: "m", role: "ROLE_USER", content: [{ text: "x" }] }, configuration: { historyLength: 1 } }
    expect(right(decodeRestRequest.sendParams(proto)).configuration?.blocking).toBe(false)
    const bare = { message: { messageId: "m", role: "ROLE_USER", content: [{ text: "x" }] } }
    expect(right(decodeRestRequest.sendParams(bare)).configuration).toBeUndefined()
    const plain = { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "x" }] }, configuration: {} }
    expect(right(decodeRestRequest.sendParams(plain)).configuration?.blocking).toBeUndefined()
  })

  it("`{ data: { data: x } }` is a wrapped x in a protobuf message and literal data in a plain one", () => {
    const part = { data: { data: { x: 1 } } }
    const proto = right(decodeRestRequest.sendParams({ message: { messageId: "m", role: "ROLE_USER", content: [part] } }))
    expect(proto.message.parts).toEqual([{ kind: "data", data: { x: 1 } }])
    const plain = right(decodeRestRequest.sendParams({ message: { messageId: "m", role: "user", parts: [part] } }))
    expect(plain.message.parts).toEqual([{ kind: "data", data: { data: { x: 1 } } }])
  })

  it("SDK-style responses: status message under `message` or `update`, `msg`, snake_case wrappers, false `final` left out", () => {
    const status = { state: "TASK_STATE_WORKING", update: { message_id: "a", role: "ROLE_AGENT", content: [{ text: "busy" }] } }
    expect(right(decodeRestResponse.streamResponse({ status_update: { task_id: "t", context_id: "c", status } }))).toEqual({
      kind: "status-update",
      taskId: "t",
      contextId: "c",
      final: false,
      status: { state: "working", message: { kind: "message", messageId: "a", role: "agent", parts: [{ kind: "text", text: "busy" }] } }
    })
    expect(right(decodeRestResponse.sendResponse({ msg: { messageId: "a", role: "ROLE_AGENT", content: [{ text: "hi" }] } }))).toMatchObject({
      kind: "message",
      parts: [{ kind: "text", text: "hi" }]
    })
    const artifactUpdate = { artifact_update: { task_id: "t", context_id: "c", artifact: { artifact_id: "a", parts: [{ data: { data: { k: 1 } } }] }, last_chunk: true } }
    expect(right(decodeRestResponse.streamResponse(artifactUpdate))).toEqual({
      kind: "artifact-update",
      taskId: "t",
      contextId: "c",
      artifact: { artifactId: "a", parts: [{ kind: "data", data: { k: 1 } }] },
      lastChunk: true
    })
  })

  it("protobuf-form objects get the protobuf defaults for what the mapping leaves out; plain ones do not", () => {
    expect(right(decodeRestResponse.streamResponse({ statusUpdate: { taskId: "t", status: { state: "TASK_STATE_CANCELLED" }, final: true } })))
      .toMatchObject({ kind: "status-update", contextId: "", status: { state: "canceled" } })
    expect(right(decodeRestResponse.task({ id: "t", contextId: "c", status: {} })).status.state).toBe("unknown")
    expect(right(decodeRestResponse.streamResponse({ artifactUpdate: { taskId: "t", contextId: "c", artifact: { artifactId: "a" } } })))
      .toMatchObject({ artifact: { artifactId: "a", parts: [] } })
    expect(Result.isFailure(decodeRestResponse.task({ kind: "task", id: "t", status: { state: "working" } }))).toBe(true)
    expect(Result.isFailure(decodeRestResponse.streamResponse({ kind: "status-update", taskId: "t", contextId: "c", status: { state: "working" } }))).toBe(true)
  })

  it("an absent list is an empty one (ProtoJSON leaves empty lists out), in every REST body and answer", () => {
    // The official 0.3 kit's push config: `authentication: {}`, no `schemes`.
    const kit = {
      parent: "tasks/t1",
      config_id: "default",
      config: {
        name: "tasks/t1/pushNotificationConfigs/default",
        push_notification_config: { id: "default", url: "https://hooks.example.com", token: "", authentication: {} }
      }
    }
    expect(right(decodeRestRequest.createPushConfig(kit, "t1")).pushNotificationConfig.authentication).toEqual({ schemes: [] })
    const credentialsOnly = { url: "https://hooks.example.com", authentication: { credentials: "secret" } }
    expect(right(decodeRestRequest.createPushConfig(credentialsOnly, "t1")).pushNotificationConfig.authentication)
      .toEqual({ schemes: [], credentials: "secret" })
    expect(right(decodeRestResponse.taskPushConfig({ name: "tasks/t1/pushNotificationConfigs/c", pushNotificationConfig: credentialsOnly })))
      .toMatchObject({ pushNotificationConfig: { authentication: { schemes: [] } } })
    // A card whose lists are all empty, as a protobuf writer sends it.
    const card = { protocolVersion: "0.3.0", name: "n", description: "d", url: "https://a.example/", version: "1", capabilities: {}, skills: [{ id: "s", name: "S", description: "x" }] }
    expect(right(decodeRestResponse.card(card))).toMatchObject({ defaultInputModes: [], defaultOutputModes: [], skills: [{ id: "s", tags: [] }] })
    expect(right(decodeRestResponse.card({ ...card, skills: undefined })).skills).toEqual([])
    // A message with no parts is still refused: parts must not be empty.
    expect(leftMessage(decodeRestRequest.sendParams({ message: { messageId: "m", role: "ROLE_USER" } }))).toMatch(/parts/)
  })

  it("bare plain A2A events are read too", () => {
    const task = { kind: "task", id: "t", contextId: "c", status: { state: "completed" } }
    expect(right(decodeRestResponse.streamResponse(task))).toEqual(task)
    expect(right(decodeRestResponse.sendResponse({ task }))).toEqual(task)
  })

  it("push config creation in every form peers send; a body naming another task is refused", () => {
    const config = { id: "c1", url: "https://hooks.example.com" }
    const expected = { taskId: "t1", pushNotificationConfig: config }
    const forms = [
      { name: "tasks/t1/pushNotificationConfigs/c1", pushNotificationConfig: { url: config.url } },
      { parent: "tasks/t1", config_id: "c1", config: { push_notification_config: { url: config.url } } },
      { config: { taskId: "t1", pushNotificationConfig: config } },
      { taskId: "t1", pushNotificationConfig: config },
      config
    ]
    for (const form of forms) expect(right(decodeRestRequest.createPushConfig(form, "t1"))).toEqual(expected)
    expect(leftMessage(decodeRestRequest.createPushConfig({ taskId: "t2", pushNotificationConfig: config }, "t1"))).toMatch(
      /names task t2 but the URL names task t1/
    )
    expect(right(decodeRestResponse.pushConfigList([{ taskId: "t1", pushNotificationConfig: config }]))).toEqual([expected])
    expect(right(decodeRestResponse.pushConfigList({}))).toEqual([])
  })
})

describe("REST input that the schemas refuse, with a message naming the path", () => {
  const send = (message: unknown) => decodeRestRequest.sendParams({ message })

  it("missing messageId, empty content, unknown role", () => {
    expect(leftMessage(send({ role: "ROLE_USER", content: [{ text: "x" }] }))).toMatch(/messageId/)
    expect(leftMessage(send({ messageId: "m", role: "ROLE_USER", content: [] }))).toMatch(/parts/)
    expect(leftMessage(send({ messageId: "m", role: "ROLE_UNSPECIFIED", content: [{ text: "x" }] }))).toMatch(/role/)
  })

  it("a file part with both a URI and bytes, and a part with two kinds", () => {
    const both = { file: { file_with_uri: "https://x", file_with_bytes: "aGk=" } }
    expect(Result.isFailure(send({ messageId: "m", role: "ROLE_USER", content: [both] }))).toBe(true)
    expect(Result.isFailure(send({ messageId: "m", role: "ROLE_USER", content: [{ text: "a", data: { data: {} } }] }))).toBe(true)
  })

  it("not an object at all", () => {
    for (const body of [null, 42, "text", [], undefined]) {
      expect(Result.isFailure(decodeRestRequest.sendParams(body))).toBe(true)
    }
  })

  it("an unknown state in a response", () => {
    const bad = { id: "t", contextId: "c", status: { state: "TASK_STATE_BOGUS" } }
    expect(Result.isFailure(decodeRestResponse.task(bad))).toBe(true)
  })
})

describe("REST output", () => {
  it("carries no `kind` members and no A2A enum spellings", () => {
    const task = Schema.decodeUnknownSync(Task)({
      kind: "task",
      id: "t",
      contextId: "c",
      status: { state: "input-required", message: { kind: "message", messageId: "m", role: "agent", parts: [{ kind: "text", text: "?" }] } },
      artifacts: [{ artifactId: "a", parts: [{ kind: "data", data: { x: 1 } }, { kind: "file", file: { uri: "https://x" } }] }]
    })
    const text = JSON.stringify(toRest.task(task))
    expect(text).not.toMatch(/"kind"/)
    expect(text).toContain('"state":"TASK_STATE_INPUT_REQUIRED"')
    expect(text).toContain('"role":"ROLE_AGENT"')
    expect(text).toContain('"content":[{"text":"?"}]')
    expect(text).toContain('{"data":{"data":{"x":1}}}')
    expect(text).toContain('{"file":{"fileWithUri":"https://x"}}')
  })

  it("wraps card security the way the `.proto` does, and reads it back", () => {
    const card = Schema.decodeUnknownSync(AgentCard)({
      protocolVersion: "0.3.0",
      name: "n",
      description: "d",
      url: "https://a.example.com/",
      version: "1",
      capabilities: {},
      defaultInputModes: [],
      defaultOutputModes: [],
      skills: [],
      securitySchemes: { key: { type: "apiKey", in: "header", name: "x-key" } },
      security: [{ key: ["s"] }]
    })
    const rest = cardToRest(card)
    expect(rest["securitySchemes"]).toEqual({ key: { apiKeySecurityScheme: { location: "header", name: "x-key" } } })
    expect(rest["security"]).toEqual([{ schemes: { key: { list: ["s"] } } }])
    expect(cardFromRest({ ...rest, security_schemes: rest["securitySchemes"], securitySchemes: undefined })).toMatchObject({
      securitySchemes: { key: { type: "apiKey", in: "header", name: "x-key" } }
    })
  })

  it("leaves free-form members alone: metadata and data keep snake_case and `kind` keys", () => {
    const meta = { some_key: { kind: "x", message_id: 1 } }
    const decoded = right(decodeRestRequest.sendParams({
      message: { messageId: "m", role: "ROLE_USER", content: [{ data: { data: meta } }], metadata: meta },
      metadata: meta
    }))
    expect(decoded.metadata).toEqual(meta)
    expect(decoded.message.metadata).toEqual(meta)
    expect(decoded.message.parts).toEqual([{ kind: "data", data: meta }])
    expect(fromRest.part({ data: { data: meta } })).toEqual({ kind: "data", data: meta })
  })
})
