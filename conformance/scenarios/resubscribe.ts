import { check, equal, expectRpcResult, expectTask, show, stateOf, terminalStates } from "./assert.ts"
import { scenario, type Scenario, type ScenarioContext, type StreamHandle } from "./harness.ts"
import type { StreamEvent } from "./sse-session.ts"

const isFinal = (e: StreamEvent): boolean => (e.json as { result?: { final?: unknown } } | undefined)?.result?.final === true

const expectEndsCanceled = async (t: ScenarioContext, handle: StreamHandle, where: string): Promise<void> => {
  const events = await handle.session.until(isFinal)
  const last = t.expectEventResult(events.at(-1), handle.id, `${where}: last event`)
  equal(last.final, true, `${where}: last event final`)
  equal(stateOf(last), "canceled", `${where}: last event state`)
  check(await handle.session.waitForEnd(), `${where}: stream should close after the final event`)
}

/** `tasks/resubscribe`: snapshot first, live events, terminal tasks, unknown tasks and resumption. */
export const resubscribeScenarios: ReadonlyArray<Scenario> = [
  scenario("resubscribe: the Task comes first, then live events up to the final canceled status", async (t) => {
    const task = await t.createTask()
    const handle = await t.stream("tasks/resubscribe", { id: task.id })
    t.expectSse(handle, "tasks/resubscribe")
    const first = expectTask(t.expectEventResult(await handle.session.next(), handle.id, "first event"), "first event")
    equal(first.id, task.id, "snapshot task id")
    expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "tasks/cancel")
    await expectEndsCanceled(t, handle, "resubscribe")
  }),

  scenario("resubscribe: a terminal task sends its Task snapshot and closes", async (t) => {
    const task = await t.createTask()
    expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "tasks/cancel")
    const handle = await t.stream("tasks/resubscribe", { id: task.id })
    t.expectSse(handle, "tasks/resubscribe")
    const first = expectTask(t.expectEventResult(await handle.session.next(), handle.id, "first event"), "first event")
    equal(stateOf(first), "canceled", "snapshot state")
    check(await handle.session.waitForEnd(), "the stream of a terminal task should close after the snapshot")
    equal(handle.session.received.length, 1, "events on a terminal task's stream")
  }),

  scenario("resubscribe: unknown task is a -32001 error naming the task as not found", async (t) => {
    const id = `missing-${crypto.randomUUID()}`
    const handle = await t.stream("tasks/resubscribe", { id })
    check(/^text\/event-stream\b/i.test(handle.session.contentType), `the error should travel inside an SSE stream, got "${handle.session.contentType}"`)
    const error = await t.expectStreamError(handle, [-32001], "tasks/resubscribe")
    check(/not found/i.test(String(error.message)), `error message should say the task was not found: ${show(error.message)}`)
  }),

  scenario("resubscribe: a test-resubscribe-message-id task is still live and resubscribable", async (t) => {
    const task = await t.createTask({ messageId: `test-resubscribe-message-id-${crypto.randomUUID()}` })
    const handle = await t.stream("tasks/resubscribe", { id: task.id })
    t.expectSse(handle, "tasks/resubscribe")
    const first = expectTask(t.expectEventResult(await handle.session.next(), handle.id, "first event"), "first event")
    check(!terminalStates.has(stateOf(first)), `task should still be live, got ${stateOf(first)}`)
  }),

  scenario("resubscribe: two subscribers both receive the final canceled event", async (t) => {
    const task = await t.createTask()
    const a = await t.stream("tasks/resubscribe", { id: task.id })
    const b = await t.stream("tasks/resubscribe", { id: task.id })
    t.expectEventResult(await a.session.next(), a.id, "subscriber A snapshot")
    t.expectEventResult(await b.session.next(), b.id, "subscriber B snapshot")
    expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "tasks/cancel")
    await expectEndsCanceled(t, a, "subscriber A")
    await expectEndsCanceled(t, b, "subscriber B")
  }),

  scenario("resubscribe: Last-Event-ID after a disconnect resumes with exactly the missed events", async (t) => {
    const { session, id: streamId } = await t.stream("message/stream", { message: t.heldMessage() })
    const task = expectTask(t.expectEventResult(await session.next(), streamId, "first event"), "first event")
    t.cancelLater(task.id as string)
    const anchor = session.received[0]!
    const anchorId = anchor.id
    if (anchorId === undefined) return t.skip("the server sends no id: lines, so Last-Event-ID cannot be used")
    // A follow-up produces events on the open stream; they are the ones the resumed stream must replay.
    expectRpcResult(await t.rpc("message/send", t.sendParams(t.message("more", { taskId: task.id }))), "follow-up")
    t.expectEventResult(await session.next(), streamId, "event after the follow-up")
    await session.close()
    const seen = session.received.slice(1)
    const resumed = await t.stream("tasks/resubscribe", { id: task.id }, { headers: { "last-event-id": anchorId } })
    t.expectSse(resumed, "resumed stream")
    for (const [i, before] of seen.entries()) {
      const e = await resumed.session.next()
      check(e !== undefined, `resumed stream ended before replaying event id ${before.id}`)
      equal(e!.id, before.id, `replayed event #${i + 1} id`)
      const replayed = t.expectEventResult(e, resumed.id, `replayed event #${i + 1}`)
      equal(replayed, (before.json as { result: unknown }).result, `replayed event #${i + 1} payload`)
    }
    expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "tasks/cancel")
    const rest = await resumed.session.until(isFinal)
    const ids = [...seen, ...rest].map((e) => Number(e.id))
    check(ids.every((n, i) => i === 0 || n > ids[i - 1]!), `event ids should increase without repeats: ${show(ids)}`)
    equal(stateOf(t.expectEventResult(rest.at(-1), resumed.id, "last event")), "canceled", "last event state")
  })
]
