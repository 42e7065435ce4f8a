import { asObject, check, equal, expectEnvelope, expectRpcError, expectRpcResult, expectTask, show, stateOf } from "./assert.ts"
import { scenario, type Scenario } from "./harness.ts"

/** `tasks/cancel`: the state change, repeated and concurrent cancels, and what a canceled task refuses. */
export const cancelScenarios: ReadonlyArray<Scenario> = [
  scenario("cancel: a working task becomes canceled and tasks/get agrees", async (t) => {
    const task = await t.createTask()
    const canceled = expectTask(expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "tasks/cancel"))
    equal(canceled.id, task.id, "canceled task id")
    equal(stateOf(canceled), "canceled", "state after cancel")
    const got = expectTask(expectRpcResult(await t.rpc("tasks/get", { id: task.id }), "tasks/get"))
    equal(stateOf(got), "canceled", "tasks/get state after cancel")
  }),

  scenario("cancel: a second cancel of the canceled task is -32002", async (t) => {
    const task = await t.createTask()
    expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "first cancel")
    expectRpcError(await t.rpc("tasks/cancel", { id: task.id }), -32002, { where: "second cancel" })
  }),

  scenario("cancel: unknown task id is -32001", async (t) => {
    expectRpcError(await t.rpc("tasks/cancel", { id: `missing-${crypto.randomUUID()}` }), -32001)
  }),

  scenario("cancel: two concurrent cancels: one canceled Task and one -32002, or both canceled", async (t) => {
    const task = await t.createTask()
    const replies = await Promise.all([t.rpc("tasks/cancel", { id: task.id }), t.rpc("tasks/cancel", { id: task.id })])
    const outcomes = replies.map((r, i) => {
      const env = expectEnvelope(r.body, `cancel #${i}`)
      check(r.status === 200, `cancel #${i}: HTTP ${r.status}`)
      equal(env.id, r.sentId, `cancel #${i} id`)
      if ("error" in env) {
        const code = asObject(env.error, "error").code
        check(code === -32002, `cancel #${i}: the losing cancel must be -32002, got ${show(env.error)}`)
        return "not-cancelable"
      }
      equal(stateOf(expectTask(env.result, `cancel #${i} result`)), "canceled", `cancel #${i} state`)
      return "canceled"
    })
    check(outcomes.includes("canceled"), `neither cancel succeeded: ${show(outcomes)}`)
    const got = expectTask(expectRpcResult(await t.rpc("tasks/get", { id: task.id }), "tasks/get"))
    equal(stateOf(got), "canceled", "final state")
  }),

  scenario("cancel: a message to a canceled (terminal) task is -32602", async (t) => {
    const task = await t.createTask()
    expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "cancel")
    const late = t.message("too late", { taskId: task.id })
    expectRpcError(await t.rpc("message/send", t.sendParams(late)), -32602)
  }),

  scenario("cancel: while a message/stream is open, the stream ends with a final canceled status", async (t) => {
    const handle = await t.stream("message/stream", { message: t.heldMessage() })
    t.expectSse(handle, "message/stream")
    const first = t.expectEventResult(await handle.session.next(), handle.id, "first event")
    const taskId = (first.kind === "task" ? first.id : first.taskId) as string
    t.cancelLater(taskId)
    expectRpcResult(await t.rpc("tasks/cancel", { id: taskId }), "tasks/cancel")
    const rest = await handle.session.until((e) => asObject(asObject(e.json, "event").result ?? {}, "result").final === true)
    const last = rest.at(-1)
    const result = t.expectEventResult(last, handle.id, "last event")
    equal(result.kind, "status-update", "last event kind")
    equal(result.final, true, "last event final")
    equal(stateOf(result), "canceled", "last event state")
    check(await handle.session.waitForEnd(), "the stream should close after the final event")
  })
]
