/**
 * The CPU time a contender's process has used, read from the operating system rather than from inside the
 * process, so every contender is measured the same way and the reading costs the contender nothing.
 *
 * Linux: `/proc/<pid>/stat` (user + system time of every thread of the process, in clock ticks, usually
 * 10 ms). Elsewhere: `ps -o time=`, whole seconds only, so per-unit figures need long windows there.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"

let ticksPerSecond: number | undefined

const clockTicks = (): number => {
  if (ticksPerSecond === undefined) {
    const read = Number.parseInt(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim(), 10)
    ticksPerSecond = Number.isFinite(read) && read > 0 ? read : 100
  }
  return ticksPerSecond
}

/** User + system CPU time of `pid` in microseconds; undefined once the process is gone. */
export const processCpuMicros = (pid: number): number | undefined => {
  if (process.platform === "linux") {
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
