/**
 * The proto-driven validator reads `a2a.proto` as the spec means it, and every 1.0 writer's output conforms
 * to the proto strictly (the JSON names only, enums by name, nothing unknown, REQUIRED fields present), for
 * values generated from the model's schemas.
 */
import { Arbitrary, Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as model from "../../schemas/index.ts"
import { cardToV1 } from "../../schemas/v1/card.ts"
import { listTasksResponseJson, pushConfigJson, sendResponseJson, streamResponseJson, taskJson } from "../../schemas/v1/v1-json.ts"
import {
  cancelTaskRequestJson,
  createPushConfigRequestJson,
  deletePushConfigRequestJson,
  getPushConfigRequestJson,
  getTaskRequestJson,
  listPushConfigsRequestJson,
  listTasksRequestJson,
  sendMessageRequestJson,
  subscribeToTaskRequestJson
} from "../../schemas/v1/request-json.ts"
import { parseProto, protoJsonProblems, type ProtoDefinitions } from "./proto-json.ts"
import { readProto, requireProto } from "./upstream-proto.ts"

let defs: ProtoDefinitions | undefined
const proto = () => (defs ??= parseProto(readProto()))

/** Generated model values, with timestamps and bytes as the runtime writes them. */
const generated = <S extends Schema.Codec<any, any>>(schema: S) => {
  const decode = Schema.decodeUnknownSync(schema)
  const fix = (u: unknown, key?: string): unknown => {
    if (Array.isArray(u)) return u.map((x) => fix(x))
    if (typeof u !== "object" || u === null || key === "metadata" || key === "data") return u
    return Object.fromEntries(Object.entries(u).map(([k, v]) => [k,
      k === "timestamp" && typeof v === "string" ? new Date(1_700_000_000_000 + v.length).toISOString()
        : k === "bytes" && typeof v === "string" ? Buffer.from(v).toString("base64") : fix(v, k)]))
  }
  return Arbitrary.schema(schema).pipe(Arbitrary.map((a) => decode(fix(JSON.parse(JSON.stringify(a))))))
}

const conforms = async <A>(values: Arbitrary.Arbitrary<A>, type: string, write: (a: A) => string) => {
  const result = await Effect.runPromise(Arbitrary.checkEffect(values, (a) => {
    const problems = protoJsonProblems(proto(), type, JSON.parse(write(a)))
    if (problems.length > 0) throw new Error(`${problems.join("; ")}\n${write(a)}`)
    return true
  }, { runs: 150 }))
  expect(Arbitrary.formatCheckFailure(result)).toBeUndefined()
}

describe("ProtoJSON of a2a.proto", () => {
  requireProto()

  it("reads the messages, oneofs, maps, enums and REQUIRED annotations", () => {
    const part = proto().messages.get("Part")!
    expect(part.filter((f) => f.oneof === "content").map((f) => f.jsonName)).toEqual(["text", "raw", "url", "data"])
    expect(proto().messages.get("Message")!.filter((f) => f.required).map((f) => f.jsonName)).toEqual(["messageId", "role", "parts"])
    expect(proto().messages.get("AgentCard")!.find((f) => f.jsonName === "securitySchemes")!.map).toEqual({ key: "string", value: "SecurityScheme" })
    expect(proto().enums.get("TaskState")![5]).toBe("TASK_STATE_CANCELED")
    expect(proto().messages.size).toBeGreaterThanOrEqual(40)
  })

  it("refuses what a strict reader refuses and accepts what a lenient one does", () => {
    const message = { message_id: "m", role: 1, parts: [{ text: "x", kind: "text" }] }
    expect(protoJsonProblems(proto(), "Message", message, "lenient")).toEqual([])
    expect(protoJsonProblems(proto(), "Message", message, "strict")).toEqual(expect.arrayContaining([
      "$.message_id: not a field of Message", "$.role: 1 is not a Role", "$.parts[0].kind: not a field of Part"
    ]))
    expect(protoJsonProblems(proto(), "Part", { text: "a", url: "b" })).toEqual(["$: more than one member of oneof content: text, url"])
    expect(protoJsonProblems(proto(), "Task", { id: "t" })).toEqual(["$.status: REQUIRED and absent"])
  })

  it("every 1.0 writer emits strict ProtoJSON of its message", async () => {
    await conforms(generated(model.Task), "Task", (t) => taskJson(t))
    await conforms(generated(model.StreamResult), "StreamResponse", streamResponseJson)
    await conforms(generated(model.SendMessageResult), "SendMessageResponse", (r) => sendResponseJson(r))
    await conforms(generated(model.TaskPushNotificationConfig), "TaskPushNotificationConfig", (c) => pushConfigJson(c.taskId, c.pushNotificationConfig))
    await conforms(Arbitrary.array(generated(model.Task), { maxLength: 3 }), "ListTasksResponse", (ts) =>
      listTasksResponseJson(ts, { nextPageToken: "", pageSize: 50, totalSize: ts.length }, { artifacts: "always" }))
  })

  it("every 1.0 request writer emits strict ProtoJSON of its request message", async () => {
    await conforms(generated(model.MessageSendParams), "SendMessageRequest", (p) => sendMessageRequestJson(p, "acme"))
    await conforms(generated(model.TaskQueryParams), "GetTaskRequest", (p) => getTaskRequestJson(p))
    await conforms(generated(model.TaskIdParams), "CancelTaskRequest", (p) => cancelTaskRequestJson(p, "acme"))
    await conforms(generated(model.TaskIdParams), "SubscribeToTaskRequest", (p) => subscribeToTaskRequestJson(p))
    await conforms(generated(model.TaskPushNotificationConfig), "TaskPushNotificationConfig", (p) => createPushConfigRequestJson(p, "acme"))
    await conforms(generated(model.DeleteTaskPushNotificationConfigParams), "GetTaskPushNotificationConfigRequest", (p) => getPushConfigRequestJson(p))
    await conforms(generated(model.DeleteTaskPushNotificationConfigParams), "DeleteTaskPushNotificationConfigRequest", (p) => deletePushConfigRequestJson(p))
    await conforms(generated(model.ListTaskPushNotificationConfigParams), "ListTaskPushNotificationConfigsRequest", (p) => listPushConfigsRequestJson(p, "acme"))
    await conforms(generated(model.ListTasksParams), "ListTasksRequest", (p) =>
      listTasksRequestJson(p.statusTimestampAfter === undefined ? p : { ...p, statusTimestampAfter: new Date(1_700_000_000_000).toISOString() }, "acme"))
  })

  it("the 1.0 card conforms strictly", async () => {
    await conforms(generated(model.AgentCard), "AgentCard", (card) =>
      JSON.stringify(cardToV1(card, [{ url: "https://a.example/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }])))
  })
})
