import { asArray, asObject, asString, check, equal, expectRpcError, expectRpcResult, show, type JsonObject } from "./assert.ts"
import { scenario, type Scenario, type ScenarioContext } from "./harness.ts"

/** Skips unless the card declares push notifications; the -32003 scenario covers the other case. */
const requirePush = async (t: ScenarioContext): Promise<void> => {
  const caps = asObject((await t.card()).capabilities, "capabilities")
  if (caps.pushNotifications !== true) t.skip("capabilities.pushNotifications is not true (see the -32003 scenario)")
}

const setConfig = async (t: ScenarioContext, taskId: string, config: JsonObject): Promise<JsonObject> => {
  const result = asObject(
    expectRpcResult(await t.rpc("tasks/pushNotificationConfig/set", { taskId, pushNotificationConfig: config }), "set"),
    "set result"
  )
  equal(result.taskId, taskId, "set result taskId")
  const stored = asObject(result.pushNotificationConfig, "set result pushNotificationConfig")
  equal(stored.url, config.url, "set result url")
  asString(stored.id, "set result pushNotificationConfig.id")
  return stored
}

const listConfigs = async (t: ScenarioContext, taskId: string): Promise<Array<JsonObject>> => {
  const result = asArray(expectRpcResult(await t.rpc("tasks/pushNotificationConfig/list", { id: taskId }), "list"), "list result")
  return result.map((entry, i) => {
    const e = asObject(entry, `list[${i}]`)
    equal(e.taskId, taskId, `list[${i}].taskId`)
    return asObject(e.pushNotificationConfig, `list[${i}].pushNotificationConfig`)
  })
}

const missingTask = (): string => `missing-${crypto.randomUUID()}`

/** Push-notification config methods, or -32003 when the agent has push off. */
export const pushScenarios: ReadonlyArray<Scenario> = [
  scenario("push: set without an id stores the config and the server assigns one", async (t) => {
    await requirePush(t)
    const task = await t.createTask()
    await setConfig(t, task.id as string, { url: t.webhookUrl, token: "tok-1" })
  }),

  scenario("push: get by the assigned id returns the same config", async (t) => {
    await requirePush(t)
    const task = await t.createTask()
    const stored = await setConfig(t, task.id as string, { url: t.webhookUrl, token: "tok-2" })
    const reply = await t.rpc("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: stored.id })
    const result = asObject(expectRpcResult(reply, "get"), "get result")
    equal(result.taskId, task.id, "get result taskId")
    const got = asObject(result.pushNotificationConfig, "get result config")
    equal(got.id, stored.id, "config id")
    equal(got.url, t.webhookUrl, "config url")
  }),

  scenario("push: get with the literal id \"default\" returns the task's first config", async (t) => {
    await requirePush(t)
    const task = await t.createTask()
    await setConfig(t, task.id as string, { url: t.webhookUrl, id: "first-config" })
    await setConfig(t, task.id as string, { url: `${t.webhookUrl}/second`, id: "second-config" })
    const reply = await t.rpc("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: "default" })
    const got = asObject(asObject(expectRpcResult(reply, "get default"), "result").pushNotificationConfig, "config")
    equal(got.url, t.webhookUrl, "default config url")
  }),

  scenario("push: list returns every config of the task", async (t) => {
    await requirePush(t)
    const task = await t.createTask()
    await setConfig(t, task.id as string, { url: t.webhookUrl, id: "cfg-a" })
    await setConfig(t, task.id as string, { url: `${t.webhookUrl}/b`, id: "cfg-b" })
    const ids = (await listConfigs(t, task.id as string)).map((c) => c.id)
    check(ids.includes("cfg-a") && ids.includes("cfg-b"), `list should contain cfg-a and cfg-b, got ${show(ids)}`)
  }),

  scenario("push: delete answers null and the config is gone from list", async (t) => {
    await requirePush(t)
    const task = await t.createTask()
    await setConfig(t, task.id as string, { url: t.webhookUrl, id: "cfg-keep" })
    await setConfig(t, task.id as string, { url: `${t.webhookUrl}/x`, id: "cfg-drop" })
    const reply = await t.rpc("tasks/pushNotificationConfig/delete", { id: task.id, pushNotificationConfigId: "cfg-drop" })
    equal(expectRpcResult(reply, "delete"), null, "delete result")
    const ids = (await listConfigs(t, task.id as string)).map((c) => c.id)
    check(!ids.includes("cfg-drop") && ids.includes("cfg-keep"), `after delete, list should be [cfg-keep], got ${show(ids)}`)
  }),

  scenario("push: a config given with message/send is listed with a server-assigned id", async (t) => {
    await requirePush(t)
    const params = t.sendParams(t.heldMessage(), { pushNotificationConfig: { url: t.webhookUrl, token: "inline" } })
    const task = asObject(expectRpcResult(await t.rpc("message/send", params), "message/send"), "task")
    t.cancelLater(task.id as string)
    const configs = await listConfigs(t, task.id as string)
    equal(configs.length, 1, "configs listed")
    equal(configs[0]!.url, t.webhookUrl, "listed url")
    asString(configs[0]!.id, "listed config id")
  }),

  scenario("push: set on an unknown task is -32001", async (t) => {
    await requirePush(t)
    const params = { taskId: missingTask(), pushNotificationConfig: { url: t.webhookUrl } }
    expectRpcError(await t.rpc("tasks/pushNotificationConfig/set", params), -32001)
  }),

  scenario("push: get on an unknown task is -32001", async (t) => {
    await requirePush(t)
    expectRpcError(await t.rpc("tasks/pushNotificationConfig/get", { id: missingTask() }), -32001)
  }),

  scenario("push: list on an unknown task is -32001", async (t) => {
    await requirePush(t)
    expectRpcError(await t.rpc("tasks/pushNotificationConfig/list", { id: missingTask() }), -32001)
  }),

  scenario("push: delete on an unknown task is -32001", async (t) => {
    await requirePush(t)
    const params = { id: missingTask(), pushNotificationConfigId: "any" }
    expectRpcError(await t.rpc("tasks/pushNotificationConfig/delete", params), -32001)
  }),

  scenario("push: with push off, every push-config method is -32003", async (t) => {
    const caps = asObject((await t.card()).capabilities, "capabilities")
    if (caps.pushNotifications === true) t.skip("capabilities.pushNotifications is true (the other push scenarios apply)")
    const id = missingTask()
    const calls: Array<[string, unknown]> = [
      ["tasks/pushNotificationConfig/set", { taskId: id, pushNotificationConfig: { url: t.webhookUrl } }],
      ["tasks/pushNotificationConfig/get", { id }],
      ["tasks/pushNotificationConfig/list", { id }],
      ["tasks/pushNotificationConfig/delete", { id, pushNotificationConfigId: "x" }]
    ]
    for (const [method, params] of calls) expectRpcError(await t.rpc(method, params), -32003, { where: method })
  })
]
