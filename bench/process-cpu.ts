/**
 * The CPU time a contender's process has used, read from the operating system rather than from inside the
 * process, so every contender is measured the same way and the reading costs the contender nothing.
 *
 * Linux: the time each thread of the process has run, in nanoseconds (`/proc/<pid>/task/<tid>/schedstat`),
 * summed over its threads; where the kernel keeps no schedstat, `/proc/<pid>/stat` (user + system time in
 * clock ticks, usually 10 ms, too coarse for a short round). A thread that ends during a round takes its time
 * with it: the runtimes measured here keep their threads for the life of the process. Elsewhere: `ps -o time=`,
 * whole seconds only, so per-unit figures need long windows there.
 */
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"

let ticksPerSecond: number | undefined

const clockTicks = (): number => {
  if (ticksPerSecond === undefined) {
    const read = Number.parseInt(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim(), 10)
    ticksPerSecond = Number.isFinite(read) && read > 0 ? read : 100
  }
  return ticksPerSecond
}

/** Nanoseconds every thread of `pid` has run, from schedstat; undefined when the kernel does not keep it. */
const scheduledNanos = (pid: number): number | undefined => {
  let total = 0
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      let line: string
      try {
        line = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8")
      } catch {
        continue // the thread ended between the listing and the read
      }
      const ran = Number(line.split(" ")[0])
      if (!Number.isFinite(ran)) return undefined
      total += ran
    }
  } catch {
    return undefined
  }
  return total > 0 ? total : undefined
}

/** CPU time `pid` has used, in microseconds; undefined once the process is gone. */
export const processCpuMicros = (pid: number): number | undefined => {
  if (process.platform === "linux") {
    const nanos = scheduledNanos(pid)
    if (nanos !== undefined) return nanos / 1000
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    } catch {
      return undefined
    }
    // The command name (field 2) is in parentheses and may hold spaces: fields are counted after it.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const utime = Number(rest[11])
    const stime = Number(rest[12])
    return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1e6) / clockTicks() : undefined
  }
  try {
    const text = execFileSync("ps", ["-o", "time=", "-p", String(pid)], { encoding: "utf8" }).trim()
    const [days, clock] = text.includes("-") ? (text.split("-") as [string, string]) : ["0", text]
    const seconds = clock.split(":").map(Number).reduce((total, part) => total * 60 + part, 0)
    return (Number(days) * 86_400 + seconds) * 1e6
  } catch {
    return undefined
  }
}
