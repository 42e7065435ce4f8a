/**
 * `PORT=<n> npm run start:cluster`: the demo agent as three instances, one each on Node, Bun and
 * Deno, sharing one PostgreSQL database, behind a round-robin front on port n (default 41241).
 *
 * - `A2A_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/test`) and `A2A_DATABASE_SCHEMA`
 *   (default `a2a_cluster`) say where the instances keep their tasks; every other variable of the
 *   instances (`A2A_*`, `PUSH_ALLOW`, `AGENT`, ...) passes through.
 * - The instances listen on free loopback ports; their cards name the front (`PUBLIC_URL`).
 * - It prints the front's URL and each instance's runtime, pid and port, then runs until SIGINT or
 *   SIGTERM, which stop every instance and the front.
 *
 * `startCluster` does the same from code (tests and the bench use it).
 *
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import { startFront, type Front } from "./front.ts"

/** A runtime an instance can run on. */
export type InstanceRuntime = "node" | "bun" | "deno"

/** One instance of the cluster, in its own process. */
export interface ClusterInstance {
  /** Its name in the front's `X-A2A-Instance` header: the runtime, numbered when it repeats. */
  readonly name: string
  readonly runtime: InstanceRuntime
  readonly pid: number
  readonly port: number
  /** Its own origin, bypassing the front. */
  readonly url: string
  /** Whether the process is still running. */
  readonly running: () => boolean
  /**
   * Sends `signal` (default SIGTERM: a graceful stop, which lets running tasks finish for the server's
   * grace of 5 s, then hands them over) and resolves once the process has exited; SIGKILL after 20 s.
   */
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** The front's port; 0 (the default) picks a free one. */
  readonly port?: number
  /** Where the front listens; default `127.0.0.1`. The instances always listen on 127.0.0.1. */
  readonly host?: string
  /** One instance per entry; default Node, Bun and Deno. */
  readonly runtimes?: ReadonlyArray<InstanceRuntime>
  /** Variables given to every instance on top of this process's environment. */
  readonly env?: Readonly<Record<string, string>>
  /** Longest wait for an instance to listen; default 60 s. */
  readonly startTimeoutMs?: number
  /** Receives each line an instance writes, prefixed with its name; default: dropped. */
  readonly output?: (line: string) => void
}

/** A running cluster. */
export interface Cluster {
  /** The front's URL: the one URL clients use. */
  readonly url: string
  readonly front: Front
  readonly instances: ReadonlyArray<ClusterInstance>
  /** Stops every instance, then the front. */
  readonly stop: () => Promise<void>
}

const root = fileURLToPath(new URL("../../", import.meta.url))

/** Permissions of a Deno instance: its port, the database, its environment and the project's files. */
const denoFlags = ["--unstable-no-legacy-abort", "--allow-net", "--allow-env", "--allow-read", "--allow-sys"]

const commandOf = (runtime: InstanceRuntime): [string, Array<string>] => {
  switch (runtime) {
    case "node":
      return [process.execPath, ["--import", "tsx", "examples/node-server.ts"]]
    case "bun":
      return [`${root}node_modules/bun/bin/bun.exe`, ["examples/bun-server.ts"]]
    case "deno":
      return [`${root}node_modules/deno/deno`, ["run", ...denoFlags, "examples/deno-server.ts"]]
  }
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()))

const stopChild = async (child: ChildProcess, signal: NodeJS.Signals): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const force = signal === "SIGKILL" ? undefined : setTimeout(() => child.kill("SIGKILL"), 20_000)
  child.kill(signal)
  await exited(child)
  clearTimeout(force)
}

