/**
 * The webhook URL guard: keeps push notifications from being turned against the server's own
 * network (SSRF). It resolves the host once and hands back the address it checked, so the
 * transport connects to exactly that address instead of resolving again (no DNS rebinding).
 *
 * @module
 */
import { Data, Duration, Effect } from "effect"
import { type AddressClass, classifyAddress, isLoopbackHostName, metadataHostNames } from "./blocked-ranges.ts"
import { type Cidr, cidrContains, embeddedIpv4, formatIp, type IpAddress, parseCidr, parseIp } from "./ip-address.ts"

/**
 * Resolves a host name to its addresses (IPv4 and IPv6 text). Runtime adapters pass one in
 * (Node's `dns.lookup`, `Deno.resolveDns`, Bun's `dns.lookup`); library code has no DNS of its own.
 */
export type DnsResolver = (hostname: string) => Promise<ReadonlyArray<string>>

/** Why a webhook is refused: an address class, or a problem with the URL, the lookup or the reply. */
export type RefusalReason =
  | AddressClass
  | "invalid-url"
  | "scheme"
  | "credentials"
  | "unresolvable"
  | "header-value"
  | "too-long"
  | "redirect"

// The base as a variable of an explicit type, as JSR's fast check reads a class's base.
const WebhookRefusedBase: ReturnType<typeof Data.TaggedError<"WebhookRefused">> = Data.TaggedError("WebhookRefused")

/** A webhook the server will not call. `url` is redacted (no query, no user info). */
export class WebhookRefused extends WebhookRefusedBase<{
  readonly reason: RefusalReason
  readonly message: string
  readonly url: string
}> {
  /** Whether trying again later may succeed (a failed lookup), as opposed to a refusal by rule. */
  get transient(): boolean {
    return this.reason === "unresolvable"
  }
}

/** A URL that passed the guard, with the address the connection must use. */
export interface CheckedTarget {
  readonly url: URL
  /** Host name as written in the URL (lower case, no brackets, no trailing dot): Host header and TLS SNI. */
  readonly host: string
  /** The checked IP address to connect to. */
  readonly address: string
  readonly family: 4 | 6
}

/** Options of {@link makeUrlGuard}. */
export interface UrlGuardOptions {
  /** The DNS capability; see {@link DnsResolver}. */
  readonly resolve: DnsResolver
  /**
   * CIDRs (`127.0.0.0/8`, `::1`), single addresses, or exact host names (`localhost`) that may be
   * reached although their class is refused. A listed host name is trusted with whatever it resolves
   * to. Tests and local development opt in here; production usually leaves it empty.
   */
  readonly allow?: ReadonlyArray<string>
  /** Bound on one lookup (default 5000 ms, on Effect's Clock). */
  readonly resolveTimeoutMs?: number
}

/** Checks webhook URLs; see {@link makeUrlGuard}. */
export interface UrlGuard {
  readonly check: (url: string) => Effect.Effect<CheckedTarget, WebhookRefused>
}

// Refusals and audit events quote URLs; a long one is cut so that a message stays readable and small.
const quotedMax = 200

const clip = (text: string): string => (text.length > quotedMax ? `${text.slice(0, quotedMax)}…` : text)

/**
 * The URL without query, fragment or user info, cut to 200 characters: safe to log and to put in
 * audit events.
 */
export const redactUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    return clip(`${parsed.protocol}//${parsed.host}${parsed.pathname}`)
  } catch {
    return "(invalid url)"
  }
}

// RFC 1035: a name of at most 253 characters in labels of at most 63. Longer names cannot resolve,
// so they are refused before the resolver is asked.
const dnsNameFits = (host: string) => host.length <= 253 && host.split(".").every((label) => label.length <= 63)

const normaliseHost = (hostname: string) => {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname
  return bare.toLowerCase().replace(/\.$/, "")
}

/**
 * Makes a guard that accepts only http(s) URLs whose host (by name and by every resolved address)
 * is public or allowlisted.
 *
 * @example
 * const guard = makeUrlGuard({ resolve: lookupAll, allow: ["127.0.0.1/32"] })
 * const target = yield* guard.check("http://127.0.0.1:8080/hook")
 * // target.address === "127.0.0.1"
 */
export const makeUrlGuard = (options: UrlGuardOptions): UrlGuard => {
  const allowCidrs: Array<Cidr> = []
  const allowHosts = new Set<string>()
  for (const entry of options.allow ?? []) {
    const cidr = parseCidr(entry)
    if (cidr !== undefined) allowCidrs.push(cidr)
    else allowHosts.add(normaliseHost(entry.trim()))
  }
  const allowedAddress = (ip: IpAddress) => {
    const inner = embeddedIpv4(ip)
    return allowCidrs.some((c) => cidrContains(c, ip) || (inner !== undefined && cidrContains(c, inner)))
  }
  const timeout = Duration.millis(options.resolveTimeoutMs ?? 5000)
  // The names of this machine are admitted as its addresses are: by the allow-list.
  const loopbackAllowed = ["127.0.0.1", "::1"].some((text) => allowedAddress(parseIp(text)!))

  const check = (raw: string): Effect.Effect<CheckedTarget, WebhookRefused> =>
    Effect.gen(function*() {
      const safe = redactUrl(raw)
      const refuse = (reason: RefusalReason, message: string) =>
        Effect.fail(new WebhookRefused({ reason, message, url: safe }))
      let url: URL
      try {
        url = new URL(raw)
      } catch {
        return yield* refuse("invalid-url", "the webhook URL does not parse")
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        return yield* refuse("scheme", `scheme ${clip(url.protocol)} is not allowed; use http or https`)
      }
      if (url.username !== "" || url.password !== "") {
        return yield* refuse("credentials", "user info in a webhook URL is not allowed")
      }
      const host = normaliseHost(url.hostname)
      const hostAllowed = allowHosts.has(host)
      if (!hostAllowed && metadataHostNames.has(host)) {
        return yield* refuse("metadata", `${host} is a cloud metadata service`)
      }
      // Refused by name, not by what they resolve to: a lookup may fail now and answer 127.0.0.1 at delivery.
      if (!hostAllowed && !loopbackAllowed && isLoopbackHostName(host)) {
        return yield* refuse("loopback", `${clip(host)} names this machine (loopback)`)
      }
      const literal = parseIp(host)
      if (literal === undefined && !dnsNameFits(host)) {
        return yield* refuse("invalid-url", "the host name is longer than DNS allows (253 characters, 63 per label)")
      }
      const texts = literal !== undefined ? [host] : yield* Effect.tryPromise(() => options.resolve(host)).pipe(
        Effect.timeoutOrElse({ duration: timeout, orElse: () => Effect.fail("timeout" as const) }),
        Effect.catch(() => refuse("unresolvable", `${host} did not resolve`))
      )
      const addresses: Array<IpAddress> = []
      for (const text of texts) {
        const ip = parseIp(text)
        if (ip === undefined) return yield* refuse("unresolvable", `${host} resolved to a non-address`)
        addresses.push(ip)
      }
      if (addresses.length === 0) return yield* refuse("unresolvable", `${host} has no address`)
      // Every address must pass: a mixed answer is how rebinding tricks start.
      for (const ip of addresses) {
        const cls = hostAllowed || allowedAddress(ip) ? undefined : classifyAddress(ip)
        if (cls !== undefined) {
          return yield* refuse(cls, `${host} resolves to a ${cls} address (${formatIp(ip)})`)
        }
      }
      const first = addresses[0]!
      return { url, host, address: formatIp(first), family: first.family }
    })

  return { check }
}
