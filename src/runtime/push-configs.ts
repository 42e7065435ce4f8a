import type { PushNotificationConfig } from "../../schemas/index.ts"
import { freshId } from "../agent/fresh-id.ts"

/** The config id that always names a task's first config (conformance kits ask for it). */
export const defaultConfigId = "default"

/**
 * Push configs a task may hold unless configured otherwise. Every state change is POSTed to each of
 * them, so the bound caps how much delivery work one caller can attach to one task.
 */
export const defaultMaxConfigsPerTask = 10

/** Gives the config its server-assigned id when it has none (once, so retries keep the same id). */
export const withConfigId = (config: PushNotificationConfig): PushNotificationConfig =>
  config.id === undefined ? { ...config, id: freshId() } : config

/** Gives the config an id (server-assigned when absent) and adds it, replacing one with the same id. */
export const upsertConfig = (
  configs: ReadonlyArray<PushNotificationConfig>,
  config: PushNotificationConfig
): { readonly configs: ReadonlyArray<PushNotificationConfig>; readonly stored: PushNotificationConfig } => {
  const stored = withConfigId(config)
  const at = configs.findIndex((c) => c.id === stored.id)
  const next = at < 0 ? [...configs, stored] : configs.map((c, i) => (i === at ? stored : c))
  return { configs: next, stored }
}

/**
 * The config with this id; absent id or `default` (when no config is literally named so) is the
 * first config.
 */
export const findConfig = (
  configs: ReadonlyArray<PushNotificationConfig>,
  id: string | undefined
): PushNotificationConfig | undefined => {
  const exact = id === undefined ? undefined : configs.find((c) => c.id === id)
  if (exact !== undefined) return exact
  return id === undefined || id === defaultConfigId ? configs[0] : undefined
}

/** Removes the config with this id (or the first one for `default`). */
export const removeConfig = (
  configs: ReadonlyArray<PushNotificationConfig>,
  id: string
): ReadonlyArray<PushNotificationConfig> => {
  const target = findConfig(configs, id)
  return target === undefined ? configs : configs.filter((c) => c !== target)
}
