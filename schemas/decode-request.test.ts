import { describe, expect, it } from "vitest"
import { decodeRequest, parseJsonBody, type RequestFailure } from "./decode-request.ts"

const TASK = "task-1"
const message = { kind: "message", role: "user", messageId: "m-1", parts: [{ kind: "text", text: "hi" }] }
const send = (extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "message/send",
  params: { message },
  ...extra
})

const failure = (u: unknown, options?: Parameters<typeof decodeRequest>[1]): RequestFailure => {
  const result = options === undefined ? decodeRequest(u) : decodeRequest(u, options)
  if (result._tag !== "Failure") throw new Error(`expected a failure, got ${result._tag}`)
  return result
}

const nested = (depth: number, leaf: unknown = 0): unknown => {
  let v = leaf
  for (let i = 0; i < depth; i++) v = [v]
  return v
}

describe("decodeRequest: core methods", () => {
  it("decodes message/send and types params by method", () => {
    const decoded = decodeRequest(send())
    expect(decoded._tag).toBe("Request")
    if (decoded._tag !== "Request" || decoded.method !== "message/send") throw new Error("unreachable")
    expect(decoded.params.message.parts[0]).toEqual({ kind: "text", text: "hi" })
    expect(decoded.id).toBe(1)
    expect(decoded.notification).toBe(false)
  })

  it("echoes ids 0, the empty string and null as given", () => {
    for (const id of [0, "", null, "req-7", -5]) {
      const decoded = decodeRequest({ jsonrpc: "2.0", id, method: "tasks/get", params: { id: TASK } })
      expect(decoded).toMatchObject({ _tag: "Request", id, notification: false })
    }
  })

  it("marks a request without id as a notification with id null", () => {
    expect(decodeRequest({ jsonrpc: "2.0", method: "tasks/cancel", params: { id: TASK } })).toMatchObject({
      _tag: "Request",
      id: null,
      notification: true
    })
  })

  it("accepts absent and empty params for the extended card, and nothing else", () => {
    expect(decodeRequest({ jsonrpc: "2.0", id: 1, method: "agent/getAuthenticatedExtendedCard" })._tag).toBe("Request")
    expect(decodeRequest({ jsonrpc: "2.0", id: 1, method: "agent/getAuthenticatedExtendedCard", params: {} })._tag).toBe(
      "Request"
    )
    for (const params of [null, "x", 3, [1]]) {
      const f = failure({ jsonrpc: "2.0", id: 2, method: "agent/getAuthenticatedExtendedCard", params })
      expect(f.error.code).toBe(-32602)
    }
  })

  it("decodes every push-config method", () => {
    const calls: Array<[string, unknown]> = [
      ["tasks/pushNotificationConfig/set", { taskId: TASK, pushNotificationConfig: { url: "https://h.example/x" } }],
      ["tasks/pushNotificationConfig/get", { id: TASK }],
      ["tasks/pushNotificationConfig/list", { id: TASK }],
      ["tasks/pushNotificationConfig/delete", { id: TASK, pushNotificationConfigId: "c" }]
    ]
    for (const [method, params] of calls) {
      expect(decodeRequest({ jsonrpc: "2.0", id: method, method, params })).toMatchObject({ _tag: "Request", method })
    }
  })
})

