/**
 * `npm run start:cluster` as a user runs it: one process that prints the front's URL and each
 * instance's runtime, pid and port, serves through the front, and stops everything on SIGTERM.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { clusterDatabase, databaseSkipReason } from "./cluster-database.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const database = clusterDatabase()

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe.skipIf(database === undefined)(`npm run start:cluster${databaseSkipReason}`, () => {
  afterAll(async () => {
    await database?.drop()
  }, 30_000)

  it("prints the front and its three instances, serves through the front, and stops them all on SIGTERM", async () => {
    const env = await database!.create()
    const child = spawn(process.execPath, ["--import", "tsx", "examples/cluster/start-cluster.ts"], {
      cwd: root,
      env: { ...process.env, ...env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    let stdout = ""
    let stderr = ""
    child.stderr.on("data", (d: Buffer) => { stderr += d.toString() })
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listing within 90 s:\n${stdout}\n${stderr.slice(-3000)}`)), 90_000)
        child.stdout.on("data", (d: Buffer) => {
          stdout += d.toString()
          if (/deno\s+pid/.test(stdout) && stdout.endsWith("\n")) {
            clearTimeout(timer)
            resolve()
          }
        })
        void exited.then((code) => reject(new Error(`exited with ${code}:\n${stdout}\n${stderr.slice(-3000)}`)))
      })
      const front = /Cluster front: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1]
      expect(front, stdout).toBeDefined()
      expect(stdout).toContain(`schema ${env["A2A_DATABASE_SCHEMA"]}`)
      const listed = [...stdout.matchAll(/^\s+(node|bun|deno)\s+pid (\d+)\s+port (\d+)/gm)].map((m) => ({ runtime: m[1]!, pid: Number(m[2]), port: Number(m[3]) }))
      expect(listed.map((i) => i.runtime)).toEqual(["node", "bun", "deno"])
      for (const i of listed) expect(alive(i.pid)).toBe(true)

      const card = await (await fetch(`${front}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(10_000) })).json() as { url: string; name: string }
      expect(card.name).toBe("a2a-actors demo agent")
      expect(card.url).toBe(`${front}/`)

      child.kill("SIGTERM")
      expect(await exited).toBe(0)
      const deadline = Date.now() + 10_000
      while (listed.some((i) => alive(i.pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      expect(listed.filter((i) => alive(i.pid))).toEqual([])
    } finally {
      child.kill("SIGKILL")
    }
  }, 120_000)
})
