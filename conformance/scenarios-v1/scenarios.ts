/**
 * The A2A 1.0 black-box scenarios, one set for both bindings (`harness.ts` speaks each). They expect the
 * conformance agent's behaviour: the official 1.0 kit's `tck-` messageId prefixes, and the 0.3 suites' held
 * prefix for a task that stays live.
 */
import { asArray, asObject, check, equal, show, type JsonObject } from "../scenarios/assert.ts"
import { kindOf, stateOf, v1Scenario, type V1Scenario, type V1ScenarioContext } from "./harness.ts"

const terminal = new Set(["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"])

const send = (t: V1ScenarioContext, prefix: string, configuration: JsonObject = {}) =>
  t.ok("SendMessage", { message: t.message("tck", prefix), configuration })

const taskOf = (answer: JsonObject, where: string) => asObject(answer.task, `${where}: task`)

const textsOf = (parts: unknown): string => asArray(parts, "parts").map((p) => String((p as JsonObject).text ?? "")).join("")

const card: ReadonlyArray<V1Scenario> = [
  v1Scenario("card: A2A-Version 1.0 gets a pure 1.0 card listing 1.0 interfaces of both bindings first", async (t) => {
    const reply = await t.raw(`${t.origin}/.well-known/agent-card.json`, { headers: t.headers() })
    const c = asObject(reply.body, "card")
    for (const key of ["url", "protocolVersion", "preferredTransport", "additionalInterfaces", "supportsAuthenticatedExtendedCard"]) {
      check(!(key in c), `the 1.0 card has no 0.3 member ${key}`)
    }
    const interfaces = asArray(c.supportedInterfaces, "supportedInterfaces") as Array<JsonObject>
    const versions = interfaces.map((i) => i.protocolVersion)
    equal(versions.slice(0, 2), ["1.0", "1.0"], "the first interfaces are 1.0")
    check(versions.includes("0.3"), "0.3 interfaces are listed after")
    equal(new Set(interfaces.filter((i) => i.protocolVersion === "1.0").map((i) => i.protocolBinding)), new Set(["JSONRPC", "HTTP+JSON"]), "1.0 bindings")
    check((reply.headers.get("vary") ?? "").toLowerCase().includes("a2a-version"), `Vary names A2A-Version: ${reply.headers.get("vary")}`)
  }),
  v1Scenario("card: A2A-Version 0.3 gets the 0.3 card", async (t) => {
    const c = asObject((await t.raw(`${t.origin}/.well-known/agent-card.json`, { headers: t.headers({ "a2a-version": "0.3" }) })).body, "card")
    check(typeof c.url === "string" && typeof c.protocolVersion === "string", `a 0.3 card names url and protocolVersion: ${show(c, 200)}`)
  })
]

const negotiation: ReadonlyArray<V1Scenario> = [
  v1Scenario("negotiation: an unsupported A2A-Version is VersionNotSupported", async (t) => {
    const reply = await t.call("GetTask", { id: "any" }, { "a2a-version": "99.0" })
    t.expectError(reply, "A2A-Version 99.0", { reason: "VERSION_NOT_SUPPORTED", code: -32009, status: 400 })
  }),
  v1Scenario("negotiation: a patch version is the same version", async (t) => {
    taskOf(await (async () => {
      const reply = await t.call("SendMessage", { message: t.message("tck", "tck-complete-task") }, { "a2a-version": "1.0.1" })
      if (reply.error !== undefined) throw new Error(`A2A-Version 1.0.1: ${show(reply.error)}`)
      return reply.result
    })(), "SendMessage")
  }),
  v1Scenario("negotiation: without A2A-Version a 1.0 request is read as 0.3 and refused, naming 1.0", async (t) => {
    // Read as 0.3, the refusal comes in 0.3's shape: a JSON-RPC error, or REST's `{ code, message }` with 404.
    const reply = t.binding === "jsonrpc"
      ? await t.raw(t.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "any" } }) })
      : await t.raw(`${t.restBase}tasks/any`)
    const error = asObject(t.binding === "jsonrpc" ? asObject(reply.body, "body").error : reply.body, "0.3 error")
    if (t.binding === "rest") equal(reply.status, 404, "HTTP status")
    equal(error.code, -32601, "code")
    check(String(error.message).includes("1.0"), `the refusal names 1.0: ${show(error.message)}`)
  })
]

