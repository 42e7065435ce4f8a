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
import { StreamResponse, SendMessageResponse, Task as V1Task, TaskPushNotificationConfig as V1PushConfig } from "./index.ts"
import { pushConfigFromV1, sendResponseFromV1, streamResponseFromV1, taskFromV1 } from "./from-v1.ts"
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
