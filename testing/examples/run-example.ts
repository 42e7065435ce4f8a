/**
 * Runs the project's examples as their readers would (a process per example, on Node, Bun or Deno) and talks
 * to the servers they start.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("../..", import.meta.url))

export interface Run {
  readonly output: string
  readonly code: number | null
}

/** The runtimes an example can run on: Node with tsx, and Bun and Deno from the dev dependencies. */
export const runtimes = {
  node: (file: string) => [process.execPath, ["--import", "tsx", file]],
  bun: (file: string) => [`${root}node_modules/bun/bin/bun.exe`, [file]],
  deno: (file: string) => [`${root}node_modules/deno/deno`, ["run", "--unstable-no-legacy-abort", "--allow-net", "--allow-env", file]]
} satisfies Record<string, (file: string) => [string, Array<string>]>

/** Runs `file` (with tsx, unless another runtime is named) until it exits (or is stopped once `until` matches its output). */
export const run = (
  file: string,
  options: { runtime?: keyof typeof runtimes; env?: Record<string, string>; until?: RegExp; onMatch?: (m: RegExpExecArray) => Promise<void> } = {}
) =>
  new Promise<Run>((resolve, reject) => {
    const [command, args] = runtimes[options.runtime ?? "node"](file)
    const child = spawn(command, args, {
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

/** A JSON-RPC call to `url`; its result. */
export const rpc = async (url: string, method: string, params: unknown) => {
  const response = await fetch(`${url}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(20_000)
  })
  return (await response.json()).result
}


/** A 0.3 `message/send` of `text` (to `taskId` when given); its result. */
export const send = async (url: string, text: string, taskId?: string) => {
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