const sending: ReadonlyArray<V1Scenario> = [
  v1Scenario("send: a blocking SendMessage answers the completed task, its agent message and no kind", async (t) => {
    const task = taskOf(await send(t, "tck-complete-task"), "SendMessage")
    equal(stateOf(task, "task"), "TASK_STATE_COMPLETED", "state")
    equal(textsOf(asObject(asObject(task.status, "status").message, "status.message").parts), "Hello from TCK", "agent message")
  }),
  v1Scenario("send: returnImmediately answers a task that is not terminal yet", async (t) => {
    const task = await t.heldTask()
    check(!terminal.has(stateOf(task, "task")), `returnImmediately should answer before the end, got ${stateOf(task, "task")}`)
  }),
  v1Scenario("send: historyLength 0 leaves history out", async (t) => {
    const task = taskOf(await send(t, "tck-complete-task", { historyLength: 0 }), "SendMessage")
    check(task.history === undefined, `no history with historyLength 0: ${show(task.history)}`)
  }),
  v1Scenario("send: an agent may answer with a Message", async (t) => {
    const answer = await send(t, "tck-message-response")
    const message = asObject(answer.message, "message")
    equal(message.role, "ROLE_AGENT", "role")
    equal(textsOf(message.parts), "Direct message response", "text")
  }),
  v1Scenario("send: artifacts carry 1.0 parts (text, raw with filename and mediaType, url, data)", async (t) => {
    const partOf = async (prefix: string) => asObject(asArray(asObject(asArray(taskOf(await send(t, prefix), prefix).artifacts, "artifacts")[0], "artifact").parts, "parts")[0], "part")
    equal((await partOf("tck-artifact-text")).text, "Generated text content", "text")
    const raw = await partOf("tck-artifact-file")
    check(typeof raw.raw === "string" && raw.filename === "output.txt" && raw.mediaType === "text/plain", `raw part: ${show(raw)}`)
    equal((await partOf("tck-artifact-file-url")).url, "https://example.com/output.txt", "url")
    equal((await partOf("tck-artifact-data")).data, { key: "value", count: 42 }, "data")
  }),
  v1Scenario("send: snake_case names, enum numbers and unknown fields are read as ProtoJSON parsers do", async (t) => {
    const answer = await t.ok("SendMessage", {
      message: { message_id: `tck-complete-task-${crypto.randomUUID().slice(0, 8)}`, role: 1, parts: [{ text: "hi", tckUnknownField: true }] },
      configuration: { return_immediately: false },
      tckExtraParam: "x"
    })
    equal(stateOf(taskOf(answer, "SendMessage"), "task"), "TASK_STATE_COMPLETED", "state")
  }),
  v1Scenario("send: a message without messageId is InvalidParams", async (t) => {
    t.expectError(await t.call("SendMessage", { message: { role: "ROLE_USER", parts: [{ text: "x" }] } }), "no messageId", { code: -32602, status: 400 })
  }),
  v1Scenario("send: a part with two contents is InvalidParams", async (t) => {
    t.expectError(await t.call("SendMessage", { message: t.message("x", undefined, { parts: [{ text: "a", url: "https://example.com/a" }] }) }), "text+url", { code: -32602, status: 400 })
  }),
  v1Scenario("send: a message to a terminal task is UnsupportedOperation", async (t) => {
    const done = taskOf(await send(t, "tck-complete-task"), "SendMessage")
    const reply = await t.call("SendMessage", { message: t.message("more", "tck-complete-task", { taskId: done.id }) })
    t.expectError(reply, "message to a completed task", { reason: "UNSUPPORTED_OPERATION", code: -32004, status: 400 })
  }),
  v1Scenario("send: a message naming an unknown task is TaskNotFound", async (t) => {
    const reply = await t.call("SendMessage", { message: t.message("x", "tck-complete-task", { taskId: `no-such-${crypto.randomUUID()}` }) })
    t.expectError(reply, "unknown taskId", { reason: "TASK_NOT_FOUND", code: -32001, status: 404 })
  }),
  v1Scenario("send: a part of a media type the agent does not accept is ContentTypeNotSupported", async (t) => {
    const reply = await t.call("SendMessage", { message: t.message("x", "tck-complete-task", { parts: [{ text: "x", mediaType: "application/x-unsupported-tck-type" }] }) })
    t.expectError(reply, "unsupported media type", { reason: "CONTENT_TYPE_NOT_SUPPORTED", code: -32005, status: 400 })
  }),
  v1Scenario("send: an input-required task is completed by a follow-up naming it", async (t) => {
    const asked = taskOf(await send(t, "tck-input-required"), "SendMessage")
    equal(stateOf(asked, "task"), "TASK_STATE_INPUT_REQUIRED", "state")
    const done = taskOf(await t.ok("SendMessage", { message: t.message("go on", "tck-complete-task", { taskId: asked.id }) }), "follow-up")
    equal([done.id, stateOf(done, "task")], [asked.id, "TASK_STATE_COMPLETED"], "completed by the follow-up")
  }),
  v1Scenario("send: tck-reject-task is rejected", async (t) => {
    equal(stateOf(taskOf(await send(t, "tck-reject-task"), "SendMessage"), "task"), "TASK_STATE_REJECTED", "state")
  })
]

