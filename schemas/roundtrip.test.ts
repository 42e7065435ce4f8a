import { Ajv } from "ajv"
import addFormatsModule from "ajv-formats"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { upstreamDefinitionNames } from "../conformance/upstream-definitions.ts"
import { readUpstreamSchema, requireUpstreamSchema } from "../conformance/upstream-schema.ts"
import * as schemas from "./index.ts"

/*
 * Property: for generated values `a` of each wire schema, `decode(encode(a))` equals `a`, the encoded value
 * equals `a` (Type and Encoded are the same plain JSON), it survives JSON, and it validates against the pinned
 * upstream definition of the same name. Values come from Effect's `Arbitrary`, derived from each schema
 * (free-form JSON members are generated as JSON values).
 *
 * The generators follow our schemas, so they produce what our schemas accept: never a file with both bytes and uri,
 * never an empty Message.parts, a negative historyLength, an id over 256 characters or a webhook URL over
 * 2 KiB (our schemas are stricter than upstream there). The deliberate differences are pinned down as
 * explicit cases at the end of this file.
 */

const runs = 30

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv

const loadValidator = () => {
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(readUpstreamSchema(), "a2a")
  return (name: string, value: unknown) => {
    const validate = ajv.getSchema(`a2a#/definitions/${name}`)
    if (validate === undefined) throw new Error(`upstream has no definition ${name}`)
    const ok = validate(value)
    return { ok, errors: ajv.errorsText(validate.errors) }
  }
}

let validator: ReturnType<typeof loadValidator> | undefined

/** Validates against the upstream definition `name`; built on first use, inside a guarded test. */
const validate = (name: string, value: unknown) => (validator ??= loadValidator())(name, value)

const exported = schemas as unknown as Record<string, Schema.Codec<unknown, unknown>>

describe(
  "wire schemas round-trip and validate upstream",
  () => {
    requireUpstreamSchema()
    // Generated from the pinned list, so the same tests exist (skipped) where the upstream folder is absent.
    for (const name of upstreamDefinitionNames) {
      const schema = exported[name]
      if (schema === undefined) throw new Error(`no export ${name}`)
      const encode = Schema.encodeSync(schema)
      const decode = Schema.decodeUnknownSync(schema)
      it.effect.prop(name, [schema], ([a]) =>
        Effect.sync(() => {
          const encoded = encode(a)
          expect(encoded).toEqual(a)
          expect(decode(encoded)).toEqual(a)
          const wire: unknown = JSON.parse(JSON.stringify(encoded))
          // What a peer reads back: the same value, except that JSON has no -0 (generated numbers may be -0).
          expect(decode(wire)).toEqual(JSON.parse(JSON.stringify(a)))
          const result = validate(name, wire)
          expect(result.ok, `${name} rejected upstream: ${result.errors}\n${JSON.stringify(wire)}`).toBe(true)
        }), { arbitrary: { runs } })
    }
  }
)

// Exports that are ours (not upstream definitions): round trip only.
describe("our own wire schemas round-trip", () => {
  const ours = ["StreamResult", "SendMessageResult", "RequestId", "ResponseId", "Metadata", "NoParams", "HistoryLength"]
  for (const name of ours) {
    const schema = exported[name]
    if (schema === undefined) throw new Error(`no export ${name}`)
    it.effect.prop(name, [schema], ([a]) =>
      Effect.sync(() => {
        expect(Schema.decodeUnknownSync(schema)(Schema.encodeSync(schema)(a))).toEqual(a)
      }), { arbitrary: { runs } })
  }
})

describe(
  "deliberate differences from upstream",
  () => {
    requireUpstreamSchema()
    const accepts = <A, I>(schema: Schema.Codec<A, I>, value: unknown) =>
      Result.isSuccess(Schema.decodeUnknownResult(schema)(value))

    it("stricter: a file with both bytes and uri is refused (upstream's JSON Schema lets it through)", () => {
      const part = { kind: "file", file: { bytes: "aGk=", uri: "https://example.com/f" } }
      expect(validate("FilePart", part).ok).toBe(true)
      expect(accepts(schemas.FilePart, part)).toBe(false)
      expect(accepts(schemas.Part, part)).toBe(false)
    })

    it("same: a file with neither bytes nor uri is refused by both", () => {
      const part = { kind: "file", file: { name: "f.txt" } }
      expect(validate("FilePart", part).ok).toBe(false)
      expect(accepts(schemas.FilePart, part)).toBe(false)
    })

    it("stricter: a message with no parts is refused (CONFORMANCE.md: -32602; upstream has no minItems)", () => {
      const message = { kind: "message", messageId: "m1", role: "user", parts: [] }
      expect(validate("Message", message).ok).toBe(true)
      expect(accepts(schemas.Message, message)).toBe(false)
    })

    it("stricter: a negative historyLength is refused (CONFORMANCE.md: -32602; upstream only says integer)", () => {
      const params = { id: "t1", historyLength: -1 }
      expect(validate("TaskQueryParams", params).ok).toBe(true)
      expect(accepts(schemas.TaskQueryParams, params)).toBe(false)
      expect(accepts(schemas.MessageSendConfiguration, { historyLength: -1 })).toBe(false)
    })

    it("same: a part without kind, or with an unknown one, is refused by both", () => {
      for (const part of [{ text: "hello" }, { data: { a: 1 } }, { file: { uri: "https://example.com/f" } }, { kind: "image", text: "x" }]) {
        expect(validate("Part", part).ok).toBe(false)
        expect(accepts(schemas.Part, part)).toBe(false)
      }
    })

    it("stricter: ids over 256 characters are refused (upstream sets no bound)", () => {
      const long = "x".repeat(257)
      const message = { kind: "message", messageId: long, role: "user", parts: [{ kind: "text", text: "hi" }] }
      expect(validate("Message", message).ok).toBe(true)
      expect(accepts(schemas.Message, message)).toBe(false)
      expect(accepts(schemas.Message, { ...message, messageId: "x".repeat(256) })).toBe(true)
      expect(accepts(schemas.TaskQueryParams, { id: long })).toBe(false)
      expect(accepts(schemas.TaskPushNotificationConfig, { taskId: long, pushNotificationConfig: { url: "https://a.example/" } })).toBe(false)
    })

    it("stricter: a webhook URL over 2 KiB is refused (upstream sets no bound)", () => {
      const config = { url: `https://hooks.example.com/${"p".repeat(2_048)}` }
      expect(validate("PushNotificationConfig", config).ok).toBe(true)
      expect(accepts(schemas.PushNotificationConfig, config)).toBe(false)
      expect(accepts(schemas.PushNotificationConfig, { url: config.url.slice(0, 2_048) })).toBe(true)
    })

    it("more lenient: unknown extra fields are accepted and dropped (upstream allows them, we do not keep them)", () => {
      const task = {
        kind: "task",
        id: "t1",
        contextId: "c1",
        status: { state: "working", vendorField: 1 },
        vendorField: { x: 1 }
      }
      expect(validate("Task", task).ok).toBe(true)
      expect(Schema.decodeUnknownSync(schemas.Task)(task)).toEqual({
        kind: "task",
        id: "t1",
        contextId: "c1",
        status: { state: "working" }
      })
    })
  }
)
