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
 * Bounds on what a config makes the server send with every delivery (upstream sets none). The token and the
 * credentials travel as header values on each notification, so their size is the size of every request the
 * server makes for the task; the bounds leave room for a signed JWT as credentials.
 */
export const pushConfigBounds = {
  /** `token`, sent as `X-A2A-Notification-Token`. */
  tokenLength: 1_024,
  /** `authentication.credentials`. */
  credentialsLength: 4_096,
  /** How many `authentication.schemes`. */
  schemes: 16,
  /** Each scheme name. */
  schemeLength: 64
} as const

/**
 * Refuses a config whose token, credentials or scheme names are over {@link pushConfigBounds} or could not
 * travel as header values, then runs the URL guard. Call it when a config is set (the server maps a refusal to -32602); the
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
    const refuse = (message: string, reason: "header-value" | "too-long" = "header-value") =>
      Effect.fail(new WebhookRefused({ reason, message, url: redactUrl(config.url) }))
    const auth = config.authentication
    const b = pushConfigBounds
    if (config.token !== undefined && config.token.length > b.tokenLength) {
      return yield* refuse(`the push token may be at most ${b.tokenLength} characters long`, "too-long")
    }
    if (auth?.credentials !== undefined && auth.credentials.length > b.credentialsLength) {
      return yield* refuse(`the push credentials may be at most ${b.credentialsLength} characters long`, "too-long")
    }
    if (auth !== undefined && (auth.schemes.length > b.schemes || auth.schemes.some((s) => s.length > b.schemeLength))) {
      return yield* refuse(`a push config may name at most ${b.schemes} authentication schemes of at most ${b.schemeLength} characters each`, "too-long")
    }
    if (config.token !== undefined && !isSafeHeaderValue(config.token)) {
      return yield* refuse("the push token contains characters that cannot be sent in a header (CR, LF, controls, non-ASCII or edge spaces)")
    }
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
