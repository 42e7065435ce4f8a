import { asArray, asObject, check, equal, show, type JsonObject } from "../scenarios/assert.ts"
import { restScenario, type RestScenario, type RestScenarioContext } from "./harness.ts"

const configs = (taskId: unknown): string => `v1/tasks/${encodeURIComponent(String(taskId))}/pushNotificationConfigs`

/** Expects `{ name: "tasks/{id}/pushNotificationConfigs/{configId}", pushNotificationConfig }`; returns the config. */
const expectConfig = (t: RestScenarioContext, body: JsonObject, taskId: unknown, where: string): JsonObject => {
  const config = asObject(body.pushNotificationConfig, `${where}.pushNotificationConfig`)
  check(typeof config.id === "string" && config.id !== "", `${where}: the config should carry an id: ${show(config)}`)
  equal(body.name, `tasks/${taskId}/pushNotificationConfigs/${config.id}`, `${where}.name`)
  return config
}

/** Creates a config (201 or 200) and returns it. */
const create = async (t: RestScenarioContext, taskId: unknown, body: unknown, where = "create"): Promise<JsonObject> => {
  const reply = await t.request("POST", configs(taskId), body)
  return expectConfig(t, t.expectOk(reply, where, reply.status === 201 ? 201 : 200), taskId, where)
}

const list = async (t: RestScenarioContext, taskId: unknown): Promise<Array<JsonObject>> => {
  const body = t.expectOk(await t.request("GET", configs(taskId)), "list")
  return asArray(body.configs ?? [], "list.configs").map((c, i) => expectConfig(t, asObject(c, `configs[${i}]`), taskId, `configs[${i}]`))
}

/** A working task on an agent with push on. */
const pushTask = async (t: RestScenarioContext): Promise<JsonObject> => {
  await t.requireCapability("pushNotifications")
  return t.createTask()
}

/** `tasks/{id}/pushNotificationConfigs`: create in each body form, read, list, delete. */
export const pushScenarios: ReadonlyArray<RestScenario> = [
  restScenario("push: a bare { url, token } body creates a config with a server-assigned id", async (t) => {
    const task = await pushTask(t)
    const config = await create(t, task.id, { url: t.webhookUrl, token: "tok-1" })
    equal([config.url, config.token], [t.webhookUrl, "tok-1"], "stored url and token")
  }),

  restScenario("push: the .proto body { parent, configId, config: { name, pushNotificationConfig } } keeps its configId", async (t) => {
    const task = await pushTask(t)
    const body = {
      parent: `tasks/${task.id}`,
      configId: "cfg-proto",
      config: { name: `tasks/${task.id}/pushNotificationConfigs/cfg-proto`, pushNotificationConfig: { url: t.webhookUrl } }
    }
    equal((await create(t, task.id, body)).id, "cfg-proto", "config id")
  }),

  restScenario("push: an authentication without schemes is accepted: ProtoJSON leaves an empty list out (the official kit's body)", async (t) => {
    const task = await pushTask(t)
    const body = {
      parent: `tasks/${task.id}`,
      config_id: "kit-config",
      config: {
        name: `tasks/${task.id}/pushNotificationConfigs/kit-config`,
        push_notification_config: { id: "kit-config", url: t.webhookUrl, token: "kit-token", authentication: {} }
      }
    }
    equal((await create(t, task.id, body)).id, "kit-config", "config id")
    const withCredentials = await create(t, task.id, { url: t.webhookUrl, authentication: { credentials: "secret" } }, "credentials only")
    const got = expectConfig(t, t.expectOk(await t.request("GET", `${configs(task.id)}/${withCredentials.id}`), "get"), task.id, "get")
    equal(asObject(got.authentication, "authentication").credentials, "secret", "stored credentials")
  }),

  restScenario("push: a snake_case { push_notification_config } body is accepted", async (t) => {
    const task = await pushTask(t)
    const config = await create(t, task.id, { push_notification_config: { id: "cfg-snake", url: t.webhookUrl } })
    equal(config.id, "cfg-snake", "config id")
  }),

  restScenario("push: get by id, list as { configs }, delete answers 204, then the config is gone", async (t) => {
    const task = await pushTask(t)
    await create(t, task.id, { id: "cfg-a", url: t.webhookUrl })
    await create(t, task.id, { id: "cfg-b", url: t.webhookUrl })
    const got = expectConfig(t, t.expectOk(await t.request("GET", `${configs(task.id)}/cfg-b`), "get"), task.id, "get")
    equal(got.id, "cfg-b", "got id")
    equal((await list(t, task.id)).map((c) => c.id).sort(), ["cfg-a", "cfg-b"], "listed ids")
    const deleted = await t.request("DELETE", `${configs(task.id)}/cfg-a`)
    check(deleted.status === 204 || deleted.status === 200, `delete: expected HTTP 204, got ${deleted.status}`)
    equal((await list(t, task.id)).map((c) => c.id), ["cfg-b"], "ids after delete")
    t.expectError(await t.request("GET", `${configs(task.id)}/cfg-a`), 404, -32001, "get after delete")
  }),

  restScenario("push: `default` names the task's first config", async (t) => {
    const task = await pushTask(t)
    const first = await create(t, task.id, { url: t.webhookUrl, token: "first" })
    await create(t, task.id, { url: t.webhookUrl, token: "second" })
    const got = expectConfig(t, t.expectOk(await t.request("GET", `${configs(task.id)}/default`), "get default"), task.id, "get default")
    equal(got.id, first.id, "the first config")
  }),

  restScenario("push: a config for an unknown task is 404 with -32001", async (t) => {
    await t.requireCapability("pushNotifications")
    t.expectError(await t.request("POST", configs(`missing-${crypto.randomUUID()}`), { url: t.webhookUrl }), 404, -32001, "create")
  }),

  restScenario("push: a body naming another task than the URL is 400 with -32602", async (t) => {
    const task = await pushTask(t)
    const body = { taskId: `other-${crypto.randomUUID()}`, pushNotificationConfig: { url: t.webhookUrl } }
    t.expectError(await t.request("POST", configs(task.id), body), 400, -32602, "create")
  }),

  restScenario("push: a config sent with message:send (configuration.pushNotification) is listed", async (t) => {
    await t.requireCapability("pushNotifications")
    const body = { message: t.heldMessage("with push"), configuration: { blocking: false, pushNotification: { id: "cfg-inline", url: t.webhookUrl } } }
    const task = t.expectTask(await t.request("POST", "v1/message:send", body), "message:send")
    t.cancelLater(task.id as string)
    equal((await list(t, task.id)).map((c) => c.id), ["cfg-inline"], "listed ids")
  })
]
