import { spawn } from "node:child_process"
import { describe, expect, it } from "vitest"
import { processCpuMicros } from "./process-cpu.ts"

describe("a contender's CPU time, read from the OS", () => {
  it("agrees with what the process itself counts, and is undefined once it is gone", async () => {
    // The child burns CPU until it has used 300 ms by its own count, prints that count, and waits.
    const child = spawn(process.execPath, ["-e", [
      "const start = process.cpuUsage()",
      "let used = 0",
      "while (used < 300_000) { const u = process.cpuUsage(start); used = u.user + u.system }",
      "const u = process.cpuUsage(); console.log(u.user + u.system)",
      "setInterval(() => {}, 1000)"
    ].join("\n")], { stdio: ["ignore", "pipe", "inherit"] })
    const own = await new Promise<number>((resolve) => child.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))))
    const read = processCpuMicros(child.pid!)
    expect(own).toBeGreaterThanOrEqual(300_000)
    // The child idles once it has printed: what the OS counts is what it counted, plus its start-up threads.
    expect(read).toBeGreaterThan(own - 20_000)
    expect(read).toBeLessThan(own + 60_000)
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGKILL")
    await exited
    expect(processCpuMicros(child.pid!)).toBeUndefined()
  })
})
