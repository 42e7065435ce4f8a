import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer as createHttpsServer } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TLSSocket } from "node:tls"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Task } from "../../schemas/index.ts"
import { A2AServer } from "../server/a2a-server.ts"
import { quickAgent, quickStates } from "../../testing/server/push-agents.ts"
import { pushTestOptions, resultOf, rpcClient, sendParams, waitUntil } from "../../testing/server/push-harness.ts"
import { nodePushTransport as publicNodePushTransport } from "./node.ts"
import { nodePushTransport } from "./node-push-transport.ts"
import { startWebhookStub } from "../../testing/push/webhook-stub.ts"

const request = (url: string, address = "127.0.0.1") => ({
  url,
  address,
  headers: { "content-type": "application/json", "x-a2a-notification-token": "tok" },
  body: "{\"kind\":\"task\"}",
  timeoutMs: 5000
})

describe("node pinning transport (http)", () => {
  it("connects to the checked address while sending the URL's host name", async () => {
    const hook = await startWebhookStub()
    try {
      // No DNS knows hooks.invalid: only the pinned address can make this work.
      const { status } = await nodePushTransport()(request(`http://hooks.invalid:${hook.port}/hook?x=1`))
      expect(status).toBe(200)
      expect(hook.calls[0]).toMatchObject({ path: "/hook?x=1", body: "{\"kind\":\"task\"}" })
      expect(hook.calls[0]!.headers["host"]).toBe(`hooks.invalid:${hook.port}`)
      expect(hook.calls[0]!.headers["x-a2a-notification-token"]).toBe("tok")
    } finally {
      await hook.close()
    }
  })

  it("returns a redirect status instead of following it", async () => {
    const target = await startWebhookStub()
    const hook = await startWebhookStub(() => ({ status: 302, headers: { location: `${target.url}/x` } }))
    try {
      expect((await nodePushTransport()(request(`${hook.url}/hook`))).status).toBe(302)
      expect(target.calls).toHaveLength(0)
    } finally {
      await Promise.all([hook.close(), target.close()])
    }
  })
})

let openssl = true
try {
  execFileSync("openssl", ["version"], { stdio: "ignore" })
} catch {
  openssl = false
}

describe.skipIf(!openssl)("node pinning transport (https; needs the openssl CLI to make a test certificate)", () => {
  let dir = ""
  let cert = ""
  let port = 0
  const seen: Array<{ servername: string | false | null; host: string | undefined; body: string }> = []
  let close: () => void = () => undefined

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "push-tls-"))
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
      "-subj", "/CN=hooks.test", "-addext", "subjectAltName=DNS:hooks.test",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")
    ], { stdio: "ignore" })
    cert = readFileSync(join(dir, "cert.pem"), "utf8")
    const server = createHttpsServer({ key: readFileSync(join(dir, "key.pem")), cert }, (req, res) => {
      let body = ""
      req.setEncoding("utf8")
      req.on("data", (chunk: string) => { body += chunk })
      req.on("end", () => {
        seen.push({ servername: (req.socket as TLSSocket).servername, host: req.headers.host, body })
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    port = (server.address() as AddressInfo).port
    close = () => {
      server.closeAllConnections()
      server.close()
    }
  })
  afterAll(() => {
    close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("keeps SNI and the certificate check on the host name while connecting to the pinned address", async () => {
    const { status } = await nodePushTransport({ ca: cert })(request(`https://hooks.test:${port}/hook`))
    expect(status).toBe(204)
    expect(seen.at(-1)).toMatchObject({ servername: "hooks.test", host: `hooks.test:${port}` })
  })

  it("fails when the certificate does not match the URL's host name", async () => {
    await expect(nodePushTransport({ ca: cert })(request(`https://other.test:${port}/hook`))).rejects.toThrow()
  })

  it("a Node server given the pinning transport delivers to an https webhook by name, at the address its resolver checked", async () => {
    const asked: Array<string> = []
    // The only answer for hooks.test: no system resolver knows the name, so only the pin reaches it.
    const resolveDns = async (host: string): Promise<ReadonlyArray<string>> => {
      asked.push(host)
      if (host === "hooks.test") return ["127.0.0.1"]
      throw new Error(`NXDOMAIN ${host}`)
    }
    const server = await A2AServer.make(quickAgent().agent, {
      push: pushTestOptions({ resolveDns, transport: publicNodePushTransport({ ca: cert }) })
    })
    try {
      const before = seen.length
      const url = `https://hooks.test:${port}/server`
      const task = resultOf<Task>(await rpcClient(server.handler)("message/send", sendParams("go", { push: { url } })))
      await waitUntil(() => seen.length - before >= quickStates.length, "the https deliveries")
      const delivered = seen.slice(before)
      expect(delivered.map((d) => (JSON.parse(d.body) as Task).status.state)).toEqual(quickStates)
      for (const d of delivered) expect(d).toMatchObject({ servername: "hooks.test", host: `hooks.test:${port}` })
      expect((JSON.parse(delivered[0]!.body) as Task).id).toBe(task.id)
      expect(asked.every((h) => h === "hooks.test")).toBe(true)
    } finally {
      await server.dispose({ graceMs: 0 })
    }
  })
})
