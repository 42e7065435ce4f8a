/**
 * Whether a URL points at this machine: its host is a loopback address (127.0.0.0/8, ::1) or a name that
 * resolves only to loopback addresses. A load test of anything else must be asked for explicitly.
 *
 * @module
 */

/** Resolves a host name to its addresses (all of them). */
export type HostResolver = (hostname: string) => Promise<ReadonlyArray<string>>

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/** True for an IPv4 or IPv6 address literal. */
export const isIpLiteral = (host: string): boolean => IPV4.test(host) || host.includes(":")

/** The canonical spelling of an IPv6 literal (as the URL parser writes it), or undefined. */
const canonicalV6 = (ip: string): string | undefined => {
  try {
    return new URL(`http://[${ip}]/`).hostname.slice(1, -1)
  } catch {
    return undefined
  }
}

/** True for an address in 127.0.0.0/8, `::1`, or an IPv4-mapped 127.x address, in any spelling. */
export const isLoopbackAddress = (address: string): boolean => {
  const ip = address.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "")
  const v4 = IPV4.exec(ip)
  if (v4 !== null) return v4.slice(1).every((o) => Number(o) <= 255) && v4[1] === "127"
  if (!ip.includes(":")) return false
  const v6 = canonicalV6(ip)
  return v6 === "::1" || (v6 !== undefined && /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(v6))
}

/** Where a URL's host leads. */
export interface HostCheck {
  readonly host: string
  readonly addresses: ReadonlyArray<string>
  /** True when every address is a loopback address. */
  readonly loopback: boolean
}

/** Resolves the host of `url` (a literal address is not looked up) and says whether it is loopback only. */
export const checkHost = async (url: URL, resolve: HostResolver): Promise<HostCheck> => {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1")
  const addresses = isIpLiteral(host) ? [host] : await resolve(host)
  return { host, addresses, loopback: addresses.length > 0 && addresses.every(isLoopbackAddress) }
}
