/**
 * Every example runs: the self-contained ones print what the README and docs/ say they print, the
 * servers answer a real request.
 */
import { spawn } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { verifyChain } from "../src/audit/verify-chain.ts"
import { discoverVerifiedCard } from "../src/client/card-verification.ts"
import { childEnv } from "../conformance/package/fresh-project.ts"
import { databaseUrl, dropSchema, randomSchema, requirePostgres } from "../testing/store/postgres.ts"
import { startOtlpReceiver } from "../testing/telemetry/otlp-receiver.ts"
import { parsePrometheus, sample } from "../testing/telemetry/prometheus-text.ts"
import { root, rpc, run, send } from "../testing/examples/run-example.ts"
import { eventually } from "../testing/server/wire-call.ts"

describe("self-contained examples", () => {
  it("client.ts sends, streams and continues a task", async () => {
    const { output, code } = await run("examples/client.ts")
    expect(code).toBe(0)
    expect(output).toContain('send: completed, artifact "hello from the client"')
    expect(output).toMatch(/stream: task\nstream: status-update working\n(stream: artifact-update\n)+stream: status-update completed/)
    expect(output).toContain('greet: completed, "Hello, Ada!"')
  })

  it("workflow-agent.ts asks, books with an artifact, and drops a trip through the extension method", async () => {
    const { output, code } = await run("examples/workflow-agent.ts")
    expect(code).toBe(0)
    expect(output).toBe([
      "input-required: Where to?",
      "input-required: Book a trip to Lisbon? (yes, or another city)",
      'completed: ticket "Ada to Lisbon"',
      "rejected: Dropped: plans changed",
      ""
    ].join("\n"))
  })

  it("approval-workflow.ts drives the machine by reply, by our client and by plain HTTP", async () => {
    const { output, code } = await run("examples/approval-workflow.ts")
    expect(code).toBe(0)
    expect(output).toContain("draft: input-required")
    expect(output).toContain("revise: input-required")
    expect(output).toContain("approve (client): completed, 1 artifact(s)")
    expect(output).toContain('reject (http): rejected, "Rejected: not needed"')
  })

  it("audit-chain.ts writes a hash chain and verifies it with verifyChainAsync and verifyChain", async () => {
    const { output, code } = await run("examples/audit-chain.ts")
    expect(code).toBe(0)
    expect(output).toBe("intact: 3 records\nbroken at line 2: seq\nbroken at line 3: truncated\n")
  })

  it("bench-agent.ts load-tests a streaming agent and prints the figures", async () => {
    const { output, code } = await run("examples/bench-agent.ts")
    expect(code).toBe(0)
    expect(output).toContain("200 streams ok, 0 failed, 1000 chunks")
    expect(output).toMatch(/latency p50 [\d.]+ ms, p99 [\d.]+ ms/)
    expect(output).toContain("stream over JSON-RPC (A2A 1.0) to http://127.0.0.1:")
    expect(output).toContain("latency histogram")
  })

  it("both-versions.ts sends a task over A2A 1.0 and reads it back over 0.3", async () => {
    const { output, code } = await run("examples/both-versions.ts")
    expect(code).toBe(0)
    expect(output).toBe([
      "1.0 card: JSONRPC 1.0, HTTP+JSON 1.0, JSONRPC 0.3, HTTP+JSON 0.3",
      '1.0 SendMessage: TASK_STATE_COMPLETED, "Hello, Ada!"',
      '0.3 tasks/get: task completed, "Hello, Ada!"',
      ""
    ].join("\n"))
  })

  it("client-versions.ts picks 1.0, gets the same results pinned to 0.3, and pages through ListTasks", async () => {
    const { output, code } = await run("examples/client-versions.ts")
    expect(code).toBe(0)
    expect(output).toBe([
      "picked: JSONRPC 1.0 (the card lists JSONRPC 1.0, HTTP+JSON 1.0, JSONRPC 0.3, HTTP+JSON 0.3)",
      '1.0: task completed, "Hello, Ada!"',
      '0.3: task completed, "Hello, Ada!"',
      "page 1: 2 of 5 tasks",
      "page 2: 2 of 5 tasks",
      "page 3: 1 of 5 tasks",
      "0.3 listTasks: UnsupportedOperation",
      ""
    ].join("\n"))
  })

  it("push-notifications.ts delivers verified notifications up to the terminal state", async () => {
    const { output, code } = await run("examples/push-notifications.ts")
    expect(code).toBe(0)
    expect(output).toMatch(/verified notifications: submitted( -> \w+)* -> completed/)
  })

  it("secured-agent.ts verifies the card, refuses without a key, serves with one, and audits it all", async () => {
    const { output, code } = await run("examples/secured-agent.ts")
    expect(code).toBe(0)
    expect(output).toContain("card verified: Vault, signed by card-2026")
    expect(output).toContain('without key: 401 ApiKey realm="a2a", in="header", name="X-API-Key"')
    expect(output).toContain('with key: completed, "Hello, partner-a"')
    expect(output).toMatch(/audit: auth-refused, .*request/)
  })
})

