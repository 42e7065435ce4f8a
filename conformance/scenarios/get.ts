import { check, equal, expectRpcError, expectRpcResult, expectTask, historyIds, show, stateOf } from "./assert.ts"
import { scenario, type Scenario } from "./harness.ts"

/** `tasks/get`: lookup, history trimming and its parameter errors. */
export const getScenarios: ReadonlyArray<Scenario> = [
  scenario("get: returns the task by id with its state", async (t) => {
    const task = await t.createTask()
    const got = expectTask(expectRpcResult(await t.rpc("tasks/get", { id: task.id }), "tasks/get"))
    equal(got.id, task.id, "task id")
    equal(stateOf(got), "working", "status.state of a held conformance task")
  }),

  scenario("get: without historyLength the whole history is included", async (t) => {
    const task = await t.createTask()
    const followUp = t.message("again", { taskId: task.id })
    expectRpcResult(await t.rpc("message/send", t.sendParams(followUp)), "follow-up")
    const got = expectTask(expectRpcResult(await t.rpc("tasks/get", { id: task.id }), "tasks/get"))
    const ids = historyIds(got)
    check(ids.includes(followUp.messageId as string), `history should include both user messages, got ${show(ids)}`)
  }),

  scenario("get: historyLength 0 returns the whole history", async (t) => {
    const task = await t.createTask()
    const followUp = t.message("again", { taskId: task.id })
    expectRpcResult(await t.rpc("message/send", t.sendParams(followUp)), "follow-up")
    const got = expectTask(expectRpcResult(await t.rpc("tasks/get", { id: task.id, historyLength: 0 }), "tasks/get"))
    check(historyIds(got).length >= 2, `historyLength 0 should return every message, got ${show(historyIds(got))}`)
  }),

  scenario("get: historyLength 1 returns only the last message", async (t) => {
    const task = await t.createTask()
    const followUp = t.message("latest", { taskId: task.id })
    expectRpcResult(await t.rpc("message/send", t.sendParams(followUp)), "follow-up")
    const got = expectTask(expectRpcResult(await t.rpc("tasks/get", { id: task.id, historyLength: 1 }), "tasks/get"))
    const ids = historyIds(got)
    equal(ids.length, 1, "history length")
    equal(ids[0], followUp.messageId, "the one message kept")
  }),

  scenario("get: unknown task id is -32001", async (t) => {
    expectRpcError(await t.rpc("tasks/get", { id: `missing-${crypto.randomUUID()}` }), -32001)
  }),

  scenario("get: negative historyLength is -32602", async (t) => {
    const task = await t.createTask()
    expectRpcError(await t.rpc("tasks/get", { id: task.id, historyLength: -1 }), -32602)
  }),

  scenario("get: params without id is -32602", async (t) => {
    expectRpcError(await t.rpc("tasks/get", {}), -32602)
  }),

  scenario("get: id of a wrong type in params is -32602", async (t) => {
    expectRpcError(await t.rpc("tasks/get", { id: 12345 }), -32602)
  })
]
