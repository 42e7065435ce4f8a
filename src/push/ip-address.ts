/**
 * IP address and CIDR parsing for the webhook URL guard. Strict on purpose: a text that is not a
 * canonical dotted quad or a valid IPv6 literal is not an address, so it goes through the resolver
 * and its answer is checked instead. (WHATWG `URL` already turns `0x7f.1` or `2130706433` into
 * `127.0.0.1`.)
 *
 * @module
 */

/** A parsed address: 4 bytes for IPv4, 16 for IPv6. */
export interface IpAddress {
  readonly family: 4 | 6
  readonly bytes: Uint8Array
}

/** An address range: the first `prefix` bits of `bytes`. */
export interface Cidr {
  readonly family: 4 | 6
  readonly bytes: Uint8Array
  readonly prefix: number
}

const ipv4Part = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

const parseIpv4 = (text: string): Uint8Array | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4 || !parts.every((p) => ipv4Part.test(p))) return undefined
  return Uint8Array.from(parts, Number)
}

const hextet = /^[0-9a-f]{1,4}$/i

const parseGroups = (text: string): Array<number> | undefined => {
  if (text === "") return []
  const groups: Array<number> = []
  const parts = text.split(":")
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIpv4(part)
      if (v4 === undefined) return undefined
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
    } else if (hextet.test(part)) {
      groups.push(parseInt(part, 16))
    } else {
      return undefined
    }
  }
  return groups
}

const parseIpv6 = (text: string): Uint8Array | undefined => {
  // Zone ids (fe80::1%eth0) name a local interface: never a valid public webhook target.
  if (text.includes("%")) return undefined
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const head = parseGroups(halves[0]!)
  const tail = halves.length === 2 ? parseGroups(halves[1]!) : []
  if (head === undefined || tail === undefined) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail]
  const bytes = new Uint8Array(16)
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8
    bytes[i * 2 + 1] = g & 0xff
  })
  return bytes
}

/**
 * Parses an IPv4 dotted quad or an IPv6 literal (brackets allowed, as in URL host names).
 *
 * @example
 * parseIp("::ffff:127.0.0.1") // { family: 6, bytes: [0,…,0xff,0xff,127,0,0,1] }
 */
export const parseIp = (text: string): IpAddress | undefined => {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text
  const v4 = parseIpv4(bare)
  if (v4 !== undefined) return { family: 4, bytes: v4 }
  if (!bare.includes(":")) return undefined
  const v6 = parseIpv6(bare)
  return v6 === undefined ? undefined : { family: 6, bytes: v6 }
}

/** Parses `a.b.c.d/n`, `x::y/n` or a bare address (a single-address range). */
export const parseCidr = (text: string): Cidr | undefined => {
  const [address, prefixText, ...rest] = text.trim().split("/")
  if (address === undefined || rest.length > 0) return undefined
  const ip = parseIp(address)
  if (ip === undefined) return undefined
  const max = ip.family === 4 ? 32 : 128
  if (prefixText === undefined) return { ...ip, prefix: max }
  if (!/^\d{1,3}$/.test(prefixText)) return undefined
  const prefix = Number(prefixText)
  return prefix > max ? undefined : { ...ip, prefix }
}

/** Whether `ip` lies in `cidr` (families must match: map IPv4-in-IPv6 first with {@link embeddedIpv4}). */
export const cidrContains = (cidr: Cidr, ip: IpAddress): boolean => {
  if (cidr.family !== ip.family) return false
  const whole = Math.floor(cidr.prefix / 8)
  for (let i = 0; i < whole; i++) if (cidr.bytes[i] !== ip.bytes[i]) return false
  const bits = cidr.prefix % 8
  if (bits === 0) return true
  const mask = (0xff << (8 - bits)) & 0xff
  return ((cidr.bytes[whole]! ^ ip.bytes[whole]!) & mask) === 0
}

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>) => prefix.every((b, i) => bytes[i] === b)

const v4At = (bytes: Uint8Array, offset: number): IpAddress => ({
  family: 4,
  bytes: bytes.slice(offset, offset + 4)
})

/**
 * The IPv4 address carried inside an IPv6 one, for the forms that route to it: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated but still parsed by stacks),
 * IPv4-translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002:AABB:CCDD::/16`).
 * `::` and `::1` are not treated as compatible addresses: they are classified on their own.
 */
export const embeddedIpv4 = (ip: IpAddress): IpAddress | undefined => {
  if (ip.family !== 6) return undefined
  const b = ip.bytes
  const zeros10 = Array<number>(10).fill(0)
  if (startsWith(b, [...zeros10, 0xff, 0xff])) return v4At(b, 12)
  if (startsWith(b, [...Array<number>(8).fill(0), 0xff, 0xff, 0, 0])) return v4At(b, 12)
  if (startsWith(b, [...zeros10, 0, 0]) && ((b[12]! | b[13]! | b[14]!) !== 0 || b[15]! > 1)) return v4At(b, 12)
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, ...Array<number>(8).fill(0)])) return v4At(b, 12)
  if (startsWith(b, [0x20, 0x02])) return v4At(b, 2)
  return undefined
}

/** Canonical text of an address (IPv6 in full lower-case hextets, no brackets). */
export const formatIp = (ip: IpAddress): string => {
  if (ip.family === 4) return Array.from(ip.bytes).join(".")
  const groups: Array<string> = []
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16))
  return groups.join(":")
}
