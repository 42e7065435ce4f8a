import { check, show } from "../scenarios/assert.ts"
import { rawRequest } from "../scenarios/raw-http.ts"
import { unnormalised } from "../scenarios/targets.ts"
import { restScenario, type RestScenario } from "./harness.ts"

const missing = (): string => `v1/tasks/missing-${crypto.randomUUID()}`

/** The HTTP statuses the binding gives the catalogue's errors, and malformed requests. */
export const errorScenarios: ReadonlyArray<RestScenario> = [
  restScenario("errors: an unknown task is 404 with -32001 on GET", async (t) => {
    const error = t.expectError(await t.request("GET", missing()), 404, -32001, "get")
    check(/not found/i.test(String(error.message)), `message should say not found: ${show(error.message)}`)
  }),

  restScenario("errors: an unknown task is 404 with -32001 on :cancel", async (t) => {
    t.expectError(await t.request("POST", `${missing()}:cancel`), 404, -32001, "cancel")
  }),

  restScenario("errors: a second cancel is 409 with -32002", async (t) => {
    const task = await t.createTask()
    t.expectTask(await t.request("POST", `v1/tasks/${task.id}:cancel`), "first cancel")
    t.expectError(await t.request("POST", `v1/tasks/${task.id}:cancel`), 409, -32002, "second cancel")
  }),

  restScenario("errors: a body that is not JSON is 400 with -32700", async (t) => {
    t.expectError(await t.request("POST", "v1/message:send", '{"message": {'), 400, -32700, "message:send")
  }),

  restScenario("errors: a body that is not UTF-8 is 400 with -32700", async (t) => {
    t.expectError(await t.request("POST", "v1/message:send", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), 400, -32700, "message:send")
  }),

  restScenario("errors: message:send without a body is 400 with -32602", async (t) => {
    t.expectError(await t.request("POST", "v1/message:send", ""), 400, -32602, "message:send")
  }),

  restScenario("errors: a message with empty parts is 400 with -32602", async (t) => {
    t.expectError(await t.request("POST", "v1/message:send", { message: t.message("x", { parts: [] }) }), 400, -32602, "message:send")
  }),

  restScenario("errors: a message without messageId (protobuf form) is 400 with -32602", async (t) => {
    t.expectError(await t.request("POST", "v1/message:send", { message: { role: "ROLE_USER", content: [{ text: "x" }] } }), 400, -32602, "message:send")
  }),

  restScenario("errors: a negative historyLength is 400 with -32602", async (t) => {
    const task = await t.createTask()
    t.expectError(await t.request("GET", `v1/tasks/${task.id}?historyLength=-1`), 400, -32602, "get")
  }),

  restScenario("errors: a message to a terminal task is 400 with -32602", async (t) => {
    const task = await t.createTask()
    t.expectTask(await t.request("POST", `v1/tasks/${task.id}:cancel`), "cancel")
    t.expectError(await t.request("POST", "v1/message:send", t.sendBody(t.message("late", { taskId: task.id }))), 400, -32602, "message:send")
  }),

  restScenario("errors: a part MIME type outside the agent's input modes is 415 with -32005", async (t) => {
    const message = t.message("x", { parts: [{ kind: "file", file: { uri: "https://example.com/a.bin", mimeType: "application/x-never-accepted" } }] })
    t.expectError(await t.request("POST", "v1/message:send", t.sendBody(message)), 415, -32005, "message:send")
  }),

  restScenario("errors: a body nested deeper than 64 levels is 400 with -32602", async (t) => {
    const message = t.message("deep", { metadata: { n: JSON.parse(`${"[".repeat(100)}${"]".repeat(100)}`) } })
    const error = t.expectError(await t.request("POST", "v1/message:send", t.sendBody(message)), 400, -32602, "message:send")
    check(/64 levels/.test(String(error.message)), `message should name the bound: ${show(error.message)}`)
  }),

  restScenario("errors: a task id over 256 characters is 400 with -32602, and is not echoed", async (t) => {
    const id = "t".repeat(257)
    for (const [verb, path] of [["GET", `v1/tasks/${id}`], ["POST", `v1/tasks/${id}:cancel`], ["GET", `v1/tasks/${id}/pushNotificationConfigs`]] as const) {
      const reply = await t.request(verb, path)
      t.expectError(reply, 400, -32602, `${verb} ${path.slice(0, 20)}…`)
      check(!reply.text.includes(id), `the reply echoes the id: ${show(reply.text, 200)}`)
    }
  }),

  restScenario("errors: a webhook URL over 2 KiB is 400 with -32602", async (t) => {
    const task = await t.createTask()
    const url = `https://hooks.example.com/${"p".repeat(2_048)}`
    t.expectError(await t.request("POST", `v1/tasks/${task.id}/pushNotificationConfigs`, { url }), 400, -32602, "pushNotificationConfigs")
  }),

  restScenario("errors: a wrong HTTP method is 405 with an Allow header", async (t) => {
    const reply = await t.request("PUT", "v1/message:send", t.sendBody())
    check(reply.status === 405, `expected HTTP 405, got ${reply.status}: ${show(reply.text, 200)}`)
    check(/\bPOST\b/.test(reply.headers.get("allow") ?? ""), `Allow should name POST, got ${show(reply.headers.get("allow"))}`)
  }),

  restScenario("errors: GET on :cancel is 405", async (t) => {
    const task = await t.createTask()
    const reply = await t.request("GET", `v1/tasks/${task.id}:cancel`)
    check(reply.status === 405, `expected HTTP 405, got ${reply.status}`)
  }),

  restScenario("errors: an unknown route is 404 with -32601", async (t) => {
    t.expectError(await t.request("GET", "v1/no-such-operation"), 404, -32601, "unknown route")
  }),

  restScenario("errors: a body above the size limit (10 MiB default) is refused with 413", async (t) => {
    const big = new Uint8Array(10 * 1024 * 1024 + 64 * 1024).fill(0x20)
    big[0] = 0x7b
    big[big.length - 1] = 0x7d
    const reply = await t.request("POST", "v1/message:send", big, { timeoutMs: Math.max(t.timeoutMs, 20_000) })
    check(reply.status === 413, `expected HTTP 413, got ${reply.status}: ${show(reply.text, 200)}`)
  }),

  restScenario("errors: the extended card without credentials is an A2A error, never a card", async (t) => {
    const reply = await t.request("GET", "v1/card")
    if (reply.status === 200) t.skip("this agent serves GET /v1/card to anonymous callers")
    check([401, 403, 404].includes(reply.status), `expected HTTP 401, 403 or 404, got ${reply.status}: ${show(reply.text, 200)}`)
    if (reply.status === 404) t.expectError(reply, 404, -32007, "GET /v1/card")
  }),

  restScenario("errors: no REST route is reached through dot segments, %2e or backslashes (404)", async (t) => {
    const base = new URL(t.base).pathname
    const task = await t.createTask()
    const body = JSON.stringify(t.sendBody())
    const routes = [["GET", `v1/tasks/${task.id}`, undefined], ["POST", "v1/message:send", body]] as const
    const direct = await rawRequest(t.base, "GET", `${base}${routes[0][1]}`, undefined, t.timeoutMs)
    check(direct.status === 200 && direct.text.includes(String(task.id)), `GET ${routes[0][1]} should answer the task: ${show(direct.text.slice(0, 200))}`)
    for (const [method, route, payload] of routes) {
      for (const target of unnormalised(`${base}${route}`)) {
        const answer = await rawRequest(t.base, method, target, payload, t.timeoutMs)
        check(answer.status === 404 || answer.status === 400, `${method} ${target}: expected 404 (or 400), got ${answer.status}: ${show(answer.text.slice(0, 200))}`)
        check(!/"task"|"status"/.test(answer.text), `${method} ${target} reached a route: ${show(answer.text.slice(0, 200))}`)
      }
    }
  }),

  restScenario("errors: a body not sent as JSON (text/plain, a form, none) is 415, and creates no task", async (t) => {
    const body = JSON.stringify(t.sendBody())
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", null]) {
      // Bytes, so that `fetch` adds no Content-Type of its own.
      const reply = await t.request("POST", "v1/message:send", new TextEncoder().encode(body), { contentType })
      t.expectError(reply, 415, -32600, `as ${contentType ?? "no content type"}`)
    }
    for (const contentType of ["application/json; charset=utf-8", "application/a2a+json"]) {
      const task = t.expectTask(await t.request("POST", "v1/message:send", body, { contentType }), `as ${contentType}`)
      t.cancelLater(task.id as string)
    }
  })
]