const tasks: ReadonlyArray<V1Scenario> = [
  v1Scenario("tasks: GetTask reads a task, with historyLength", async (t) => {
    const done = taskOf(await send(t, "tck-complete-task"), "SendMessage")
    const read = await t.ok("GetTask", { id: done.id as string, historyLength: 1 })
    equal(read.id, done.id, "id")
    check(asArray(read.history, "history").length === 1, `historyLength 1 keeps one message: ${show(read.history)}`)
  }),
  v1Scenario("tasks: GetTask of an unknown task is TaskNotFound", async (t) => {
    t.expectError(await t.call("GetTask", { id: `no-such-${crypto.randomUUID()}` }), "GetTask", { reason: "TASK_NOT_FOUND", code: -32001, status: 404 })
  }),
  v1Scenario("tasks: ListTasks lists new tasks first, pages with nextPageToken, and omits artifacts unless asked", async (t) => {
    const first = taskOf(await send(t, "tck-artifact-text"), "first")
    const second = taskOf(await send(t, "tck-artifact-text"), "second")
    const page = await t.ok("ListTasks", { pageSize: 1 })
    const listed = asArray(page.tasks, "tasks") as Array<JsonObject>
    equal(listed.map((x) => x.id), [second.id], "the newest task first")
    check(listed[0]!.artifacts === undefined, "no artifacts without includeArtifacts")
    check(typeof page.nextPageToken === "string" && page.nextPageToken !== "", `a next page: ${show(page)}`)
    equal(page.pageSize, 1, "pageSize")
    check(typeof page.totalSize === "number" && page.totalSize >= 2, `totalSize: ${show(page.totalSize)}`)
    const next = await t.ok("ListTasks", { pageSize: 1, pageToken: page.nextPageToken as string, includeArtifacts: true })
    const nextTask = asObject(asArray(next.tasks, "tasks")[0], "task")
    equal(nextTask.id, first.id, "the next page")
    check(Array.isArray(nextTask.artifacts), "artifacts with includeArtifacts")
  }),
  v1Scenario("tasks: ListTasks filters by state, and the last page's nextPageToken is empty", async (t) => {
    const held = await t.heldTask()
    const page = await t.ok("ListTasks", { status: "TASK_STATE_WORKING", pageSize: 100 })
    const listed = asArray(page.tasks, "tasks") as Array<JsonObject>
    check(listed.some((x) => x.id === held.id), "the working task is listed")
    check(listed.every((x) => stateOf(x, "task") === "TASK_STATE_WORKING"), "only working tasks")
    const filtered = await t.ok("ListTasks", { contextId: held.contextId as string })
    equal(filtered.nextPageToken, "", "nextPageToken on the last page")
  }),
  v1Scenario("tasks: ListTasks with pageSize 150 is InvalidParams", async (t) => {
    t.expectError(await t.call("ListTasks", { pageSize: 150 }), "pageSize 150", { code: -32602, status: 400 })
  }),
  v1Scenario("tasks: CancelTask cancels a live task; a second cancel is TaskNotCancelable", async (t) => {
    const held = await t.heldTask()
    equal(stateOf(await t.ok("CancelTask", { id: held.id as string }), "canceled"), "TASK_STATE_CANCELED", "state")
    t.expectError(await t.call("CancelTask", { id: held.id as string }), "second cancel", { reason: "TASK_NOT_CANCELABLE", code: -32002, status: 400 })
  }),
  v1Scenario("tasks: the extended card is UnsupportedOperation when the agent declares none", async (t) => {
    t.expectError(await t.call("GetExtendedAgentCard"), "GetExtendedAgentCard", { reason: "UNSUPPORTED_OPERATION", code: -32004, status: 400 })
  })
]

