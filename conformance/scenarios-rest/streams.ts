import { check, equal, show, type JsonObject } from "../scenarios/assert.ts"
import type { SseSession } from "../scenarios/sse-session.ts"
import { restScenario, restState, type RestScenario, type RestScenarioContext } from "./harness.ts"

const subscribePath = (id: unknown): string => `v1/tasks/${encodeURIComponent(String(id))}:subscribe`

const cancel = async (t: RestScenarioContext, id: unknown): Promise<void> => {
  t.expectTask(await t.request("POST", `v1/tasks/${encodeURIComponent(String(id))}:cancel`), "cancel")
}

/** Opens `message:stream` and returns the session with its first event, a `{ task }`. */
const openStream = async (t: RestScenarioContext, body: unknown): Promise<{ session: SseSession; task: JsonObject }> => {
  await t.requireCapability("streaming")
  const session = await t.sse("POST", "v1/message:stream", body)
  t.expectSse(session, "message:stream")
  const [kind, task] = t.expectEvent(await session.next(), "first event")
  equal(kind, "task", "first event kind")
  t.cancelLater(task.id as string)
  return { session, task }
}

/** Expects the stream to end with a final canceled status update, then close. */
const expectEndsCanceled = async (t: RestScenarioContext, session: SseSession, where: string): Promise<void> => {
  const events = await t.untilFinal(session, where)
  equal(t.stateOf(events.at(-1)![1], where), restState("canceled"), `${where}: final state`)
  check(await session.waitForEnd(), `${where}: the stream should close after the final event`)
}

