import { check, equal, expectRpcError, expectRpcResult, expectTask, historyIds, show, stateOf, terminalStates, type JsonObject } from "./assert.ts"
import { scenario, type Scenario, type ScenarioContext } from "./harness.ts"

/**
 * What the official A2A 0.3 conformance kit (a2aproject/a2a-tck, branch 0.3.x) does with an agent, as its own
 * tests do it: a `message/send` with no `configuration` at all (so a blocking one, on this server as on the
 * official ones), and, with the answer in hand, a cancel, follow-ups (three 0.5 s apart; one after 2 s; one
 * naming the contextId too), reads of the history, and the first state it expects (`submitted` or `working`).
 * Its streaming tests read until a terminal event with no timeout of their own. An agent made for conformance
 * runs passes these; a server with another agent may not (they test the agent as much as the protocol).
 */

/** A user message as the kit writes it: its messageId prefixes, no configuration. */
const kitMessage = (t: ScenarioContext, prefix: string, text: string, overrides: JsonObject = {}): JsonObject =>
  t.message(text, { messageId: `${prefix}-message-id-${crypto.randomUUID()}`, ...overrides })

/** Sends like the kit: `message/send` with the message only, no `configuration`. */
const kitSend = async (t: ScenarioContext, message: JsonObject, where: string): Promise<JsonObject> => {
  const task = expectTask(expectRpcResult(await t.rpc("message/send", { message }), where), `${where} result`)
  t.cancelLater(task.id as string)
  return task
}

const getTask = async (t: ScenarioContext, id: string, historyLength?: number): Promise<JsonObject> =>
  expectTask(expectRpcResult(await t.rpc("tasks/get", historyLength === undefined ? { id } : { id, historyLength }), "tasks/get"), "tasks/get result")

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The states the kit accepts in the answer to a send or a follow-up. */
const answered = new Set(["submitted", "working", "input-required", "completed"])

export const kitScenarios: ReadonlyArray<Scenario> = [
  scenario("kit: a plain message/send (no configuration) is answered while its task is open, first state submitted or working", async (t) => {
    const message = kitMessage(t, "test-state", "Task for state transition test")
    const task = await kitSend(t, message, "message/send")
    check(!terminalStates.has(stateOf(task)), `the answer should come while the task is open, got ${stateOf(task)}`)
    const got = await getTask(t, task.id as string, 1)
    check(["submitted", "working"].includes(stateOf(got)), `first state should be submitted or working, got ${stateOf(got)}`)
    equal(historyIds(got), [message.messageId], "history with historyLength 1")
  }),

  scenario("kit: the task of a plain send can be canceled, and canceling it again is an error", async (t) => {
    const task = await kitSend(t, kitMessage(t, "test-cancel", "Task for cancel test"), "message/send")
    const canceled = expectTask(expectRpcResult(await t.rpc("tasks/cancel", { id: task.id }), "first cancel"), "first cancel")
    equal([canceled.id, stateOf(canceled)], [task.id, "canceled"], "canceled task")
    expectRpcError(await t.rpc("tasks/cancel", { id: task.id }), -32002, { where: "second cancel" })
  }),

  scenario("kit: the task of a plain send takes follow-ups as the kit sends them: 0.5 s apart, then 2 s later, with its contextId", async (t) => {
    const first = kitMessage(t, "test-history-create", "Initial message for history test")
    const task = await kitSend(t, first, "message/send")
    const sent = [first.messageId as string]
    const followUp = async (i: number, overrides: JsonObject = {}) => {
      const message = kitMessage(t, `test-history-message-${i}`, `Follow-up message ${i}`, { taskId: task.id, ...overrides })
      const result = expectTask(expectRpcResult(await t.rpc("message/send", { message }), `follow-up ${i}`), `follow-up ${i}`)
      equal(result.id, task.id, `follow-up ${i}: task id`)
      check(answered.has(stateOf(result)), `follow-up ${i}: unexpected state ${stateOf(result)}`)
      sent.push(message.messageId as string)
    }
    for (let i = 1; i <= 3; i++) {
      await followUp(i)
      await sleep(500)
    }
    await sleep(2_000)
    await followUp(4, { contextId: task.contextId })
    const full = await getTask(t, task.id as string)
    const ids = historyIds(full)
    check(sent.every((id) => ids.includes(id)), `history ${show(ids)} should hold every message sent ${show(sent)}`)
    check(historyIds(await getTask(t, task.id as string, 2)).length <= 2, "historyLength 2 should give at most 2 messages")
  }),

  scenario("kit: a plain message/stream ends by itself with a final terminal status", async (t) => {
    const handle = await t.stream("message/stream", { message: kitMessage(t, "stream", "Stream test message") })
    const { session, id } = handle
    t.expectSse(handle, "message/stream")
    // The kit reads until a terminal event with no timeout of its own; here each event is awaited for the run's bound.
    const events = await session.until((e) => (e.json as { result?: { final?: unknown } } | undefined)?.result?.final === true)
    const last = t.expectEventResult(events.at(-1), id, "last event")
    check(last.kind === "status-update" && last.final === true, `the stream should end with a final status update, got ${show(last)}`)
    check(terminalStates.has(stateOf(last)), `the final state should be terminal, got ${stateOf(last)}`)
    check(await session.waitForEnd(), "the stream should close after its final event")
  })
]
