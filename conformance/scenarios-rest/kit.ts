import { asArray, asObject, check, equal, show, type JsonObject } from "../scenarios/assert.ts"
import { restScenario, restState, type RestScenario, type RestScenarioContext } from "./harness.ts"

/**
 * The official A2A 0.3 conformance kit over REST, as its REST client sends: `POST v1/message:send` with
 * `{ message: { message_id, role: "ROLE_USER", content } }` and no `configuration` (blocking), then cancel,
 * follow-ups, history reads; its REST streaming client reads `message:stream` until a terminal event with no
 * timeout of its own. See `../scenarios/kit.ts` for what it expects and why.
 */

const kitBody = (prefix: string, text: string, extra: JsonObject = {}): JsonObject => ({
  message: { message_id: `${prefix}-message-id-${crypto.randomUUID()}`, role: "ROLE_USER", content: [{ text }], ...extra }
})

const messageIdOf = (body: JsonObject): string => asObject(body.message, "message").message_id as string

const kitSend = async (t: RestScenarioContext, body: JsonObject, where: string): Promise<JsonObject> => {
  const task = t.expectTask(await t.request("POST", "v1/message:send", body), where)
  t.cancelLater(task.id as string)
  return task
}

const getTask = async (t: RestScenarioContext, id: string, historyLength?: number): Promise<JsonObject> =>
  t.expectTask(await t.request("GET", `v1/tasks/${encodeURIComponent(id)}${historyLength === undefined ? "" : `?historyLength=${historyLength}`}`), "get")

const historyIds = (task: JsonObject): Array<string> =>
  asArray(task.history ?? [], "history").map((m) => asObject(m, "history message").messageId as string)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const open = new Set(["submitted", "working", "input-required"].map(restState))
const answered = new Set([...open, restState("completed")])

export const kitScenarios: ReadonlyArray<RestScenario> = [
  restScenario("kit: a plain message:send (no configuration) is answered while its task is open, first state submitted or working", async (t) => {
    const body = kitBody("test-state", "Task for state transition test")
    const task = await kitSend(t, body, "message:send")
    check(open.has(t.stateOf(task, "message:send")), `the answer should come while the task is open, got ${t.stateOf(task, "message:send")}`)
    const got = await getTask(t, task.id as string, 1)
    check([restState("submitted"), restState("working")].includes(t.stateOf(got, "get")), `first state should be submitted or working, got ${t.stateOf(got, "get")}`)
    equal(historyIds(got), [messageIdOf(body)], "history with historyLength 1")
  }),

  restScenario("kit: the task of a plain send can be canceled, and canceling it again is an error", async (t) => {
    const task = await kitSend(t, kitBody("test-cancel", "Task for cancel test"), "message:send")
    const canceled = t.expectTask(await t.request("POST", `v1/tasks/${task.id}:cancel`), "first cancel")
    equal(t.stateOf(canceled, "first cancel"), restState("canceled"), "canceled state")
    t.expectError(await t.request("POST", `v1/tasks/${task.id}:cancel`), 409, -32002, "second cancel")
  }),

  restScenario("kit: the task of a plain send takes follow-ups as the kit sends them: 0.5 s apart, then 2 s later, with its contextId", async (t) => {
    const first = kitBody("test-update", "Hello from resilience test!")
    const task = await kitSend(t, first, "message:send")
    const sent = [messageIdOf(first)]
    const followUp = async (i: number, extra: JsonObject = {}) => {
      const body = kitBody(`test-update-${i}`, `Update ${i}`, { task_id: task.id, ...extra })
      const result = t.expectTask(await t.request("POST", "v1/message:send", body), `follow-up ${i}`)
      equal(result.id, task.id, `follow-up ${i}: task id`)
      check(answered.has(t.stateOf(result, `follow-up ${i}`)), `follow-up ${i}: unexpected state ${t.stateOf(result, `follow-up ${i}`)}`)
      sent.push(messageIdOf(body))
    }
    await sleep(500)
    await followUp(1)
    await followUp(2)
    await sleep(2_000)
    await followUp(3, { context_id: task.contextId })
    await followUp(4)
    const ids = historyIds(await getTask(t, task.id as string))
    check(sent.every((id) => ids.includes(id)), `history ${show(ids)} should hold every message sent ${show(sent)}`)
    check(historyIds(await getTask(t, task.id as string, 2)).length <= 2, "historyLength 2 should give at most 2 messages")
  }),

  restScenario("kit: a plain message:stream ends by itself with a final terminal status", async (t) => {
    await t.requireCapability("streaming")
    const session = await t.sse("POST", "v1/message:stream", kitBody("stream", "Stream test message"))
    t.expectSse(session, "message:stream")
    // The kit's REST streaming client reads until a terminal event with no timeout; here each event is awaited for the run's bound.
    const events = await session.until((e) => (e.json as { statusUpdate?: { final?: unknown } } | undefined)?.statusUpdate?.final === true)
    const last = t.expectEvent(events.at(-1), "last event")
    check(last[0] === "statusUpdate" && last[1].final === true, `the stream should end with a final status update, got ${show(last)}`)
    check([restState("completed"), restState("canceled"), restState("failed"), restState("rejected")].includes(t.stateOf(last[1], "last event")), "the final state should be terminal")
    check(await session.waitForEnd(), "the stream should close after its final event")
  })
]
