/**
 * Which addresses a webhook may not reach unless allowlisted: everything that is not a public
 * unicast address on the Internet. Classes are named so refusals and audit events say why.
 *
 * @module
 */
import { type Cidr, cidrContains, embeddedIpv4, type IpAddress, parseCidr } from "./ip-address.ts"

/** Why an address is refused. */
export type AddressClass =
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "unique-local"
  | "unspecified"
  | "multicast"
  | "metadata"
  | "reserved"

const table = (rows: ReadonlyArray<readonly [string, AddressClass]>) =>
  rows.map(([text, cls]) => [parseCidr(text)!, cls] as const)

// Order matters: the first match names the class, so metadata addresses come before their ranges.
const v4Ranges: ReadonlyArray<readonly [Cidr, AddressClass]> = table([
  ["169.254.169.254/32", "metadata"], // AWS, GCP, Azure, OpenStack, DigitalOcean, …
  ["169.254.170.2/32", "metadata"], // AWS ECS task credentials
  ["100.100.100.200/32", "metadata"], // Alibaba Cloud
  ["168.63.129.16/32", "metadata"], // Azure wire server: a public address that answers only inside Azure
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "cgnat"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "reserved"],
  ["192.88.99.0/24", "reserved"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "reserved"],
  ["198.51.100.0/24", "reserved"],
  ["203.0.113.0/24", "reserved"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"] // includes 255.255.255.255
])

const v6Ranges: ReadonlyArray<readonly [Cidr, AddressClass]> = table([
  ["fd00:ec2::254/128", "metadata"], // AWS IMDS over IPv6
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  // RFC 8215 local-use IPv4/IPv6 translation: the operator picks where the IPv4 address sits, so it
  // cannot be judged, and such translators reach internal IPv4 networks.
  ["64:ff9b:1::/48", "private"],
  ["100::/64", "reserved"],
  ["2001::/32", "reserved"], // Teredo: hides an IPv4 address we cannot check
  ["2001::/23", "reserved"], // IETF protocol assignments (benchmarking, ORCHID, ...): no webhooks live there
  ["2001:db8::/32", "reserved"],
  ["3fff::/20", "reserved"], // documentation (RFC 9637)
  ["fc00::/7", "unique-local"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "private"], // deprecated site-local
  ["ff00::/8", "multicast"]
])

// Global unicast: the only IPv6 space the Internet routes to hosts. Anything else that is not a form
// carrying an IPv4 address (judged by that address) is special-purpose or unassigned.
const v6GlobalUnicast = parseCidr("2000::/3")!

/**
 * The class of a non-public address, or `undefined` for a public one. IPv6 forms that carry an
 * IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that IPv4 address; other IPv6
 * addresses outside global unicast (`2000::/3`) are `reserved`.
 *
 * @example
 * classifyAddress(parseIp("::ffff:10.0.0.1")!) // "private"
 */
export const classifyAddress = (ip: IpAddress): AddressClass | undefined => {
  if (ip.family === 6) {
    const inner = embeddedIpv4(ip)
    if (inner !== undefined) return classifyAddress(inner)
  }
  const ranges = ip.family === 4 ? v4Ranges : v6Ranges
  const cls = ranges.find(([cidr]) => cidrContains(cidr, ip))?.[1]
  if (cls !== undefined || ip.family === 4) return cls
  return cidrContains(v6GlobalUnicast, ip) ? undefined : "reserved"
}

/**
 * Whether a (lower-case, dot-less) host name names this machine whatever DNS answers: `localhost` and every
 * `*.localhost` (RFC 6761 reserves them for loopback), and the loopback names of common hosts files.
 */
export const isLoopbackHostName = (host: string): boolean =>
  host === "localhost" || host.endsWith(".localhost") || loopbackHostNames.has(host)

const loopbackHostNames: ReadonlySet<string> = new Set(["localhost.localdomain", "ip6-localhost", "ip6-loopback"])

/** Host names of cloud metadata services, refused by name before any lookup. */
export const metadataHostNames: ReadonlySet<string> = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal"
])