describe("server examples", () => {
  const listening = /(?:listening on |card: )(http:\/\/127\.0\.0\.1:\d+)[/\s]/

  const hellos = [["node", "examples/hello-node.ts"], ["bun", "examples/hello-bun.ts"], ["deno", "examples/hello-deno.ts"]] as const
  for (const [runtime, file] of hellos) {
    it(`${file} answers on ${runtime} and closes gracefully on SIGTERM`, async () => {
      let result: any
      const { code } = await run(file, {
        runtime,
        until: listening,
        onMatch: async ([, url]) => { result = await send(url!, "Ada") }
      })
      expect(result.status.state).toBe("completed")
      expect(result.status.message.parts[0].text).toBe("Hello, Ada!")
      expect(code).toBe(0)
    })
  }

  it("echo-agent.ts streams the words back", async () => {
    let state = ""
    await run("examples/echo-agent.ts", {
      until: listening,
      onMatch: async ([, url]) => { state = (await send(url!, "one two three")).status.state }
    })
    expect(state).toBe("completed")
  })

  it("async-agent.ts asks, then shouts", async () => {
    let result: any
    await run("examples/async-agent.ts", {
      until: listening,
      onMatch: async ([, url]) => {
        const asked = await send(url!, "hello")
        expect(asked.status.state).toBe("input-required")
        result = await send(url!, "yes", asked.id)
      }
    })
    expect(result.status.state).toBe("completed")
    expect(result.artifacts[0].parts[0].text).toBe("HELLO")
  })

  it("effect-router.ts serves A2A beside the app's own routes", async () => {
    let health = ""
    let card: any
    await run("examples/effect-router.ts", {
      until: listening,
      onMatch: async ([, url]) => {
        health = await (await fetch(`${url}/health`)).text()
        card = await (await fetch(`${url}/.well-known/agent-card.json`)).json()
      }
    })
    expect(health).toBe("ok")
    expect(card.name).toBe("Routed")
  })

  it("demo-agent.ts (npm start) prints its card URL and answers", async () => {
    let state = ""
    await run("examples/demo-agent.ts", {
      until: listening,
      onMatch: async ([, url]) => { state = (await send(url!, "hello")).status.state }
    })
    expect(state).toBe("completed")
  })

  it("demo-agent.ts with OTEL_EXPORTER_OTLP_ENDPOINT exports its traces, metrics and logs; with A2A_METRICS_PORT it serves /metrics", async () => {
    const otlp = await startOtlpReceiver()
    try {
      let scrape = ""
      let state = ""
      await run("examples/demo-agent.ts", {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", A2A_METRICS_PORT: "0" },
        until: /Metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)\n[\s\S]*card: (http:\/\/127\.0\.0\.1:\d+)\//,
        onMatch: async ([, metrics, url]) => {
          state = (await send(url!, "hello")).status.state
          scrape = await (await fetch(metrics!)).text()
        }
      })
      expect(state).toBe("completed")
      const families = parsePrometheus(scrape)
      expect(sample(families, "a2a_server_requests_total", { a2a_method: "message/send", a2a_outcome: "ok" })).toBe(1)
      // Stopping flushes the exporters: the request's span, its metrics and the task's span reached the collector.
      const request = await otlp.until(() => otlp.spans().find((s) => s.name === "a2a.request" && s.attributes["a2a.method"] === "message/send"))
      expect(request.service).toBe("a2a-actors demo agent")
      expect(otlp.spans().some((s) => s.name === "a2a.task" && s.parentSpanId === request.spanId)).toBe(true)
      expect(otlp.points().some((p) => p.name === "a2a.server.requests" && p.value === 1)).toBe(true)
    } finally {
      await otlp.close()
    }
  })

  it("traced-agents.ts puts a streamed call through two agents in one trace (client → writer → spell checker)", async () => {
    const otlp = await startOtlpReceiver()
    try {
      const { output, code } = await run("examples/traced-agents.ts", { env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" } })
      expect(code, output).toBe(0)
      expect(output).toContain("streamed 4 events")
      const traceId = /trace ([0-9a-f]{32})/.exec(output)![1]!
      const spans = await otlp.until(() => {
        const all = otlp.spans().filter((s) => s.traceId === traceId)
        return all.some((s) => s.name === "write a haiku") && all.filter((s) => s.name === "a2a.agent.run").length === 2 ? all : undefined
      })
      const one = (service: string, name: string, method?: string) =>
        spans.find((s) => s.service === service && s.name === name && (method === undefined || s.attributes["a2a.method"] === method))!
      const root = one("caller", "write a haiku")
      const call = one("caller", "a2a.client.request", "SendStreamingMessage")
      expect(call.parentSpanId).toBe(root.spanId)
      const writerRequest = one("writer", "a2a.request", "SendStreamingMessage")
      expect(writerRequest.parentSpanId).toBe(call.spanId)
      const writerTask = one("writer", "a2a.task")
      expect(writerTask.parentSpanId).toBe(writerRequest.spanId)
      expect(writerTask.events.map((e) => e.attributes["a2a.task.state"])).toEqual(["submitted", "working", "completed"])
      const writerRun = one("writer", "a2a.agent.run")
      const ask = one("writer", "a2a.client.request", "SendMessage")
      expect(ask.parentSpanId).toBe(writerRun.spanId)
      const checkerRequest = one("spell checker", "a2a.request", "SendMessage")
      expect(checkerRequest.parentSpanId).toBe(ask.spanId)
      expect(one("spell checker", "a2a.task").parentSpanId).toBe(checkerRequest.spanId)
    } finally {
      await otlp.close()
    }
  })

  it("npm start says which Node it runs on, and SIGTERM to npm stops the server with it", async () => {
    // Its own process group, so that whatever it leaves behind when this fails is stopped at the end.
    const child = spawn("npm", ["start"], { cwd: root, env: { ...childEnv(), PORT: "0" }, stdio: ["ignore", "pipe", "pipe"], detached: true })
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    try {
      let output = ""
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => (child.kill("SIGKILL"), reject(new Error(`npm start did not listen:\n${output}`))), 60_000)
        const onData = (data: Buffer) => {
          output += data.toString()
          const match = listening.exec(output)
          if (match !== null) (clearTimeout(timer), resolve(match[1]!))
        }
        child.stdout.on("data", onData)
        child.stderr.on("data", onData)
      })
      expect(output).toMatch(/^npm start on Node v24\.\d+\.\d+ \(.*node_modules\/node\/bin\/node\)$/m)
      expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(200)
      child.kill("SIGTERM")
      await exited
      // The server went with npm: its port refuses connections (a few seconds allowed for the graceful close).
      let gone = false
      for (let i = 0; i < 40 && !gone; i++) {
        gone = await fetch(`${url}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(5_000) }).then(
          () => false,
          (e: { readonly cause?: { readonly code?: unknown } }) => e.cause?.code === "ECONNREFUSED"
        )
        if (!gone) await new Promise((resolve) => setTimeout(resolve, 250))
      }
      expect(gone, `the server at ${url} still answers after npm stopped`).toBe(true)
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL")
      } catch {
        // The group has ended.
      }
    }
  })

  it("conformance-agent.ts (npm run start:conformance) answers a plain send at once, and completes the task by itself with one artifact", async () => {
    let sent: any
    let done: any
    await run("examples/conformance-agent.ts", {
      until: listening,
      onMatch: async ([, url]) => {
        sent = await send(url!, "tck")
        done = await eventually(async () => {
          const task = await rpc(url!, "tasks/get", { id: sent.id })
          return task.status.state === "completed" ? task : undefined
        }, 15_000)
      }
    })
    expect(sent.status.state).toBe("working")
    expect(done.artifacts.map((a: any) => a.parts[0].text)).toEqual(["Received: tck"])
  })

  it("conformance-agent.ts answers header-less card requests in A2A_CARD_VERSION's version", async () => {
    const cards: Array<any> = []
    for (const version of ["1.0", "0.3"]) {
      await run("examples/conformance-agent.ts", {
        env: { A2A_CARD_VERSION: version },
        until: listening,
        onMatch: async ([, url]) => { cards.push(await (await fetch(`${url}/.well-known/agent-card.json`)).json()) }
      })
    }
    expect(cards[0].url).toBeUndefined()
    expect(cards[0].supportedInterfaces[0]).toMatchObject({ protocolBinding: "JSONRPC", protocolVersion: "1.0" })
    expect(cards[1].protocolVersion).toBe("0.3.0")
  })
})

describe("postgres-agent.ts (tasks in PostgreSQL)", () => {
  requirePostgres()

  it("keeps its tasks across a restart", async () => {
    const schema = randomSchema()
    const env = { A2A_DATABASE_URL: databaseUrl(), A2A_DATABASE_SCHEMA: schema }
    const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)\s/
    try {
      let noted: any
      await run("examples/postgres-agent.ts", { env, until: listening, onMatch: async ([, url]) => { noted = await send(url!, "buy milk") } })
      expect(noted.status.state).toBe("completed")
      let again: any
      await run("examples/postgres-agent.ts", {
        env,
        until: listening,
        onMatch: async ([, url]) => {
          const response = await fetch(`${url}/`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/get", params: { id: noted.id } })
          })
          again = (await response.json()).result
        }
      })
      expect(again).toEqual(noted)
      expect(again.artifacts[0].parts[0].text).toBe("buy milk")
    } finally {
      await Effect.runPromise(dropSchema(schema))
    }
  })
})

describe("resuming-agent.ts (an answer after a restart)", () => {
  requirePostgres()

  it("asks, is stopped, and finishes with what its first run saved once the answer reaches the next server", async () => {
    const schema = randomSchema()
    const env = { A2A_DATABASE_URL: databaseUrl(), A2A_DATABASE_SCHEMA: schema }
    const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)\s/
    try {
      let asked: any
      await run("examples/resuming-agent.ts", { env, until: listening, onMatch: async ([, url]) => { asked = await send(url!, "a table at eight") } })
      expect(asked.status.state).toBe("input-required")
      expect(asked.status.message.parts[0].text).toBe(`For how many people is "a table at eight"?`)
      let booked: any
      await run("examples/resuming-agent.ts", { env, until: listening, onMatch: async ([, url]) => { booked = await send(url!, "4", asked.id) } })
      expect(booked.status.state).toBe("completed")
      expect(booked.status.message.parts[0].text).toMatch(/^Booked "a table at eight" for 4 \(reference [0-9a-f]{8}\)$/)
      // What the first run saved stayed on the server.
      expect(JSON.stringify(asked)).not.toContain("reference")
    } finally {
      await Effect.runPromise(dropSchema(schema))
    }
  })
})

describe("secured-server.ts (npm run start:secured)", () => {
  const ready = /listening on (http:\/\/127\.0\.0\.1:\d+)\n[\s\S]*card key: +ES256, kid (\S+);[\s\S]*admin key: +(\S+)[\s\S]*Try it:/
  const publicUrl = "https://secured-agent.example"
  const partnerKey = "partner-key-from-the-environment"

  /** A JSON-RPC message/send with the given key (or none) and skill (or none). */
  const sendAs = async (url: string, key: string | undefined, skill?: string) => {
    const response = await fetch(`${url}/`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key === undefined ? {} : { "x-api-key": key }) },
      body: JSON.stringify({
        jsonrpc: "2.0", id: 1, method: "message/send",
        params: { message: { kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text: "hi" }], ...(skill === undefined ? {} : { metadata: { skill } }) } }
      }),
      signal: AbortSignal.timeout(20_000)
    })
    return { status: response.status, challenge: response.headers.get("www-authenticate"), body: (await response.json()) as any }
  }
  const replyText = (body: any): string => body.result.status.message.parts[0].text

  it("is what npm run start:secured runs", async () => {
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"))
    // exec: npm's SIGTERM reaches the server itself, not only the shell running it.
    expect(pkg.scripts["start:secured"]).toBe("exec tsx examples/secured-server.ts")
  })

  it("refuses to start without PUBLIC_URL, with exit code 2 and a message saying so", async () => {
    const { output, code } = await run("examples/secured-server.ts", { env: { PUBLIC_URL: "" } })
    expect(code).toBe(2)
    expect(output).toContain("PUBLIC_URL is required")
    expect(output).not.toContain("listening on")
  })

  it("runs skills by key, refuses before any task, audits a verifiable chain and serves a verifiable card", async () => {
    const dir = await mkdtemp(join(tmpdir(), "secured-server-"))
    const auditFile = join(dir, "audit.jsonl")
    try {
      const seen: Record<string, any> = {}
      const first = await run("examples/secured-server.ts", {
        env: { PUBLIC_URL: publicUrl, PARTNER_KEY: partnerKey, A2A_AUDIT_FILE: auditFile },
        until: ready,
        onMatch: async ([, url, kid, adminKey]) => {
          seen.kid = kid
          seen.none = await sendAs(url!, undefined)
          seen.wrong = await sendAs(url!, "not-a-key")
          seen.partner = await sendAs(url!, partnerKey)
          seen.partnerAdmin = await sendAs(url!, partnerKey, "admin")
          seen.restPartnerAdmin = await fetch(`${url}/v1/message:send`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": partnerKey },
            body: JSON.stringify({ message: { role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text: "hi" }], metadata: { skill: "admin" } } })
          }).then((r) => r.status)
          seen.admin = await sendAs(url!, adminKey, "admin")
          seen.adminDefault = await sendAs(url!, adminKey)
          seen.verified = await Effect.runPromise(discoverVerifiedCard(url!, { keys: new URL(`${url}/.well-known/agent-card-jwks.json`) }))
        }
      })
      // A key from the environment is never printed; a generated one is.
      expect(first.output).toContain("partner key:  from PARTNER_KEY")
      expect(first.output).not.toContain(partnerKey)
      expect(first.output).toMatch(/admin key: +\S+ \(generated/)

      expect(seen.none.status).toBe(401)
      expect(seen.none.challenge).toBe('ApiKey realm="a2a", in="header", name="X-API-Key"')
      expect(seen.wrong.status).toBe(401)
      expect(replyText(seen.partner.body)).toBe("skill: echo, principal: partner; you said: hi")
      expect(seen.partnerAdmin.status).toBe(403)
      expect(seen.partnerAdmin.body.error.data).toMatchObject({ status: 403, reason: "insufficient_scope" })
      expect(seen.restPartnerAdmin).toBe(403)
      expect(replyText(seen.admin.body)).toBe("skill: admin, principal: admin; you said: hi")
      expect(replyText(seen.adminDefault.body)).toBe("skill: echo, principal: admin; you said: hi")

      // The card names PUBLIC_URL and verifies against the served key.
      expect(seen.verified.card.url).toBe(`${publicUrl}/`)
      expect(seen.verified.signatures.map((s: any) => s.kid)).toEqual([seen.kid])

      // The audit chain verifies; refusals are in it, and only the three admitted sends made tasks.
      const lines = (await readFile(auditFile, "utf8")).split("\n")
      const chain = await Effect.runPromise(verifyChain(lines))
      expect(chain.ok).toBe(true)
      const events = lines.filter((l) => l !== "").map((l) => JSON.parse(l))
      expect(events.filter((e) => e.kind === "auth-refused").map((e) => e.status).sort()).toEqual([401, 401, 403, 403])
      expect(events.filter((e) => e.kind === "task-transition" && e.from === null)).toHaveLength(3)
      expect(events.filter((e) => e.kind === "request" && e.outcome === "ok").map((e) => e.principal).sort()).toEqual(["admin", "admin", "partner"])

      // A restart continues the chain in the same file.
      const second = await run("examples/secured-server.ts", {
        env: { PUBLIC_URL: publicUrl, PARTNER_KEY: partnerKey, A2A_AUDIT_FILE: auditFile },
        until: ready,
        onMatch: async ([, url]) => { seen.again = await sendAs(url!, partnerKey) }
      })
      expect(second.output).toContain(`continuing at seq ${events.length + 1}`)
      expect(replyText(seen.again.body)).toBe("skill: echo, principal: partner; you said: hi")
      const longer = (await readFile(auditFile, "utf8")).split("\n")
      const continued = await Effect.runPromise(verifyChain(longer))
      expect(continued.ok && continued.count).toBeGreaterThan(events.length)

      // A tampered file is refused at start.
      await writeFile(auditFile, longer.join("\n").replace('"principal":"partner"', '"principal":"mallory"'))
      const third = await run("examples/secured-server.ts", { env: { PUBLIC_URL: publicUrl, A2A_AUDIT_FILE: auditFile } })
      expect(third.code).toBe(2)
      expect(third.output).toMatch(/is not an intact audit chain \(line \d+: hash/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
