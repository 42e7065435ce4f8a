import { asArray, check, equal, type JsonObject } from "../scenarios/assert.ts"
import { restScenario, restState, type RestScenario, type RestScenarioContext } from "./harness.ts"

const task = (id: unknown): string => `v1/tasks/${encodeURIComponent(String(id))}`

/** A working task whose history holds two user messages. */
const taskWithTwoMessages = async (t: RestScenarioContext): Promise<JsonObject> => {
  const created = await t.createTask()
  const followUp = t.sendBody(t.message("second", { taskId: created.id }))
  t.expectTask(await t.request("POST", "v1/message:send", followUp), "follow-up")
  return created
}

const historyLength = (value: JsonObject): number => asArray(value.history ?? [], "history").length

/** `GET /v1/tasks/{id}` and `POST /v1/tasks/{id}:cancel`. */
export const taskScenarios: ReadonlyArray<RestScenario> = [
  restScenario("get: GET /v1/tasks/{id} answers the bare task (no wrapper) with its history", async (t) => {
    const created = await t.createTask()
    const got = t.expectTask(await t.request("GET", task(created.id)), "get")
    equal(got.id, created.id, "task id")
    check(historyLength(got) >= 1, "the task's history should be included")
  }),

  restScenario("get: historyLength=1 answers only the last message", async (t) => {
    const created = await taskWithTwoMessages(t)
    const full = t.expectTask(await t.request("GET", task(created.id)), "get")
    const last = t.expectTask(await t.request("GET", `${task(created.id)}?historyLength=1`), "get ?historyLength=1")
    equal(historyLength(last), 1, "history length")
    equal(last.history, (full.history as Array<unknown>).slice(-1), "the last message")
  }),

  restScenario("get: the .proto's snake_case query name history_length works too", async (t) => {
    const created = await taskWithTwoMessages(t)
    equal(historyLength(t.expectTask(await t.request("GET", `${task(created.id)}?history_length=1`), "get")), 1, "history length")
  }),

  restScenario("get: historyLength=0 answers the whole history", async (t) => {
    const created = await taskWithTwoMessages(t)
    check(historyLength(t.expectTask(await t.request("GET", `${task(created.id)}?historyLength=0`), "get")) >= 2, "whole history expected")
  }),

  restScenario("cancel: POST :cancel answers the task in TASK_STATE_CANCELLED, and GET agrees", async (t) => {
    const created = await t.createTask()
    const canceled = t.expectTask(await t.request("POST", `${task(created.id)}:cancel`), "cancel")
    equal(t.stateOf(canceled, "cancel"), restState("canceled"), "state after cancel")
    equal(t.stateOf(t.expectTask(await t.request("GET", task(created.id)), "get"), "get"), restState("canceled"), "state read back")
  }),

  restScenario("cancel: a body with metadata is accepted", async (t) => {
    const created = await t.createTask()
    const canceled = t.expectTask(await t.request("POST", `${task(created.id)}:cancel`, { metadata: { reason: "test" } }), "cancel")
    equal(t.stateOf(canceled, "cancel"), restState("canceled"), "state")
  }),

  restScenario("cancel: the action may be percent-encoded (%3Acancel)", async (t) => {
    const created = await t.createTask()
    const canceled = t.expectTask(await t.request("POST", `${task(created.id)}%3Acancel`), "cancel")
    equal(t.stateOf(canceled, "cancel"), restState("canceled"), "state")
  })
]