/** `message:stream` and `tasks/{id}:subscribe`: framing, order, final events, resumption. */
export const streamScenarios: ReadonlyArray<RestScenario> = [
  restScenario("stream: message:stream is text/event-stream; each event is one data: line wrapped by kind, the Task first", async (t) => {
    const { session, task } = await openStream(t, { message: t.message("stream me") })
    check(typeof task.id === "string" && !("kind" in task), `the first event should be a REST task: ${show(task, 200)}`)
    equal(session.received[0]?.event, undefined, "first event type")
  }),

  restScenario("stream: canceling while streaming ends the stream with a final TASK_STATE_CANCELLED statusUpdate", async (t) => {
    const { session, task } = await openStream(t, { message: t.heldMessage("cancel me while streaming") })
    await cancel(t, task.id)
    await expectEndsCanceled(t, session, "message:stream")
  }),

  restScenario("stream: a snake_case protobuf body opens the stream too", async (t) => {
    const messageId = crypto.randomUUID()
    const { task } = await openStream(t, { request: { message_id: messageId, role: "ROLE_USER", content: [{ text: "snake stream" }] } })
    equal((task.history as Array<JsonObject> | undefined)?.[0]?.messageId, messageId, "history[0].messageId")
  }),

  restScenario("stream: a follow-up message shows up as events on the open stream", async (t) => {
    const { session, task } = await openStream(t, { message: t.heldMessage("first") })
    t.expectTask(await t.request("POST", "v1/message:send", t.sendBody(t.message("second", { taskId: task.id }))), "follow-up")
    const [kind, event] = t.expectEvent(await session.next(), "event after the follow-up")
    check(kind === "statusUpdate" || kind === "task" || kind === "artifactUpdate", `unexpected event ${kind}`)
    equal(event.taskId ?? event.id, task.id, "event task id")
  }),

  restScenario("stream: our server numbers events with id: lines", async (t) => {
    const { session } = await openStream(t, { message: t.message("numbered") })
    const id = session.received[0]?.id
    if (id === undefined) t.skip("the server sends no id: lines (Last-Event-ID resumption is then not offered)")
    check(/^\d+$/.test(id!), `id: should be a sequence number, got ${show(id)}`)
  }),

  restScenario("subscribe: POST :subscribe sends the Task snapshot, then live events to the final canceled status", async (t) => {
    await t.requireCapability("streaming")
    const task = await t.createTask()
    const session = await t.sse("POST", subscribePath(task.id))
    t.expectSse(session, ":subscribe")
    const [kind, snapshot] = t.expectEvent(await session.next(), "snapshot")
    equal([kind, snapshot.id], ["task", task.id], "snapshot")
    await cancel(t, task.id)
    await expectEndsCanceled(t, session, ":subscribe")
  }),

  restScenario("subscribe: GET :subscribe works the same", async (t) => {
    await t.requireCapability("streaming")
    const task = await t.createTask()
    const session = await t.sse("GET", subscribePath(task.id))
    t.expectSse(session, "GET :subscribe")
    equal(t.expectEvent(await session.next(), "snapshot")[0], "task", "first event kind")
    await cancel(t, task.id)
    await expectEndsCanceled(t, session, "GET :subscribe")
  }),

  restScenario("subscribe: a terminal task sends its snapshot and closes", async (t) => {
    await t.requireCapability("streaming")
    const task = await t.createTask()
    await cancel(t, task.id)
    const session = await t.sse("POST", subscribePath(task.id))
    t.expectSse(session, ":subscribe")
    const [kind, snapshot] = t.expectEvent(await session.next(), "snapshot")
    equal(kind, "task", "snapshot kind")
    equal(t.stateOf(snapshot, "snapshot"), restState("canceled"), "snapshot state")
    check(await session.waitForEnd(), "the stream of a terminal task should close after the snapshot")
  }),

  restScenario("subscribe: an unknown task is 404 with -32001 (or an error event)", async (t) => {
    await t.requireCapability("streaming")
    const session = await t.sse("POST", subscribePath(`missing-${crypto.randomUUID()}`))
    if (/^text\/event-stream\b/i.test(session.contentType)) {
      await t.expectErrorEvent(session, -32001, ":subscribe")
      return
    }
    const text = await session.readText()
    t.expectError({ status: session.status, headers: session.response.headers, contentType: session.contentType, text, body: JSON.parse(text), sentId: undefined }, 404, -32001, ":subscribe")
  }),

  restScenario("subscribe: two subscribers both receive the final canceled status", async (t) => {
    await t.requireCapability("streaming")
    const task = await t.createTask()
    const a = await t.sse("POST", subscribePath(task.id))
    const b = await t.sse("GET", subscribePath(task.id))
    t.expectEvent(await a.next(), "subscriber A snapshot")
    t.expectEvent(await b.next(), "subscriber B snapshot")
    await cancel(t, task.id)
    await expectEndsCanceled(t, a, "subscriber A")
    await expectEndsCanceled(t, b, "subscriber B")
  }),

  restScenario("subscribe: Last-Event-ID after a disconnect resumes with exactly the missed events", async (t) => {
    const { session, task } = await openStream(t, { message: t.heldMessage("resume me") })
    const anchor = session.received[0]?.id
    if (anchor === undefined) t.skip("the server sends no id: lines, so Last-Event-ID cannot be used")
    t.expectTask(await t.request("POST", "v1/message:send", t.sendBody(t.message("more", { taskId: task.id }))), "follow-up")
    t.expectEvent(await session.next(), "event after the follow-up")
    await session.close()
    const missed = session.received.slice(1)
    const resumed = await t.sse("POST", subscribePath(task.id), undefined, { headers: { "last-event-id": anchor! } })
    t.expectSse(resumed, "resumed :subscribe")
    for (const [i, before] of missed.entries()) {
      const event = await resumed.next()
      check(event !== undefined, `the resumed stream ended before replaying event id ${before.id}`)
      equal(event!.id, before.id, `replayed event #${i + 1} id`)
      equal(event!.json, before.json, `replayed event #${i + 1} payload`)
    }
    await cancel(t, task.id)
    const rest = await t.untilFinal(resumed, "resumed :subscribe")
    equal(t.stateOf(rest.at(-1)![1], "last event"), restState("canceled"), "final state")
    const ids = [...missed, ...resumed.received.slice(missed.length)].map((e) => Number(e.id))
    check(ids.every((n, i) => i === 0 || n > ids[i - 1]!), `event ids should increase without repeats: ${show(ids)}`)
  }),

  restScenario("subscribe: Last-Event-ID at the latest event answers headers at once and waits for live events", async (t) => {
    const { session, task } = await openStream(t, { message: t.heldMessage("quiet") })
    const latest = session.received.at(-1)?.id
    if (latest === undefined) t.skip("the server sends no id: lines, so Last-Event-ID cannot be used")
    await session.close()
    // Nothing was missed: the server must still answer (headers) within the bound, not at the next event.
    const resumed = await t.sse("POST", subscribePath(task.id), undefined, { headers: { "last-event-id": latest! } })
    t.expectSse(resumed, "resumed :subscribe")
    await cancel(t, task.id)
    const events = await t.untilFinal(resumed, "resumed :subscribe")
    check(events.every(([, e]) => e.taskId === task.id || e.id === task.id), "events should concern the task")
    check(events.every((_, i) => resumed.received[i]?.id === undefined || Number(resumed.received[i]!.id) > Number(latest)), "no event at or before Last-Event-ID")
  })
]
