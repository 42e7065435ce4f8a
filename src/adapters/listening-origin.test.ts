/**
 * Every adapter tells the server the address it bound: the example servers, run on Node (fast
 * path and Web bridge), Bun and Deno without `publicUrl`, publish a card naming that address
 * whatever `Host` a request forges.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hosts, startHost, type HostedServer } from "../../conformance/hosts.ts"

/** GET over a real socket with a chosen `Host` header (fetch would not send it). */
const cardWithHost = (origin: string, host: string) =>
  new Promise<any>((resolve, reject) => {
    const url = new URL("/.well-known/agent-card.json", origin)
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve(JSON.parse(text)))
    })
    req.on("error", reject)
    req.end()
  })

describe.each(hosts)("the card served on %s", (host) => {
  let server: HostedServer
  beforeAll(async () => {
    server = await startHost(host, "demo")
  }, 120_000)
  afterAll(() => server?.close())

  it("names the listening address, not a forged Host", async () => {
    const card = await cardWithHost(server.url, "evil.example")
    expect(card.url).toBe(`${server.url}/`)
    for (const { url } of card.additionalInterfaces) expect(url).toBe(`${server.url}/`)
  })
})
