/**
 * Every example runs: the self-contained ones print what the README says they print, the
 * servers answer a real request.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("..", import.meta.url))

interface Run {
  readonly output: string
  readonly code: number | null
}

/** Runs `file` with tsx until it exits (or is stopped once `until` matches its output). */
const run = (file: string, options: { env?: Record<string, string>; until?: RegExp; onMatch?: (m: RegExpExecArray) => Promise<void> } = {}) =>
  new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", file], {
      cwd: root,
      env: { ...process.env, PORT: "0", ...options.env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    let matched = false
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${file} did not finish in time:\n${output}`))
    }, 60_000)
    const onData = (data: Buffer) => {
      output += data.toString()
      const match = options.until?.exec(output)
      if (match && !matched) {
        matched = true
        options.onMatch!(match).then(() => child.kill("SIGTERM"), (error) => {
          child.kill("SIGKILL")
          reject(error)
        })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolve({ output, code })
    })
  })

const send = async (url: string, text: string, taskId?: string) => {
  const response = await fetch(`${url}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0", id: 1, method: "message/send",
      params: { message: { kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text }], ...(taskId ? { taskId } : {}) } }
    }),
    signal: AbortSignal.timeout(20_000)
  })
  return (await response.json()).result
}

describe("self-contained examples", () => {
  it("client.ts sends, streams and continues a task", async () => {
    const { output, code } = await run("examples/client.ts")
    expect(code).toBe(0)
    expect(output).toContain('send: completed, artifact "hello from the client"')
    expect(output).toMatch(/stream: task\nstream: status-update working\n(stream: artifact-update\n)+stream: status-update completed/)
    expect(output).toContain('greet: completed, "Hello, Ada!"')
  })

  it("approval-workflow.ts drives the machine by reply, by our client and by plain HTTP", async () => {
    const { output, code } = await run("examples/approval-workflow.ts")
    expect(code).toBe(0)
    expect(output).toContain("draft: input-required")
    expect(output).toContain("revise: input-required")
    expect(output).toContain("approve (client): completed, 1 artifact(s)")
    expect(output).toContain('reject (http): rejected, "Rejected: not needed"')
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
    expect(card.name).toBe("a2a-actors demo agent")
  })

  it("demo-agent.ts (npm start) prints its card URL and answers", async () => {
    let state = ""
    await run("examples/demo-agent.ts", {
      until: listening,
      onMatch: async ([, url]) => { state = (await send(url!, "hello")).status.state }
    })
    expect(state).toBe("completed")
  })

  it("conformance-agent.ts (npm run start:conformance) completes a task by itself with one artifact", async () => {
    let result: any
    await run("examples/conformance-agent.ts", {
      until: listening,
      onMatch: async ([, url]) => { result = await send(url!, "tck") }
    })
    expect(result.status.state).toBe("completed")
    expect(result.artifacts.map((a: any) => a.parts[0].text)).toEqual(["Received: tck"])
  })
})
