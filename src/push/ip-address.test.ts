import { describe, expect, it } from "vitest"
import { classifyAddress } from "./blocked-ranges.ts"
import { cidrContains, embeddedIpv4, formatIp, parseCidr, parseIp } from "./ip-address.ts"

describe("IP parsing", () => {
  it("parses dotted quads strictly", () => {
    expect(formatIp(parseIp("192.0.2.1")!)).toBe("192.0.2.1")
    for (const bad of ["256.0.0.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "example.com", ""]) {
      expect(parseIp(bad)).toBeUndefined()
    }
  })

  it("parses IPv6 forms, with brackets and embedded IPv4", () => {
    expect(formatIp(parseIp("[::1]")!)).toBe("0:0:0:0:0:0:0:1")
    expect(formatIp(parseIp("2001:db8::8a2e:370:7334")!)).toBe("2001:db8:0:0:0:8a2e:370:7334")
    expect(formatIp(embeddedIpv4(parseIp("::ffff:10.1.2.3")!)!)).toBe("10.1.2.3")
    expect(formatIp(embeddedIpv4(parseIp("::ffff:a01:203")!)!)).toBe("10.1.2.3")
    expect(formatIp(embeddedIpv4(parseIp("2002:c0a8:101::1")!)!)).toBe("192.168.1.1")
    for (const bad of ["1::2::3", ":::", "fe80::1%eth0", "1:2:3:4:5:6:7:8:9", "12345::", "1:2:3:4:5:6:7::8"]) {
      expect(parseIp(bad)).toBeUndefined()
    }
  })

  it("matches CIDRs at any prefix length", () => {
    const cgnat = parseCidr("100.64.0.0/10")!
    expect(cidrContains(cgnat, parseIp("100.127.255.255")!)).toBe(true)
    expect(cidrContains(cgnat, parseIp("100.128.0.0")!)).toBe(false)
    expect(cidrContains(parseCidr("fc00::/7")!, parseIp("fdff::1")!)).toBe(true)
    expect(parseCidr("10.0.0.0/33")).toBeUndefined()
  })

  it("classifies public addresses as allowed and IPv6 wrappers by their IPv4 address", () => {
    expect(classifyAddress(parseIp("93.184.215.14")!)).toBeUndefined()
    expect(classifyAddress(parseIp("2606:4700::6810:84e5")!)).toBeUndefined()
    expect(classifyAddress(parseIp("::ffff:8.8.8.8")!)).toBeUndefined()
    expect(classifyAddress(parseIp("::127.0.0.1")!)).toBe("loopback")
    expect(classifyAddress(parseIp("2002:7f00:1::")!)).toBe("loopback")
    expect(classifyAddress(parseIp("ff02::1")!)).toBe("multicast")
    expect(classifyAddress(parseIp("255.255.255.255")!)).toBe("reserved")
  })

  it("blocks IPv6 space that is not global unicast, the local-use NAT64 prefix of RFC 8215 included", () => {
    // RFC 8215: the operator picks how IPv4 is embedded, so the IPv4 target cannot be judged.
    expect(classifyAddress(parseIp("64:ff9b:1::a00:1")!)).toBe("private")
    expect(classifyAddress(parseIp("64:ff9b:1:ffff:ffff:ffff:ffff:ffff")!)).toBe("private")
    // Outside 2000::/3 (and not a form that carries IPv4): reserved, not public.
    expect(classifyAddress(parseIp("::1:2:3:4")!)).toBe("reserved")
    expect(classifyAddress(parseIp("5f00::1")!)).toBe("reserved")
    expect(classifyAddress(parseIp("4000::1")!)).toBe("reserved")
    // IETF protocol assignments and documentation space inside 2000::/3.
    expect(classifyAddress(parseIp("2001:2::1")!)).toBe("reserved")
    expect(classifyAddress(parseIp("2001:10::1")!)).toBe("reserved")
    expect(classifyAddress(parseIp("3fff::1")!)).toBe("reserved")
    // Still public: global unicast, and the well-known NAT64 prefix judged by its IPv4 address.
    expect(classifyAddress(parseIp("2a00:1450:4001:82b::200e")!)).toBeUndefined()
    expect(classifyAddress(parseIp("2001:200::1")!)).toBeUndefined()
    expect(classifyAddress(parseIp("64:ff9b::8.8.8.8")!)).toBeUndefined()
  })
})
