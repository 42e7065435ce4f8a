/**
 * Starts the example server in a child process on Node (fast path or Web handler), Bun or Deno,
 * so tests can run the same black-box suites against every host. Bun and Deno come from the
 * npm dev dependencies.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"

/** The hosts every suite runs against. */
export const hosts = ["node", "node-web", "bun", "deno"] as const
/** One host. */
export type Host = (typeof hosts)[number]

/** A server running in a child process. */
export interface HostedServer {
  readonly host: Host
  /** The origin, e.g. `http://127.0.0.1:40123`; the JSON-RPC endpoint is at `/`. */
  readonly url: string
  /** Stops the process and waits for it to exit. */
  readonly close: () => Promise<void>
  /** Kills the process at once (SIGKILL: no shutdown, no finalizers) and waits for it to exit. */
  readonly kill: () => Promise<void>
}

const root = fileURLToPath(new URL("..", import.meta.url))

/**
 * Flags for every `deno run` of a server: `Deno.serve` by default aborts `request.signal` even after a
 * successful response (its legacy behaviour, announced by a warning on each start), and the Effect Web
 * handler listens to that signal; this opts in to the behaviour Deno is moving to, where it aborts only
 * when the client goes away.
 */
export const denoRunFlags = ["--unstable-no-legacy-abort"] as const

const command = (host: Host): [string, Array<string>] => {
  switch (host) {
    case "node":
    case "node-web":
      return [process.execPath, ["--import", "tsx", "examples/node-server.ts"]]
    case "bun":
      return [`${root}node_modules/bun/bin/bun.exe`, ["examples/bun-server.ts"]]
    case "deno":
      return [`${root}node_modules/deno/deno`, ["run", ...denoRunFlags, "--allow-net", "--allow-env", "--allow-read", "examples/deno-server.ts"]]
  }
}

/** Starts `agent` (`demo` or `conformance`) on `host` and resolves once it listens. */
export const startHost = (
  host: Host,
  agent: "demo" | "conformance",
  options: { readonly timeoutMs?: number; readonly env?: Record<string, string> } = {}
): Promise<HostedServer> => {
  const [cmd, args] = command(host)
  const child = spawn(cmd, args, {
    cwd: root,
    env: { ...process.env, ...options.env, AGENT: agent, PORT: "0", HOST: "127.0.0.1", NODE_WEB: host === "node-web" ? "1" : "0", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  return new Promise((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${host} server did not start in time:\n${output}`))
    }, options.timeoutMs ?? 60_000)
    const onData = (data: Buffer) => {
      output += data.toString()
      const match = /listening on (http:\/\/\S+)\s/.exec(output)
      if (match !== null) {
        clearTimeout(timer)
        child.stdout?.off("data", onData)
        resolve({ host, url: match[1]!, close: () => stop(child), kill: () => stop(child, "SIGKILL") })
      }
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", (data: Buffer) => { output += data.toString() })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`${host} server exited with ${code}:\n${output}`))
    })
  })
}

const stop = (child: ChildProcess, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000)
    child.once("exit", () => {
      clearTimeout(force)
      resolve()
    })
    child.kill(signal)
  })