const streams: ReadonlyArray<V1Scenario> = [
  v1Scenario("stream: the Task first, then working, the artifact and the completed status, then the stream closes", async (t) => {
    const stream = await t.stream("SendStreamingMessage", { message: t.message("tck", "tck-stream-001") })
    const events = await stream.rest()
    const kinds = events.map((e, i) => kindOf(e, `event ${i}`))
    equal(kinds[0], "task", "first event")
    check(kinds.includes("artifactUpdate"), `an artifact update: ${show(kinds)}`)
    const last = asObject(events.at(-1)!.statusUpdate, "last event")
    equal(stateOf(last, "last event"), "TASK_STATE_COMPLETED", "the stream ends at the terminal state")
  }),
  v1Scenario("stream: chunks carry append and lastChunk", async (t) => {
    const events = await (await t.stream("SendStreamingMessage", { message: t.message("tck", "tck-stream-artifact-chunked") })).rest()
    const chunks = events.filter((e) => "artifactUpdate" in e).map((e) => asObject(e.artifactUpdate, "artifactUpdate"))
    equal(chunks.map((c) => [c.append === true, c.lastChunk === true]), [[true, false], [true, true]], "append/lastChunk")
  }),
  v1Scenario("stream: a message-only stream holds exactly one Message", async (t) => {
    const events = await (await t.stream("SendStreamingMessage", { message: t.message("tck", "tck-message-response") })).rest()
    equal(events.map((e, i) => kindOf(e, `event ${i}`)), ["message"], "one message")
  }),
  v1Scenario("stream: SubscribeToTask on a live task starts with the Task and ends with its cancel", async (t) => {
    const held = await t.heldTask()
    const stream = await t.stream("SubscribeToTask", { id: held.id as string })
    const first = await stream.next()
    check(first !== undefined && kindOf(first, "first") === "task", `the first event is the Task: ${show(first)}`)
    equal(asObject(first!.task, "task").id, held.id, "the subscribed task")
    await t.ok("CancelTask", { id: held.id as string })
    const rest = await stream.rest()
    const last = rest.at(-1)
    check(last !== undefined, "an event after the cancel")
    const lastState = "statusUpdate" in last! ? stateOf(last!.statusUpdate, "last") : stateOf(last!.task, "last")
    equal(lastState, "TASK_STATE_CANCELED", "the stream ends canceled")
  }),
  v1Scenario("stream: two subscribers receive the same events", async (t) => {
    const held = await t.heldTask()
    const a = await t.stream("SubscribeToTask", { id: held.id as string })
    const b = await t.stream("SubscribeToTask", { id: held.id as string })
    await a.next()
    await b.next()
    await t.ok("CancelTask", { id: held.id as string })
    equal(JSON.stringify(await a.rest()), JSON.stringify(await b.rest()), "the same events in the same order")
  }),
  v1Scenario("stream: SubscribeToTask on a terminal task is UnsupportedOperation", async (t) => {
    const done = taskOf(await send(t, "tck-complete-task"), "SendMessage")
    t.expectError(await t.stream("SubscribeToTask", { id: done.id as string }), "terminal task", { reason: "UNSUPPORTED_OPERATION", code: -32004, status: 400 })
  }),
  v1Scenario("stream: SubscribeToTask on an unknown task is TaskNotFound", async (t) => {
    t.expectError(await t.stream("SubscribeToTask", { id: `no-such-${crypto.randomUUID()}` }), "unknown task", { reason: "TASK_NOT_FOUND", code: -32001, status: 404 })
  })
]

const push: ReadonlyArray<V1Scenario> = [
  v1Scenario("push: create, get, list and delete flat configs; deleting twice succeeds", async (t) => {
    const held = await t.heldTask()
    const taskId = held.id as string
    const created = await t.ok("CreateTaskPushNotificationConfig", { taskId, id: "cfg-1", url: t.webhookUrl, authentication: { scheme: "Bearer", credentials: "tok" } })
    equal([created.id, created.taskId, created.url], ["cfg-1", taskId, t.webhookUrl], "created")
    check(!("pushNotificationConfig" in created), "a flat config")
    equal((await t.ok("GetTaskPushNotificationConfig", { taskId, id: "cfg-1" })).url, t.webhookUrl, "get")
    const listed = asArray((await t.ok("ListTaskPushNotificationConfigs", { taskId })).configs, "configs") as Array<JsonObject>
    equal(listed.map((c) => c.id), ["cfg-1"], "list")
    await t.ok("DeleteTaskPushNotificationConfig", { taskId, id: "cfg-1" })
    await t.ok("DeleteTaskPushNotificationConfig", { taskId, id: "cfg-1" })
    t.expectError(await t.call("GetTaskPushNotificationConfig", { taskId, id: "cfg-1" }), "deleted config", { reason: "TASK_NOT_FOUND", code: -32001, status: 404 })
  }),
  v1Scenario("push: a config for an unknown task is TaskNotFound", async (t) => {
    const reply = await t.call("CreateTaskPushNotificationConfig", { taskId: `no-such-${crypto.randomUUID()}`, url: t.webhookUrl })
    t.expectError(reply, "unknown task", { reason: "TASK_NOT_FOUND", code: -32001, status: 404 })
  }),
  v1Scenario("push: a config without url is InvalidParams", async (t) => {
    const held = await t.heldTask()
    t.expectError(await t.call("CreateTaskPushNotificationConfig", { taskId: held.id as string, id: "x" }), "no url", { code: -32602, status: 400 })
  })
]

/** Every 1.0 scenario. */
export const allV1Scenarios: ReadonlyArray<V1Scenario> = [...card, ...negotiation, ...sending, ...tasks, ...streams, ...push]