/** Starts one instance and resolves once it listens. */
const startInstance = (
  name: string,
  runtime: InstanceRuntime,
  env: Readonly<Record<string, string>>,
  timeoutMs: number,
  output: (line: string) => void
): Promise<ClusterInstance> => {
  const [command, args] = commandOf(runtime)
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: "0", HOST: "127.0.0.1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  return new Promise((resolve, reject) => {
    let seen = ""
    let listening = false
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`instance ${name} (${runtime}) did not listen within ${timeoutMs} ms:\n${seen.slice(-4000)}`))
    }, timeoutMs)
    const lines = (stream: NodeJS.ReadableStream) => {
      let rest = ""
      stream.setEncoding("utf8")
      stream.on("data", (text: string) => {
        rest += text
        for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n")) {
          const line = rest.slice(0, nl)
          rest = rest.slice(nl + 1)
          if (!listening) seen = (seen + line + "\n").slice(-20_000)
          output(`[${name}] ${line}`)
          const match = listening ? null : /listening on (http:\/\/\S+)/.exec(line)
          if (match !== null) {
            listening = true
            clearTimeout(timer)
            const url = match[1]!
            resolve({
              name,
              runtime,
              pid: child.pid!,
              port: Number(new URL(url).port),
              url,
              running: () => child.exitCode === null && child.signalCode === null,
              stop: (signal = "SIGTERM") => stopChild(child, signal)
            })
          }
        }
      })
    }
    lines(child.stdout!)
    lines(child.stderr!)
    child.once("error", (error) => {
      clearTimeout(timer)
      reject(new Error(`instance ${name} (${runtime}) could not start: ${error.message}`))
    })
    child.once("exit", (code, signal) => {
      if (listening) return output(`[${name}] exited (${code ?? signal})`)
      clearTimeout(timer)
      reject(new Error(`instance ${name} (${runtime}) exited with ${code ?? signal} before listening:\n${seen.slice(-4000)}`))
    })
  })
}

/** Names for the instances: the runtime, numbered when a runtime appears more than once. */
const namesOf = (runtimes: ReadonlyArray<InstanceRuntime>): Array<string> =>
  runtimes.map((runtime, i) =>
    runtimes.filter((r) => r === runtime).length === 1 ? runtime : `${runtime}-${runtimes.slice(0, i + 1).filter((r) => r === runtime).length}`
  )

/**
 * Starts the front, then the instances (together; the store's migrations are safe to run
 * concurrently), and puts the instances behind the front. If any instance fails to start, the
 * others and the front are stopped and the error is thrown.
 */
export const startCluster = async (options: ClusterOptions = {}): Promise<Cluster> => {
  const runtimes = options.runtimes ?? ["node", "bun", "deno"]
  const output = options.output ?? (() => {})
  // The front listens first: its URL is what the instances' cards name.
  const front = await startFront({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" })
  const env = { ...options.env, PUBLIC_URL: front.url }
  const names = namesOf(runtimes)
  const started = await Promise.allSettled(
    runtimes.map((runtime, i) => startInstance(names[i]!, runtime, env, options.startTimeoutMs ?? 60_000, output))
  )
  const instances = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []))
  const failure = started.find((s): s is PromiseRejectedResult => s.status === "rejected")
  if (failure !== undefined) {
    await Promise.all(instances.map((i) => i.stop()))
    await front.close()
    throw failure.reason
  }
  front.setBackends(instances.map((i) => ({ name: i.name, url: i.url })))
  return {
    url: front.url,
    front,
    instances,
    stop: async () => {
      await Promise.all(instances.map((i) => i.stop()))
      await front.close()
    }
  }
}

/** The database URL without its password, for printing. */
export const redactedUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.href
  } catch {
    return "(not a URL)"
  }
}

const main = async () => {
  const databaseUrl = process.env["A2A_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
  const schema = process.env["A2A_DATABASE_SCHEMA"] ?? "a2a_cluster"
  const cluster = await startCluster({
    port: Number(process.env["PORT"] ?? 41241),
    host: process.env["HOST"] ?? "127.0.0.1",
    env: { A2A_DATABASE_URL: databaseUrl, A2A_DATABASE_SCHEMA: schema },
    output: (line) => process.stderr.write(`${line}\n`)
  })
  process.stdout.write(
    [
      `Cluster front: ${cluster.url} (agent card: ${cluster.url}/.well-known/agent-card.json)`,
      `Store: PostgreSQL ${redactedUrl(databaseUrl)}, schema ${schema}`,
      ...cluster.instances.map((i) => `  ${i.name.padEnd(6)} pid ${String(i.pid).padEnd(8)} port ${i.port}  ${i.url}`),
      ""
    ].join("\n")
  )
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    void cluster.stop().then(() => process.exit(0))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(1)
  })
}