describe("decodeRequest: envelope errors are InvalidRequest (-32600)", () => {
  it("refuses bodies that are not objects, with id null", () => {
    for (const body of [null, [], [send()], "message/send", 42, true]) {
      expect(failure(body)).toMatchObject({ id: null, error: { code: -32600 } })
    }
  })

  it("refuses ids of a wrong type without echoing them", () => {
    for (const id of [{ a: 1 }, [1], true, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(failure(send({ id }))).toMatchObject({ id: null, error: { code: -32600 } })
    }
  })

  it("refuses a string id over 256 characters with id null, naming the bound, never echoing it", () => {
    expect(decodeRequest(send({ id: "i".repeat(256) }))).toMatchObject({ _tag: "Request", id: "i".repeat(256) })
    for (const body of [send({ id: "i".repeat(257) }), { jsonrpc: "2.0", id: "x".repeat(2_000_000), method: "message/stream", params: {} }]) {
      const f = failure(body)
      expect(f.id).toBeNull()
      expect(f.error.code).toBe(-32600)
      expect(f.error.message).toBe("Invalid Request: a string id may be at most 256 characters long")
    }
    // The method is still named, so a streaming method's refusal is answered in SSE.
    expect(failure({ jsonrpc: "2.0", id: "x".repeat(300), method: "message/stream", params: {} }).method).toBe("message/stream")
  })

  it("echoes a readable id when jsonrpc or method is wrong", () => {
    expect(failure(send({ jsonrpc: "1.0", id: "v1" }))).toMatchObject({ id: "v1", error: { code: -32600 } })
    expect(failure(send({ jsonrpc: 2 }))).toMatchObject({ id: 1, error: { code: -32600 } })
    expect(failure({ jsonrpc: "2.0", id: 3 })).toMatchObject({ id: 3, error: { code: -32600 } })
    expect(failure({ jsonrpc: "2.0", id: 4, method: ["message/send"] })).toMatchObject({ id: 4, error: { code: -32600 } })
  })

  it("ignores inherited members: an own __proto__ key is data, not the envelope", () => {
    const hostile = JSON.parse(`{"__proto__": {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": "t"}}}`)
    expect(failure(hostile).error.code).toBe(-32600)
    const inherited = Object.create({ jsonrpc: "2.0", method: "tasks/get", params: { id: "t" } }) as object
    expect(failure(inherited).error.code).toBe(-32600)
  })
})

describe("decodeRequest: methods", () => {
  it("answers MethodNotFound (-32601) for unknown names, inherited names included", () => {
    for (const method of ["tasks/foo", "tasks/list", "Message/Send", "", "constructor", "__proto__", "toString"]) {
      expect(failure({ jsonrpc: "2.0", id: 9, method, params: {} })).toMatchObject({ id: 9, error: { code: -32601 } })
    }
  })

  it("clips a huge method name in the error message", () => {
    const f = failure({ jsonrpc: "2.0", id: 1, method: "x".repeat(1_000_000) })
    expect(f.error.message.length).toBeLessThan(200)
  })

  it("routes registered extension methods with raw params, by set or by predicate", () => {
    const ext = "com.example.approval/approve"
    const body = { jsonrpc: "2.0", id: "e1", method: ext, params: { anything: [1] } }
    expect(decodeRequest(body, { extensionMethods: new Set([ext]) })).toEqual({
      _tag: "Extension",
      id: "e1",
      method: ext,
      params: { anything: [1] },
      notification: false
    })
    expect(decodeRequest(body, { extensionMethods: (m) => m.startsWith("com.example.") })._tag).toBe("Extension")
    expect(failure(body, { extensionMethods: new Set(["other/x"]) }).error.code).toBe(-32601)
    expect(failure(body).error.code).toBe(-32601)
  })

  it("keeps core methods core even when listed as extensions", () => {
    const decoded = decodeRequest(send(), { extensionMethods: () => true })
    expect(decoded._tag).toBe("Request")
  })
})

describe("decodeRequest: params errors are InvalidParams (-32602)", () => {
  it("names the failing path", () => {
    const f = failure(send({ params: { message: { ...message, parts: [] } } }))
    expect(f.error.code).toBe(-32602)
    expect(f.error.message).toMatch(/^Invalid params: at message\.parts: /)
    expect(f.error.data).toMatchObject({ issues: [{ path: "message.parts" }] })
  })

  it("indexes array elements in the path", () => {
    const f = failure(send({ params: { message: { ...message, parts: [{ kind: "text", text: "a" }, { kind: "text", text: 1 }] } } }))
    expect(f.error.message).toContain("message.parts[1]")
  })

  it("says a forbidden field must be absent", () => {
    const file = { kind: "file", file: { bytes: "aGk=", uri: "https://h.example/f" } }
    const f = failure(send({ params: { message: { ...message, parts: [file] } } }))
    expect(f.error.message).toContain("at message.parts[0].file.uri: Expected absent")
  })

  it("refuses missing params, params of the wrong type and coercible values", () => {
    const cases: Array<Record<string, unknown>> = [
      { params: undefined },
      { params: [message] },
      { params: "message" },
      { params: { message: { ...message, messageId: 12345 } } },
      { params: { message, configuration: { historyLength: -1 } } },
      { params: { message, configuration: { blocking: "true" } } }
    ]
    for (const extra of cases) {
      const body = send(extra)
      if (extra["params"] === undefined) delete (body as Record<string, unknown>)["params"]
      expect(failure(body)).toMatchObject({ id: 1, error: { code: -32602 } })
    }
    expect(failure({ jsonrpc: "2.0", id: 2, method: "tasks/get", params: { id: TASK, historyLength: -3 } }).error.code).toBe(
      -32602
    )
  })

  it("never echoes a huge value in full and never carries a stack", () => {
    const huge = "r".repeat(2_000_000)
    const f = failure(send({ params: { message: { ...message, role: huge } } }))
    expect(f.error.code).toBe(-32602)
    expect(f.error.message.length).toBeLessThan(1_000)
    expect(JSON.stringify(f.error.data).length).toBeLessThan(2_000)
    expect(f.error.message).not.toMatch(/\n\s+at /)
  })
})

describe("decodeRequest: hostile input", () => {
  it("decodes deeply nested metadata without recursing into it", () => {
    const decoded = decodeRequest(send({ params: { message, metadata: { deep: nested(100_000) } } }))
    expect(decoded._tag).toBe("Request")
  })

  it("refuses a deeply nested array body and deeply nested params without throwing", () => {
    expect(failure(nested(100_000)).error.code).toBe(-32600)
    expect(failure(send({ params: nested(100_000) })).error.code).toBe(-32602)
  })

  it("keeps a 5 MB text intact", () => {
    const text = "é".repeat(5_000_000)
    const decoded = decodeRequest(send({ params: { message: { ...message, parts: [{ kind: "text", text }] } } }))
    if (decoded._tag !== "Request" || decoded.method !== "message/send") throw new Error("expected a request")
    expect(decoded.params.message.parts[0]).toEqual({ kind: "text", text })
  })

  it("does not pollute Object.prototype through __proto__ keys", () => {
    const body = JSON.parse(
      `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"__proto__":{"polluted":1},"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"x","metadata":{"__proto__":{"polluted":2}}}],"metadata":{"constructor":{"prototype":{"polluted":3}}}}}}`
    )
    expect(decodeRequest(body)._tag).toBe("Request")
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty("polluted")
  })
})

describe("parseJsonBody", () => {
  it("parses JSON and ignores one leading byte-order mark", () => {
    expect(parseJsonBody(`{"a":1}`)).toEqual({ _tag: "Parsed", value: { a: 1 } })
    expect(parseJsonBody(`\uFEFF{"a":1}`)).toEqual({ _tag: "Parsed", value: { a: 1 } })
  })

  it("keeps lone surrogate escapes", () => {
    const parsed = parseJsonBody(String.raw`{"t":"\ud800x"}`)
    expect(parsed).toEqual({ _tag: "Parsed", value: { t: "\ud800x" } })
  })

  it("answers JSONParse (-32700) with id null for anything that is not one JSON text", () => {
    const bad = ["", " ", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"mess`, `{"a":1} x`, `{'a':1}`, "\uFEFF\uFEFF{}", "NaN", "{\"a\":1,}"]
    for (const text of bad) {
      const parsed = parseJsonBody(text)
      expect(parsed).toMatchObject({ _tag: "Failure", id: null, error: { code: -32700 } })
      if (parsed._tag === "Failure") expect(parsed.error.message).not.toMatch(/\n\s+at /)
    }
  })

  it("never throws on very deep nesting, and refuses it", () => {
    const text = "[".repeat(200_000) + "]".repeat(200_000)
    expect(parseJsonBody(text)).toMatchObject({ _tag: "Failure", id: null, error: { code: -32600 } })
  })

  it("removes __proto__ keys in every spelling, and constructor keys holding a prototype", () => {
    const text = String.raw`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"x"}],"metadata":{"\u005f_proto__":{"skill":"admin"},"__pro\u0074o__":{"a":1},"\u0063onstructor":{"prototype":{"skill":"admin"}},"kept":true}}}}`
    const parsed = parseJsonBody(text)
    if (parsed._tag !== "Parsed") throw new Error(`expected it to parse: ${parsed.error.message}`)
    const decoded = decodeRequest(parsed.value)
    if (decoded._tag !== "Request" || decoded.method !== "message/send") throw new Error("expected a request")
    const metadata = decoded.params.message.metadata!
    expect(metadata).toEqual({ kept: true })
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype)
    expect(metadata["skill"]).toBeUndefined()
  })

  it("accepts 64 levels of nesting and refuses 65, where they are: -32602 within params, -32600 elsewhere", () => {
    const body = (depth: number, member = "params") =>
      `{"jsonrpc":"2.0","id":"d","method":"tasks/get","${member}":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`
    const at = (depth: number) => `{"jsonrpc":"2.0","id":"d","method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"x"}],"metadata":{"deep":${"[".repeat(depth - 4)}${"]".repeat(depth - 4)}}}}}`
    const ok = parseJsonBody(at(64))
    if (ok._tag !== "Parsed") throw new Error(`64 levels refused: ${ok.error.message}`)
    expect(decodeRequest(ok.value)._tag).toBe("Request")
    expect(parseJsonBody(at(65))).toMatchObject({ _tag: "Failure", id: "d", error: { code: -32602, message: expect.stringContaining("64 levels") } })
    expect(parseJsonBody(body(10_000))).toMatchObject({ _tag: "Failure", id: "d", error: { code: -32602 } })
    expect(parseJsonBody(body(10_000, "extra"))).toMatchObject({ _tag: "Failure", id: "d", error: { code: -32600 } })
    expect(parseJsonBody(`${"[".repeat(65)}${"]".repeat(65)}`)).toMatchObject({ _tag: "Failure", id: null, error: { code: -32600 } })
  })

  it("a refusal names the method the envelope names, so a server can answer a streaming method in SSE", () => {
    const stream = { jsonrpc: "2.0", id: 1, method: "message/stream", params: { message: { ...message, messageId: undefined } } }
    expect(failure(stream)).toMatchObject({ method: "message/stream", error: { code: -32602 } })
    expect(failure({ ...stream, jsonrpc: "1.0" })).toMatchObject({ method: "message/stream", error: { code: -32600 } })
    expect(failure({ ...stream, id: 1.5 })).toMatchObject({ id: null, method: "message/stream", error: { code: -32600 } })
    expect(failure({ jsonrpc: "2.0", id: 1, method: "tasks/resubscribe" })).toMatchObject({ method: "tasks/resubscribe", error: { code: -32602 } })
    expect(failure({ ...stream, method: "no/such" })).toMatchObject({ method: "no/such", error: { code: -32601 } })
    expect(failure({ ...stream, method: 7 })).not.toHaveProperty("method")
    expect(failure([stream])).not.toHaveProperty("method")
    const deep = `{"jsonrpc":"2.0","id":"d","method":"message/stream","params":${"[".repeat(100)}${"]".repeat(100)}}`
    expect(parseJsonBody(deep)).toMatchObject({ _tag: "Failure", id: "d", method: "message/stream", error: { code: -32602 } })
    expect(parseJsonBody("{")).not.toHaveProperty("method")
  })

  it("counts brackets inside strings as text, never as nesting", () => {
    const text = `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t","metadata":{"s":"${"[{".repeat(500)}"}}}`
    expect(parseJsonBody(text)._tag).toBe("Parsed")
  })
})

describe("bounds on ids and webhook URLs (-32602, stricter than upstream)", () => {
  const long = "i".repeat(257)
  const max = "i".repeat(256)
  const withMessage = (extra: Record<string, unknown>) => send({ params: { message: { ...message, ...extra } } })

  it("accepts ids of 256 characters", () => {
    expect(decodeRequest(withMessage({ messageId: max, taskId: max, contextId: max, referenceTaskIds: [max] }))._tag).toBe("Request")
    expect(decodeRequest({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: max } })._tag).toBe("Request")
  })

  it("refuses every id over 256 characters, naming it without repeating it", () => {
    const cases: Array<[unknown, string]> = [
      [withMessage({ messageId: long }), "message.messageId"],
      [withMessage({ taskId: long }), "message.taskId"],
      [withMessage({ contextId: long }), "message.contextId"],
      [withMessage({ referenceTaskIds: ["a", long] }), "message.referenceTaskIds[1]"],
      [{ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: long } }, "id"],
      [{ jsonrpc: "2.0", id: 1, method: "tasks/cancel", params: { id: long } }, "id"],
      [{ jsonrpc: "2.0", id: 1, method: "tasks/resubscribe", params: { id: long } }, "id"],
      [{ jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/get", params: { id: "t", pushNotificationConfigId: long } }, "pushNotificationConfigId"],
      [{ jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/list", params: { id: long } }, "id"],
      [{ jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/delete", params: { id: "t", pushNotificationConfigId: long } }, "pushNotificationConfigId"],
      [{ jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/set", params: { taskId: long, pushNotificationConfig: { url: "https://h.example/" } } }, "taskId"],
      [{ jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/set", params: { taskId: "t", pushNotificationConfig: { url: "https://h.example/", id: long } } }, "pushNotificationConfig.id"]
    ]
    for (const [body, path] of cases) {
      const f = failure(body)
      expect(f.error.code, path).toBe(-32602)
      expect(f.error.message).toBe(`Invalid params: at ${path}: an id may be at most 256 characters long`)
      expect(JSON.stringify(f.error)).not.toContain(long)
    }
  })

  it("refuses a webhook URL over 2 KiB, inline or set", () => {
    const url = (n: number) => `https://hooks.example.com/${"p".repeat(n - 26)}`
    expect(url(2_048)).toHaveLength(2_048)
    const set = (u: string) => ({ jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/set", params: { taskId: "t", pushNotificationConfig: { url: u } } })
    expect(decodeRequest(set(url(2_048)))._tag).toBe("Request")
    expect(failure(set(url(2_049))).error).toMatchObject({ code: -32602, message: expect.stringContaining("pushNotificationConfig.url") })
    const inline = send({ params: { message, configuration: { pushNotificationConfig: { url: url(2_049) } } } })
    expect(failure(inline).error.message).toContain("configuration.pushNotificationConfig.url")
  })
})
