import { check, equal, expectRpcResult, expectTask, historyIds, show, stateOf, terminalStates, type JsonObject } from "./assert.ts"
import { scenario, type Scenario, type ScenarioContext, type StreamHandle } from "./harness.ts"
import type { StreamEvent } from "./sse-session.ts"

const isFinal = (e: StreamEvent): boolean => {
  const result = (e.json as { result?: { final?: unknown } } | undefined)?.result
  return result?.final === true
}

/** Opens message/stream for a held text message (its task stays live) and checks the first event is the Task. */
const openTaskStream = async (t: ScenarioContext, id?: string | number): Promise<{ handle: StreamHandle; task: JsonObject }> => {
  const handle = await t.stream("message/stream", { message: t.heldMessage() }, id === undefined ? {} : { id })
  t.expectSse(handle, "message/stream")
  const result = t.expectEventResult(await handle.session.next(), handle.id, "first event")
  const task = expectTask(result, "first event result")
  t.cancelLater(task.id as string)
  return { handle, task }
}

/** `message/stream`: SSE framing, event order and errors. */
export const streamScenarios: ReadonlyArray<Scenario> = [
  scenario("stream: answers HTTP 200 with Content-Type text/event-stream", async (t) => {
    const handle = await t.stream("message/stream", { message: t.message() })
    t.expectSse(handle, "message/stream")
    const first = t.expectEventResult(await handle.session.next(), handle.id, "first event")
    t.cancelLater((first.kind === "task" ? first.id : first.taskId) as string)
  }),

  scenario("stream: the first event is the Task, as a one-line data: JSON-RPC response with the request id", async (t) => {
    const message = t.message()
    const handle = await t.stream("message/stream", { message })
    t.expectSse(handle, "message/stream")
    const task = expectTask(t.expectEventResult(await handle.session.next(), handle.id, "first event"), "first event")
    t.cancelLater(task.id as string)
    check(!terminalStates.has(stateOf(task)), `a new task should not start terminal, got ${stateOf(task)}`)
    const ids = historyIds(task)
    check(ids.length === 0 || ids.includes(message.messageId as string), `Task history ${show(ids)} should contain the message`)
  }),

  scenario("stream: every event echoes a numeric request id and the last one is final:true", async (t) => {
    const { handle, task } = await openTaskStream(t, 7)
    expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "tasks/cancel")
    const events = await handle.session.until(isFinal)
    check(events.length > 0, "no event after the Task")
    for (const [i, e] of events.entries()) {
      const r = t.expectEventResult(e, 7, `event #${i + 1}`)
      const taskId = r.kind === "task" ? r.id : r.taskId
      equal(taskId, task.id, `event #${i + 1} task id`)
    }
    check(isFinal(events.at(-1)!), "the stream ended without a final:true status-update")
    check(await handle.session.waitForEnd(), "the stream should close after the final event")
    check(handle.session.received.slice(0, -1).every((e) => !isFinal(e)), "final:true must only be on the last event")
  }),

  scenario("stream: a follow-up message/stream on a working task starts with that Task", async (t) => {
    const task = await t.createTask()
    const followUp = t.message("continue", { taskId: task.id })
    const handle = await t.stream("message/stream", { message: followUp })
    t.expectSse(handle, "message/stream follow-up")
    const first = expectTask(t.expectEventResult(await handle.session.next(), handle.id, "first event"), "first event")
    equal(first.id, task.id, "first event task id")
  }),

  scenario("stream: a client disconnect does not cancel the task", async (t) => {
    const { handle, task } = await openTaskStream(t)
    await handle.session.close()
    const got = expectTask(expectRpcResult(await t.rpc("tasks/get", { id: task.id }), "tasks/get"))
    check(!terminalStates.has(stateOf(got)), `the task became ${stateOf(got)} after the client disconnected`)
  }),

  scenario("stream: missing messageId is -32602 (JSON body or SSE error event)", async (t) => {
    const message = t.message()
    delete message.messageId
    await t.expectStreamError(await t.stream("message/stream", { message }), [-32602], "message/stream")
  }),

  scenario("stream: a message naming an unknown taskId is -32001", async (t) => {
    const message = t.message(undefined, { taskId: `missing-${crypto.randomUUID()}` })
    await t.expectStreamError(await t.stream("message/stream", { message }), [-32001], "message/stream")
  }),

  scenario("stream: id: lines, when sent, are on every event and increase", async (t) => {
    const { handle, task } = await openTaskStream(t)
    expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "tasks/cancel")
    await handle.session.until(isFinal)
    const ids = handle.session.received.map((e) => e.id).filter((id): id is string => id !== undefined)
    if (ids.length === 0) t.skip("the server sends no id: lines")
    equal(ids.length, handle.session.received.length, "events with an id: line (all or none)")
    const numbers = ids.map(Number)
    check(numbers.every(Number.isInteger), `id: values should be integer sequence numbers, got ${show(ids)}`)
    check(numbers.every((n, i) => i === 0 || n > numbers[i - 1]!), `id: values should increase, got ${show(ids)}`)
  })
]
