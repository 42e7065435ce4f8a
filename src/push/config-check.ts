/**
 * Checks a push notification config before it is stored or used: every value that becomes an HTTP
 * header must travel unchanged (no CR/LF header injection, nothing a `Headers` object would trim or
 * reject), and the URL must pass the guard.
 *
 * @module
 */
import { Effect } from "effect"
import type { PushNotificationConfig } from "../../schemas/index.ts"
import { type CheckedTarget, redactUrl, type UrlGuard, WebhookRefused } from "./url-guard.ts"

// Visible ASCII, space and tab, with no space at either end: what every peer reads back byte for byte.
const headerValue = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/
// RFC 9110 token characters: an auth scheme name.
const schemeToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** Whether `value` can be sent as an HTTP header value as is. Refuses CR, LF, NUL and other controls. */
export const isSafeHeaderValue = (value: string): boolean => headerValue.test(value)

/**
 * Refuses a config whose token, credentials or scheme names could not travel as header values, then
 * runs the URL guard. Call it when a config is set (the server maps a refusal to -32602); the
 * delivery queue runs the guard again before each attempt.
 *
 * A host name that does not resolve right now (no answer, a timeout, no DNS at all) is not a
 * refusal: the config is kept and answers `undefined`, because delivery resolves, checks and pins
 * the address every time and retries a failed lookup. What is refused at once is what no later
 * answer can make safe, and a name whose current answer is a blocked address.
 *
 * @example
 * yield* checkPushConfig({ url: "https://hooks.example.com/a2a", token: "t-1" }, guard)
 */
export const checkPushConfig = (
  config: PushNotificationConfig,
  guard: UrlGuard
): Effect.Effect<CheckedTarget | undefined, WebhookRefused> =>
  Effect.gen(function*() {
    const refuse = (message: string) =>
      Effect.fail(new WebhookRefused({ reason: "header-value", message, url: redactUrl(config.url) }))
    if (config.token !== undefined && !isSafeHeaderValue(config.token)) {
      return yield* refuse("the push token contains characters that cannot be sent in a header (CR, LF, controls, non-ASCII or edge spaces)")
    }
    const auth = config.authentication
    if (auth?.credentials !== undefined && !isSafeHeaderValue(auth.credentials)) {
      return yield* refuse("the push credentials contain characters that cannot be sent in a header")
    }
    if (auth !== undefined && !auth.schemes.every((s) => schemeToken.test(s))) {
      return yield* refuse("an authentication scheme name is not an HTTP token")
    }
    return yield* guard.check(config.url).pipe(
      Effect.catchIf((refused) => refused.transient, () => Effect.succeed(undefined))
    )
  })
