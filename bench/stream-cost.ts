/**
 * The server's CPU per streamed event, measured in one process: this project's Node server (the
 * `@effect/platform-node` fast path, or the Web handler with `--web`) answers `message/stream` calls
 * for `--chunks` artifact chunks over loopback HTTP, and a client on a bare socket only counts the bytes
 * until the final event. The client's share is small and the same for every build, so the process's CPU
 * per event tracks what the runtime spends per event, with no second process competing for the cores.
 *
 * It runs as compiled JavaScript (see compiled.ts).
 *
 * Usage: npx tsx bench/stream-cost.ts [--chunks 100000] [--rounds 7] [--web] [--v1] [--profile <file>]
 * Prints each round's microseconds of CPU and wall time per event, and their medians. `--profile` writes a
 * V8 CPU profile of the measured rounds alone (no start-up, no warm-up) to `<file>` (`.cpuprofile`), for
 * `npx tsx bench/profile-summary.ts`.
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { connect } from "node:net"
import process from "node:process"
import { serveNode } from "../src/adapters/node.ts"
import { runCompiled } from "./compiled.ts"
import { benchServer } from "./contenders/a2a-actors-agent.ts"
import { argValue, hasFlag } from "./contenders/control.ts"

runCompiled(import.meta.url)

const chunks = Number(argValue("chunks") ?? "100000")
const rounds = Number(argValue("rounds") ?? "7")
const v1 = hasFlag("v1")

const listening = await serveNode(await benchServer({ ttlMs: 2000, logWindow: chunks + 16 }), {
  port: 0,
  host: "127.0.0.1",
  web: hasFlag("web")
})
const url = new URL(listening.url)

const body = v1
  ? JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendStreamingMessage",
    params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: String(chunks) }] } }
  })
  : JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "message/stream",
    params: { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: String(chunks) }] } }
  })
const head = `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
  `${v1 ? "a2a-version: 1.0\r\n" : ""}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`
const ending = v1 ? "TASK_STATE_COMPLETED" : `"final":true`

/** One stream read to its end: the bytes received. */
const streamOnce = () =>
  new Promise<number>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let bytes = 0
    let tail = ""
    socket.on("connect", () => socket.write(head + body))
    socket.on("data", (b: Buffer) => {
      bytes += b.length
      tail = (tail + b.toString("latin1", Math.max(0, b.length - 256))).slice(-512)
    })
    socket.on("error", reject)
    socket.on("close", () => (tail.includes(ending) ? resolve(bytes) : reject(new Error(`stream ended early: ${tail}`))))
  })

const profileTo = argValue("profile")
const session = profileTo === undefined ? undefined : new Session()

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const cpus: Array<number> = []
const walls: Array<number> = []
for (let r = 0; r <= rounds; r++) {
  ;(globalThis as { gc?: () => void }).gc?.()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const bytes = await streamOnce()
  const wall = ((performance.now() - started) * 1000) / chunks
  const used = process.cpuUsage(cpu)
  const us = (used.user + used.system) / chunks
  if (r === 0) {
    // warm-up
    if (session !== undefined) {
      session.connect()
      await session.post("Profiler.enable")
      await session.post("Profiler.start")
    }
    continue
  }
  cpus.push(us)
  walls.push(wall)
  console.log(`round ${r}: cpu ${us.toFixed(2)} us/event, wall ${wall.toFixed(2)} us/event, ${bytes} bytes`)
}
if (session !== undefined && profileTo !== undefined) {
  const { profile } = await session.post("Profiler.stop")
  writeFileSync(profileTo, JSON.stringify(profile))
  session.disconnect()
}
console.log(`median: cpu ${median(cpus).toFixed(2)} us/event, wall ${median(walls).toFixed(2)} us/event`)
await listening.close()
process.exit(0)
