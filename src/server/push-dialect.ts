/**
 * The protocol version a push config was registered in, kept with the config so that its deliveries are
 * written in that version: a webhook registered over 0.3 keeps receiving 0.3 bodies, one registered over
 * 1.0 receives 1.0 `StreamResponse` bodies. Stored as a member of the config (the store keeps configs as
 * JSON); 0.3 answers leave it out, and 0.3 input never carries it (its schema does not know the member).
 *
 * @module
 */
import type { PushNotificationConfig } from "../../schemas/index.ts"
import type { ProtocolVersion } from "./negotiation.ts"

/** The config member that names the version; absent means 0.3. */
export const pushVersionKey = "protocolVersion"

/** The config marked as registered over `version`. */
export const withPushVersion = (config: PushNotificationConfig, version: ProtocolVersion): PushNotificationConfig =>
  version === "0.3" ? config : ({ ...config, [pushVersionKey]: version } as PushNotificationConfig)

/** The version a config's deliveries are written in. */
export const pushVersionOf = (config: PushNotificationConfig): ProtocolVersion =>
  (config as { readonly [pushVersionKey]?: unknown })[pushVersionKey] === "1.0" ? "1.0" : "0.3"

/** The config as 0.3 shows it: without the version member. */
export const withoutPushVersion = (config: PushNotificationConfig): PushNotificationConfig => {
  if (!Object.hasOwn(config, pushVersionKey)) return config
  const { [pushVersionKey]: _version, ...rest } = config as PushNotificationConfig & { readonly [pushVersionKey]?: unknown }
  return rest
}
