import { asArray, asObject, check, equal, show, type JsonObject } from "../scenarios/assert.ts"
import { restScenario, restState, type RestScenario, type RestScenarioContext } from "./harness.ts"

/** The history of a REST task, each entry checked to be a protobuf-form message. */
const historyOf = (task: JsonObject, where: string): Array<JsonObject> =>
  asArray(task.history ?? [], `${where}.history`).map((m, i) => {
    const message = asObject(m, `${where}.history[${i}]`)
    check(Array.isArray(message.content), `${where}.history[${i}] should hold its parts under content: ${show(message, 200)}`)
    return message
  })

const textOf = (message: JsonObject): string =>
  (message.content as Array<JsonObject>).map((p) => (typeof p.text === "string" ? p.text : "")).join("")

/** Sends `body` to `message:send` and returns the REST task it answers. */
const sendTask = async (t: RestScenarioContext, body: unknown, where: string): Promise<JsonObject> => {
  const task = t.expectTask(await t.request("POST", "v1/message:send", body), where)
  t.cancelLater(task.id as string)
  return task
}

/** `message:send` in every spelling peers use, and what it answers. */
export const sendScenarios: ReadonlyArray<RestScenario> = [
  restScenario("send: a plain A2A body answers { task } in the protobuf JSON form (TASK_STATE_*, ROLE_USER, content)", async (t) => {
    const message = t.heldMessage("plain spelling")
    const task = await sendTask(t, t.sendBody(message), "message:send")
    equal(t.stateOf(task, "task"), restState("working"), "state")
    const [first] = historyOf(task, "task")
    check(first !== undefined, "the history should hold the user message")
    equal(first!.role, "ROLE_USER", "history[0].role")
    equal(first!.messageId, message.messageId, "history[0].messageId")
    equal(textOf(first!), "plain spelling", "history[0] text")
  }),

  restScenario("send: a camelCase protobuf body (content, ROLE_USER, no kind) is accepted", async (t) => {
    const messageId = crypto.randomUUID()
    const body = { message: { messageId, role: "ROLE_USER", content: [{ text: "camel" }] }, configuration: { blocking: false } }
    const task = await sendTask(t, body, "message:send")
    equal(historyOf(task, "task")[0]?.messageId, messageId, "history[0].messageId")
  }),

  restScenario("send: a snake_case protobuf body (request wrapper, message_id, history_length) is accepted", async (t) => {
    const messageId = crypto.randomUUID()
    const body = { request: { message_id: messageId, role: "ROLE_USER", content: [{ text: "snake" }] }, configuration: { blocking: false, history_length: 1 } }
    const task = await sendTask(t, body, "message:send")
    const history = historyOf(task, "task")
    equal(history.length, 1, "history length with history_length 1")
    equal(history[0]?.messageId, messageId, "history[0].messageId")
  }),

  restScenario("send: a plain A2A part without kind is accepted when its fields make it unambiguous", async (t) => {
    const task = await sendTask(t, t.sendBody({ role: "user", messageId: crypto.randomUUID(), parts: [{ text: "no kind" }] }), "message:send")
    equal(textOf(historyOf(task, "task")[0]!), "no kind", "history[0] text")
  }),

  restScenario("send: file and data parts come back in the protobuf form (fileWithUri, data.data)", async (t) => {
    const message = t.message("parts", {
      parts: [
        { kind: "text", text: "parts" },
        { kind: "file", file: { uri: "https://example.com/a.txt", mimeType: "text/plain" } },
        { kind: "data", data: { answer: 42 } }
      ]
    })
    const task = await sendTask(t, t.sendBody(message), "message:send")
    const content = historyOf(task, "task")[0]!.content as Array<JsonObject>
    equal(content[1], { file: { fileWithUri: "https://example.com/a.txt", mimeType: "text/plain" } }, "file part")
    equal(content[2], { data: { data: { answer: 42 } } }, "data part")
  }),

  restScenario("send: a follow-up with the taskId continues the task and grows its history", async (t) => {
    const task = await t.createTask()
    const followUp = { message: { messageId: crypto.randomUUID(), taskId: task.id, role: "ROLE_USER", content: [{ text: "more" }] }, configuration: { blocking: false } }
    const continued = t.expectTask(await t.request("POST", "v1/message:send", followUp), "follow-up")
    equal(continued.id, task.id, "continued task id")
    equal(continued.contextId, task.contextId, "continued context id")
    check(historyOf(continued, "continued").length >= 2, `history should have grown: ${show(continued.history)}`)
  }),

]
