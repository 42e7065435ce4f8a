import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkPushConfig } from "./config-check.ts"
import { type DnsResolver, makeUrlGuard, redactUrl } from "./url-guard.ts"

const dns: Record<string, ReadonlyArray<string>> = {
  "hooks.example.com": ["93.184.215.14"],
  "inside.example.com": ["10.1.2.3"],
  "mixed.example.com": ["93.184.215.14", "192.168.1.10"],
  "v6.example.com": ["2606:4700::6810:84e5"],
  "dev.local.test": ["127.0.0.1"]
}
const resolve: DnsResolver = async (host) => {
  const found = dns[host]
  if (found === undefined) throw new Error(`NXDOMAIN ${host}`)
  return found
}
const guard = makeUrlGuard({ resolve })

const refusal = (url: string, g = guard) => Effect.flip(g.check(url))

describe("webhook URL guard", () => {
  it.effect("accepts a public https host and returns the address it checked", () =>
    Effect.gen(function*() {
      const target = yield* guard.check("https://hooks.example.com/a2a?x=1")
      expect(target).toMatchObject({ host: "hooks.example.com", address: "93.184.215.14", family: 4 })
      const v6 = yield* guard.check("https://v6.example.com/")
      expect(v6.family).toBe(6)
    }))

  const refused: ReadonlyArray<readonly [string, string, string]> = [
    ["loopback", "http://127.0.0.1:8080/hook", "loopback"],
    ["loopback (IPv6)", "http://[::1]/hook", "loopback"],
    ["loopback (127/8, non-canonical spelling)", "http://0x7f.0.0.2/hook", "loopback"],
    ["private 10/8", "http://10.0.0.8/hook", "private"],
    ["private 172.16/12", "http://172.31.255.1/hook", "private"],
    ["private 192.168/16", "http://192.168.0.1/hook", "private"],
    ["link-local", "http://169.254.10.20/hook", "link-local"],
    ["link-local (IPv6)", "http://[fe80::1]/hook", "link-local"],
    ["CGNAT", "http://100.64.0.1/hook", "cgnat"],
    ["unique-local", "http://[fd12:3456::1]/hook", "unique-local"],
    ["unspecified", "http://0.0.0.0/hook", "unspecified"],
    ["unspecified (IPv6)", "http://[::]/hook", "unspecified"],
    ["multicast", "http://224.0.0.251/hook", "multicast"],
    ["metadata IP", "http://169.254.169.254/latest/meta-data/", "metadata"],
    ["metadata IP (IPv6)", "http://[fd00:ec2::254]/", "metadata"],
    ["metadata host name", "http://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ["metadata host name (trailing dot, upper case)", "http://METADATA.google.internal./", "metadata"],
    ["IPv4-mapped IPv6 loopback", "http://[::ffff:127.0.0.1]/hook", "loopback"],
    ["IPv4-mapped IPv6 private", "http://[::ffff:a00:1]/hook", "private"],
    ["IPv4-mapped IPv6 metadata", "http://[::ffff:169.254.169.254]/", "metadata"],
    ["NAT64 private", "http://[64:ff9b::10.0.0.1]/", "private"],
    ["non-http scheme", "ftp://hooks.example.com/", "scheme"],
    ["file scheme", "file:///etc/passwd", "scheme"],
    ["user info", "https://user:pass@hooks.example.com/", "credentials"],
    ["host name resolving to a private address", "https://inside.example.com/hook", "private"],
    ["host name with one private address among public ones", "https://mixed.example.com/hook", "private"],
    ["host name that does not resolve", "https://nowhere.example.com/hook", "unresolvable"],
    ["not a URL", "hooks.example.com/hook", "invalid-url"]
  ]
  for (const [name, url, reason] of refused) {
    it.effect(`refuses ${name}`, () =>
      Effect.gen(function*() {
        const e = yield* refusal(url)
        expect(e.reason).toBe(reason)
        expect(e.url).not.toContain("user:pass")
      }))
  }

  it.effect("an allowlisted CIDR or host name opts in, and nothing else", () =>
    Effect.gen(function*() {
      const dev = makeUrlGuard({ resolve, allow: ["127.0.0.0/8", "dev.local.test", "metadata.google.internal"] })
      expect((yield* dev.check("http://127.0.0.1:9/hook")).address).toBe("127.0.0.1")
      expect((yield* dev.check("http://[::ffff:127.0.0.1]/hook")).address).toBe("0:0:0:0:0:ffff:7f00:1")
      expect((yield* dev.check("http://dev.local.test:9/")).address).toBe("127.0.0.1")
      yield* dev.check("http://metadata.google.internal/").pipe(Effect.flip, Effect.map((e) => expect(e.reason).toBe("unresolvable")))
      expect((yield* refusal("http://10.0.0.1/", dev)).reason).toBe("private")
      expect((yield* refusal("http://169.254.169.254/", dev)).reason).toBe("metadata")
    }))

  it.effect("refuses the names of this machine by name, resolved or not, unless the allow-list admits loopback", () =>
    Effect.gen(function*() {
      const names = ["localhost", "LOCALHOST.", "api.localhost", "a.b.localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"]
      // The resolver knows none of them: the refusal never waits for, nor depends on, an answer.
      const noDns = makeUrlGuard({ resolve: () => Promise.reject(new Error("no DNS")) })
      for (const name of names) {
        const e = yield* Effect.flip(checkPushConfig({ url: `http://${name}:8080/hook` }, noDns))
        expect(e.reason, name).toBe("loopback")
        expect(e.message).toContain("this machine")
      }
      // Names that only look alike are ordinary names.
      for (const name of ["localhost.example.com", "mylocalhost", "localhost-1.example.com"]) {
        expect(yield* checkPushConfig({ url: `http://${name}/hook` }, noDns), name).toBeUndefined()
      }
      const local = (allow: ReadonlyArray<string>) =>
        makeUrlGuard({ resolve: async (host) => (host.includes("ip6") ? ["::1"] : ["127.0.0.1"]), allow })
      // Admitted as loopback addresses are: by a CIDR holding the loopback address, or by the exact name.
      expect((yield* local(["127.0.0.1"]).check("http://localhost:9/hook")).address).toBe("127.0.0.1")
      expect((yield* local(["127.0.0.0/8"]).check("http://api.localhost:9/hook")).address).toBe("127.0.0.1")
      expect((yield* local(["::1"]).check("http://ip6-localhost:9/hook")).family).toBe(6)
      expect((yield* local(["localhost"]).check("http://localhost:9/hook")).address).toBe("127.0.0.1")
      expect((yield* refusal("http://localhost:9/hook", local(["10.0.0.0/8", "other.localhost"]))).reason).toBe("loopback")
    }))

  it.effect("bounds the token, the credentials and the scheme names, without echoing them", () =>
    Effect.gen(function*() {
      const base = { url: "https://hooks.example.com/a2a" }
      const big = "t".repeat(5_000_000)
      for (const config of [
        { ...base, token: big },
        { ...base, authentication: { schemes: ["Bearer"], credentials: big } },
        { ...base, authentication: { schemes: Array.from({ length: 17 }, (_, i) => `s${i}`) } },
        { ...base, authentication: { schemes: ["s".repeat(65)] } }
      ]) {
        const e = yield* Effect.flip(checkPushConfig(config, guard))
        expect(e.reason).toBe("too-long")
        expect(e.message.length).toBeLessThan(200)
      }
      const atBounds = {
        ...base,
        token: "t".repeat(1_024),
        authentication: { schemes: Array.from({ length: 16 }, () => "s".repeat(64)), credentials: "c".repeat(4_096) }
      }
      expect((yield* checkPushConfig(atBounds, guard))?.address).toBe("93.184.215.14")
    }))

  it.effect("refuses CR/LF (and other controls) in the token before anything is sent", () =>
    Effect.gen(function*() {
      const base = { url: "https://hooks.example.com/a2a" }
      for (const token of ["a\r\nX-Injected: 1", "a\nb", "a\rb", "nul\u0000", "é-token", " padded "]) {
        const e = yield* Effect.flip(checkPushConfig({ ...base, token }, guard))
        expect(e.reason).toBe("header-value")
      }
      const credentials = yield* Effect.flip(
        checkPushConfig({ ...base, authentication: { schemes: ["Basic"], credentials: "x\r\ny" } }, guard)
      )
      expect(credentials.reason).toBe("header-value")
      const scheme = yield* Effect.flip(checkPushConfig({ ...base, authentication: { schemes: ["Bearer x"] } }, guard))
      expect(scheme.reason).toBe("header-value")
      const ok = yield* checkPushConfig({ ...base, token: "tok-123_abc.DEF~" }, guard)
      expect(ok?.address).toBe("93.184.215.14")
    }))

  it.live("a config whose host does not resolve right now is kept (checked again at delivery); blocked answers are still refused", () =>
    Effect.gen(function*() {
      const unresolved = yield* checkPushConfig({ url: "https://nowhere.example.com/hook" }, guard)
      expect(unresolved).toBeUndefined()
      const slow = makeUrlGuard({ resolve: () => new Promise(() => undefined), resolveTimeoutMs: 20 })
      expect(yield* checkPushConfig({ url: "https://slow.example.com/hook" }, slow)).toBeUndefined()
      const noDns = makeUrlGuard({ resolve: () => Promise.reject(new Error("no DNS")) })
      expect(yield* checkPushConfig({ url: "https://example.com/hook" }, noDns)).toBeUndefined()
      // What no later answer makes safe is refused at once, even without DNS.
      for (const [url, reason] of [
        ["https://inside.example.com/hook", "private"],
        ["http://10.0.0.1/hook", "private"],
        ["http://[64:ff9b:1::a00:1]/hook", "private"],
        ["ftp://example.com/hook", "scheme"],
        ["http://metadata.google.internal/", "metadata"]
      ] as const) {
        const g = url.includes("inside") ? guard : noDns
        expect((yield* Effect.flip(checkPushConfig({ url }, g))).reason).toBe(reason)
      }
    }))

  it.effect("handles very long URLs without echoing them: long paths pass, over-long host names are refused unresolved", () =>
    Effect.gen(function*() {
      const asked: Array<string> = []
      const counting = makeUrlGuard({ resolve: (host) => (asked.push(host), resolve(host)) })
      const longPath = `https://hooks.example.com/${"p".repeat(100_000)}?q=${"x".repeat(10_000)}`
      expect((yield* counting.check(longPath)).address).toBe("93.184.215.14")
      expect(redactUrl(longPath).length).toBeLessThanOrEqual(201)
      for (const host of [`${"a".repeat(50)}.`.repeat(6) + "example.com", `${"b".repeat(64)}.example.com`]) {
        const e = yield* refusal(`https://${host}/hook`, counting)
        expect(e.reason).toBe("invalid-url")
        expect(e.message.length).toBeLessThan(300)
        expect(e.url.length).toBeLessThanOrEqual(201)
      }
      const scheme = yield* refusal(`${"z".repeat(50_000)}://hooks.example.com/`, counting)
      expect(scheme.reason).toBe("scheme")
      expect(scheme.message.length).toBeLessThan(300)
      expect(asked).toEqual(["hooks.example.com"])
    }))
})
